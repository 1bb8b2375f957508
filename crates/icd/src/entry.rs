//! The C boundary: the macro that turns a Rust function body returning `ClResult` into an
//! `extern "C"` entry point, catching panics (an unwind out of `extern "C"` would abort the
//! host process) and mapping errors to the spec's codes.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ferrocl_core::{ClError, ClResult};
use opencl_sys::cl_int;

/// Runs an entry point that returns a status code.
pub fn status(name: &str, f: impl FnOnce() -> ClResult<()>) -> cl_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => e.code(),
        Err(panic) => internal_error(name, panic).code(),
    }
}

/// A value an entry point returns on failure: the null handle or pointer.
pub trait Null {
    fn null() -> Self;
}

impl<T> Null for *mut T {
    fn null() -> Self {
        std::ptr::null_mut()
    }
}

/// Runs an entry point that returns a value and reports its status through `errcode_ret`.
pub fn value<T: Null>(name: &str, errcode_ret: *mut cl_int, f: impl FnOnce() -> ClResult<T>) -> T {
    let (value, code) = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => (v, 0),
        Ok(Err(e)) => (T::null(), e.code()),
        Err(panic) => (T::null(), internal_error(name, panic).code()),
    };
    if !errcode_ret.is_null() {
        // SAFETY: the spec lets the application pass a writable cl_int or NULL.
        unsafe { errcode_ret.write(code) };
    }
    value
}

/// Runs an entry point that makes its object even where its operation then fails
/// (`clLinkProgram`): the object is returned, and the operation's status goes to
/// `errcode_ret`.
pub fn value_and_status<T: Null>(
    name: &str,
    errcode_ret: *mut cl_int,
    f: impl FnOnce() -> ClResult<(T, ClResult<()>)>,
) -> T {
    let mut status = Ok(());
    let value = value(name, errcode_ret, || {
        let (v, s) = f()?;
        status = s;
        Ok(v)
    });
    if let (Err(e), false) = (status, errcode_ret.is_null()) {
        // SAFETY: as in `value`.
        unsafe { errcode_ret.write(e.code()) };
    }
    value
}

/// Runs an entry point that returns nothing (`clSVMFree`).
pub fn unit(name: &str, f: impl FnOnce()) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(f)) {
        internal_error(name, panic);
    }
}

fn internal_error(name: &str, panic: Box<dyn std::any::Any + Send>) -> ClError {
    let message = ferrocl_core::error::panic_message(&*panic);
    eprintln!("ferrocl: internal error in {name}: {message}");
    ClError::OutOfHostMemory
}

/// Defines `extern "C"` entry points. Each one names its safe Rust function, then the C
/// function's signature: `name => fn clName(args) ...` (doc comments go first); `name` is an
/// ordinary function written after the invocation, taking the C arguments and returning a
/// `ClResult`, and `clName` is the `#[no_mangle]` C stub that calls it inside the panic guard
/// and maps the result. `name` is private to its module and called only by `clName`, so its
/// raw-pointer arguments are the application's, under the spec's contract: each raw-pointer
/// operation in its body sits in its own `unsafe` block saying which part of that contract
/// makes it sound. Three forms:
/// - `name => fn clName(args) -> cl_int`: `name` returns a `ClResult<()>`, returned as a code;
/// - `name => fn clName(args; errcode_ret) -> Ty`: `name` returns a `ClResult<Ty>`; the status
///   goes to `errcode_ret` (which may be NULL), and failure returns NULL;
/// - `name => fn clName(args; errcode_ret) -> Ty, with_status`: `name` returns a
///   `ClResult<(Ty, ClResult<()>)>`, an object made and the status of what was done to it.
macro_rules! entry {
    ($(#[$meta:meta])* $safe:ident => fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> cl_int) => {
        $(#[$meta])*
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> opencl_sys::cl_int {
            $crate::entry::status(stringify!($name), || $safe($($arg),*))
        }
    };
    ($(#[$meta:meta])* $safe:ident => fn $name:ident($($arg:ident: $ty:ty),* $(,)? ; $err:ident) -> $ret:ty, with_status) => {
        $(#[$meta])*
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty,)* $err: *mut opencl_sys::cl_int) -> $ret {
            $crate::entry::value_and_status(stringify!($name), $err, || $safe($($arg),*))
        }
    };
    ($(#[$meta:meta])* $safe:ident => fn $name:ident($($arg:ident: $ty:ty),* $(,)? ; $err:ident) -> $ret:ty) => {
        $(#[$meta])*
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty,)* $err: *mut opencl_sys::cl_int) -> $ret {
            $crate::entry::value(stringify!($name), $err, || $safe($($arg),*))
        }
    };
}
pub(crate) use entry;
