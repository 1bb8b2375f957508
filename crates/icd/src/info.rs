//! The `clGet*Info` size protocol, implemented once: a query produces its value's bytes, and
//! [`answer`] copies them out as every info function of the spec requires.

use ferrocl_core::features::NameVersion;
use ferrocl_core::{ClError, ClResult};
use opencl_sys::{cl_name_version, CL_NAME_VERSION_MAX_NAME_SIZE};

/// A value a query can return, as the bytes the C caller sees.
pub trait InfoValue {
    fn bytes(&self) -> Vec<u8>;
}

macro_rules! plain_info {
    ($($t:ty),*) => {$(
        impl InfoValue for $t {
            fn bytes(&self) -> Vec<u8> {
                self.to_ne_bytes().to_vec()
            }
        }
    )*};
}
plain_info!(u32, i32, u64, i64, usize, isize);

/// `cl_bool`: a `cl_uint` that is 0 or 1.
impl InfoValue for bool {
    fn bytes(&self) -> Vec<u8> {
        (*self as u32).bytes()
    }
}

/// `char[]`: the string with its terminating NUL.
impl InfoValue for str {
    fn bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.len() + 1);
        v.extend_from_slice(self.as_bytes());
        v.push(0);
        v
    }
}

impl InfoValue for String {
    fn bytes(&self) -> Vec<u8> {
        InfoValue::bytes(self.as_str())
    }
}

impl<T: InfoValue> InfoValue for [T] {
    fn bytes(&self) -> Vec<u8> {
        self.iter().flat_map(|v| v.bytes()).collect()
    }
}

impl<T: InfoValue> InfoValue for Vec<T> {
    fn bytes(&self) -> Vec<u8> {
        self.as_slice().bytes()
    }
}

impl<T: InfoValue, const N: usize> InfoValue for [T; N] {
    fn bytes(&self) -> Vec<u8> {
        self.as_slice().bytes()
    }
}

/// A handle returned by a query.
impl<T> InfoValue for *mut T {
    fn bytes(&self) -> Vec<u8> {
        (*self as usize).bytes()
    }
}

/// `cl_name_version[]` entries.
impl InfoValue for NameVersion {
    fn bytes(&self) -> Vec<u8> {
        let mut entry = cl_name_version {
            version: self.version.packed(),
            name: [0; CL_NAME_VERSION_MAX_NAME_SIZE],
        };
        let name = self.name.as_bytes();
        let n = name.len().min(CL_NAME_VERSION_MAX_NAME_SIZE - 1);
        entry.name[..n].copy_from_slice(&name[..n]);
        let mut v = Vec::with_capacity(std::mem::size_of::<cl_name_version>());
        v.extend_from_slice(&entry.version.to_ne_bytes());
        v.extend_from_slice(&entry.name);
        v
    }
}

/// The bytes of any info value.
pub fn of<T: InfoValue + ?Sized>(value: &T) -> Vec<u8> {
    value.bytes()
}

/// Copies a query's answer out to the caller.
///
/// Every `clGet*Info` (e.g. 4.1): CL_INVALID_VALUE "if size in bytes specified by
/// param_value_size is < size of return type ... and param_value is not a NULL value";
/// `param_value_size_ret` receives the actual size, and a NULL `param_value` is ignored.
///
/// # Safety
/// `param_value` must be NULL or writable for `param_value_size` bytes; `param_value_size_ret`
/// must be NULL or writable.
pub unsafe fn answer(
    bytes: &[u8],
    param_value_size: usize,
    param_value: *mut std::ffi::c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    if !param_value.is_null() {
        if param_value_size < bytes.len() {
            return Err(ClError::InvalidValue);
        }
        // SAFETY: the caller's contract; `bytes.len() <= param_value_size`.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), param_value.cast::<u8>(), bytes.len())
        };
    }
    if !param_value_size_ret.is_null() {
        // SAFETY: the caller's contract.
        unsafe { param_value_size_ret.write(bytes.len()) };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrocl_core::features::Version;

    #[test]
    fn size_protocol() {
        let bytes = of(&7u32);
        let mut out = 0u32;
        let mut size = 0usize;
        // SAFETY: out and size are valid locals.
        unsafe {
            answer(&bytes, 4, (&mut out as *mut u32).cast(), &mut size).unwrap();
            assert_eq!((out, size), (7, 4));
            assert_eq!(
                answer(&bytes, 2, (&mut out as *mut u32).cast(), &mut size),
                Err(ClError::InvalidValue)
            );
            answer(&bytes, 0, std::ptr::null_mut(), &mut size).unwrap();
        }
        assert_eq!(size, 4);
    }

    #[test]
    fn strings_and_name_versions() {
        assert_eq!(of("ab"), b"ab\0");
        let nv = NameVersion {
            name: "cl_khr_icd",
            version: Version::new(1, 0, 0),
        };
        let b = of(&nv);
        assert_eq!(b.len(), std::mem::size_of::<cl_name_version>());
        assert_eq!(&b[4..14], b"cl_khr_icd");
        assert_eq!(b[14], 0);
    }
}
