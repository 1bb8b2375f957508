//! The formatting of OpenCL C's `printf` (6.15.14), shared by the devices: a device hands
//! each call's format and argument bytes here, however it collected them.
//!
//! Lowering passes the format and a buffer holding the other arguments, each at the next offset
//! aligned to its size (integers narrower than `int` promoted to `int`; a scalar `float` or
//! `double` as a double; a 3-lane vector takes 4 lanes; pointers 8 bytes). The format says
//! how to read them. Each conversion is rendered by the C library's `snprintf` with the same
//! flags, width and precision; vector elements are joined by commas (6.15.14.2).

use std::ffi::c_char;

/// One conversion specification.
#[derive(Default, Debug, PartialEq)]
struct Spec {
    flags: String,
    width: Option<usize>,
    precision: Option<usize>,
    lanes: usize,
    /// Length modifier: "", "hh", "h", "hl", "l".
    length: String,
    conversion: u8,
}

/// Parses the specification after a `%`; returns it and the bytes it took.
fn parse_spec(f: &[u8]) -> Option<(Spec, usize)> {
    let mut i = 0;
    let mut spec = Spec {
        lanes: 1,
        ..Spec::default()
    };
    while i < f.len() && b"-+ #0".contains(&f[i]) {
        spec.flags.push(f[i] as char);
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < f.len() && f[*i].is_ascii_digit() {
            *i += 1;
        }
        std::str::from_utf8(&f[start..*i])
            .ok()
            .and_then(|d| d.parse().ok())
    };
    spec.width = digits(&mut i);
    if i < f.len() && f[i] == b'.' {
        i += 1;
        spec.precision = Some(digits(&mut i).unwrap_or(0));
    }
    if i < f.len() && f[i] == b'v' {
        i += 1;
        spec.lanes = digits(&mut i)?;
        if ![2, 3, 4, 8, 16].contains(&spec.lanes) {
            return None;
        }
    }
    for m in ["hh", "hl", "h", "l"] {
        if f[i..].starts_with(m.as_bytes()) {
            spec.length = m.to_string();
            i += m.len();
            break;
        }
    }
    let c = *f.get(i)?;
    if !b"diouxXfFeEgGaAcsp".contains(&c) {
        return None;
    }
    spec.conversion = c;
    Some((spec, i + 1))
}

/// Reads arguments from the buffer in order.
struct Args {
    base: *const u8,
    offset: usize,
}

impl Args {
    /// The next argument of `size` bytes (aligned to its size); the bytes it reads belong to
    /// the buffer lowering built for this call.
    fn take(&mut self, size: usize) -> &[u8] {
        let align = size.next_power_of_two().max(1);
        self.offset = self.offset.div_ceil(align) * align;
        // SAFETY: lowering stored an argument of this size at this offset (the format and the
        // arguments were checked together by the front end).
        let bytes = unsafe { std::slice::from_raw_parts(self.base.add(self.offset), size) };
        self.offset += size;
        bytes
    }
}

fn int_of(b: &[u8], signed: bool) -> i64 {
    let mut v = [0u8; 8];
    v[..b.len()].copy_from_slice(b);
    let raw = u64::from_le_bytes(v);
    let bits = b.len() * 8;
    if bits == 64 {
        raw as i64
    } else if signed {
        ((raw << (64 - bits)) as i64) >> (64 - bits)
    } else {
        raw as i64
    }
}

/// Renders one value with `snprintf` and the given single-conversion format.
fn render(format: &str, value: Value) -> Vec<u8> {
    let fmt = std::ffi::CString::new(format).unwrap_or_default();
    let mut buf = vec![0u8; 512];
    loop {
        // SAFETY: the format holds exactly one conversion, of the type passed.
        let n = unsafe {
            match value {
                Value::Int(v) => {
                    libc::snprintf(buf.as_mut_ptr().cast(), buf.len(), fmt.as_ptr(), v)
                }
                Value::Float(v) => {
                    libc::snprintf(buf.as_mut_ptr().cast(), buf.len(), fmt.as_ptr(), v)
                }
                Value::Ptr(v) => {
                    libc::snprintf(buf.as_mut_ptr().cast(), buf.len(), fmt.as_ptr(), v)
                }
            }
        };
        if n < 0 {
            return Vec::new();
        }
        if (n as usize) < buf.len() {
            buf.truncate(n as usize);
            return buf;
        }
        buf.resize(n as usize + 1, 0);
    }
}

#[derive(Clone, Copy)]
enum Value {
    Int(i64),
    Float(f64),
    Ptr(*const c_char),
}

/// Formats a call's output: the text, or None for a format the spec does not allow (then the
/// call prints nothing and returns -1). `string` gives, for the address a `%s` argument holds,
/// a host pointer to the NUL-terminated string there (None: the address is no string).
///
/// # Safety
/// `args` holds the arguments of a call with this format, laid out as lowering lays them out;
/// every pointer `string` returns is valid for the string's bytes and its NUL.
pub unsafe fn format(
    fmt: &[u8],
    args: *const u8,
    string: &dyn Fn(usize) -> Option<*const c_char>,
) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut a = Args {
        base: args,
        offset: 0,
    };
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        if fmt.get(i + 1) == Some(&b'%') {
            out.push(b'%');
            i += 2;
            continue;
        }
        let (spec, used) = parse_spec(&fmt[i + 1..])?;
        i += 1 + used;
        let mut c_spec = format!("%{}", spec.flags);
        if let Some(w) = spec.width {
            c_spec.push_str(&w.to_string());
        }
        if let Some(p) = spec.precision {
            c_spec.push_str(&format!(".{p}"));
        }
        let float = b"fFeEgGaA".contains(&spec.conversion);
        let signed = b"di".contains(&spec.conversion);
        // The size of one element: vectors name it with the length modifier; scalars are
        // promoted (int, or long with l; a floating scalar is always a double, 6.15.14.3).
        let elem = match (spec.length.as_str(), spec.lanes > 1, float) {
            ("hh", true, _) => 1,
            ("h", true, _) => 2,
            ("hl", true, _) => 4,
            ("l", _, _) => 8,
            (_, true, _) => return None,
            (_, false, true) => 8,
            _ => 4,
        };
        let stored_lanes = if spec.lanes == 3 { 4 } else { spec.lanes };
        let bytes = match spec.conversion {
            b's' | b'p' => a.take(8).to_vec(),
            _ => a.take(elem * stored_lanes).to_vec(),
        };
        for lane in 0..spec.lanes {
            if lane > 0 {
                out.push(b',');
            }
            let value = match spec.conversion {
                b's' => Value::Ptr(string(usize::from_le_bytes(bytes[..8].try_into().ok()?))?),
                b'p' => {
                    Value::Ptr(usize::from_le_bytes(bytes[..8].try_into().ok()?) as *const c_char)
                }
                _ if float => {
                    let b = &bytes[lane * elem..(lane + 1) * elem];
                    Value::Float(match elem {
                        8 => f64::from_le_bytes(b.try_into().ok()?),
                        4 => f64::from(f32::from_le_bytes(b.try_into().ok()?)),
                        2 => half_to_f64(u16::from_le_bytes(b.try_into().ok()?)),
                        _ => return None,
                    })
                }
                _ => {
                    let v = int_of(&bytes[lane * elem..(lane + 1) * elem], signed);
                    // hh and h on scalars print the promoted value converted back (7.19.6.1).
                    Value::Int(match (spec.lanes, spec.length.as_str()) {
                        (1, "hh") if signed => i64::from(v as i8),
                        (1, "hh") => i64::from(v as u8),
                        (1, "h") if signed => i64::from(v as i16),
                        (1, "h") => i64::from(v as u16),
                        (_, "l") => v,
                        _ if signed => i64::from(v as i32),
                        _ => i64::from(v as u32),
                    })
                }
            };
            let conv = spec.conversion as char;
            let c_format = match value {
                Value::Int(_) if conv == 'c' => format!("{c_spec}c"),
                Value::Int(_) => format!("{c_spec}ll{conv}"),
                _ => format!("{c_spec}{conv}"),
            };
            if let Value::Ptr(p) = value {
                if conv == 's' && p.is_null() {
                    return None;
                }
            }
            out.extend(render(&c_format, value));
        }
    }
    Some(out)
}

/// The value of a half's bits, exactly.
pub fn half_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (bits >> 10) & 0x1f;
    let mant = f64::from(bits & 0x3ff);
    sign * match exp {
        0 => mant * 2f64.powi(-24),
        31 if mant == 0.0 => f64::INFINITY,
        31 => {
            return f64::from_bits(
                if sign < 0.0 {
                    0xfff8_0000_0000_0000
                } else {
                    0x7ff8_0000_0000_0000
                } | (u64::from(bits & 0x3ff) << 42),
            )
        }
        e => (1024.0 + mant) * 2f64.powi(i32::from(e) - 25),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An argument buffer laid out as lowering lays it out.
    fn buffer(items: &[&[u8]]) -> Vec<u64> {
        let mut bytes: Vec<u8> = Vec::new();
        for item in items {
            let align = item.len().next_power_of_two();
            while bytes.len() % align != 0 {
                bytes.push(0);
            }
            bytes.extend_from_slice(item);
        }
        let mut words = vec![0u64; bytes.len().div_ceil(8) + 1];
        // SAFETY: the words hold at least bytes.len() bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), words.as_mut_ptr().cast(), bytes.len())
        };
        words
    }

    fn run(fmt: &str, items: &[&[u8]]) -> String {
        let b = buffer(items);
        // SAFETY: the buffer holds the arguments the format names; strings are addressable.
        let text = unsafe {
            format(fmt.as_bytes(), b.as_ptr().cast(), &|p| {
                Some(p as *const c_char)
            })
        };
        String::from_utf8(text.expect("a valid format")).unwrap()
    }

    #[test]
    fn scalars() {
        assert_eq!(
            run(
                "%d|%5d|%-5d|%05d|%+d",
                &[
                    &42i32.to_le_bytes(),
                    &42i32.to_le_bytes(),
                    &42i32.to_le_bytes(),
                    &(-42i32).to_le_bytes(),
                    &7i32.to_le_bytes()
                ]
            ),
            "42|   42|42   |-0042|+7"
        );
        assert_eq!(
            run(
                "%u %x %X %o %#x",
                &[
                    &(-1i32).to_le_bytes(),
                    &255i32.to_le_bytes(),
                    &255i32.to_le_bytes(),
                    &8i32.to_le_bytes(),
                    &255i32.to_le_bytes()
                ]
            ),
            "4294967295 ff FF 10 0xff"
        );
        assert_eq!(
            run(
                "%ld %lu",
                &[&(-5i64).to_le_bytes(), &u64::MAX.to_le_bytes()]
            ),
            "-5 18446744073709551615"
        );
        assert_eq!(
            run(
                "%hhd %hd %c",
                &[
                    &300i32.to_le_bytes(),
                    &70000i32.to_le_bytes(),
                    &65i32.to_le_bytes()
                ]
            ),
            "44 4464 A"
        );
        assert_eq!(
            run(
                "%f %.2f %e %g %a",
                &[
                    &1.5f64.to_le_bytes(),
                    &1.23456f64.to_le_bytes(),
                    &1234.5f64.to_le_bytes(),
                    &0.0001f64.to_le_bytes(),
                    &1.0f64.to_le_bytes()
                ]
            ),
            "1.500000 1.23 1.234500e+03 0.0001 0x1p+0"
        );
        assert_eq!(
            run(
                "%f %f %F",
                &[
                    &f64::INFINITY.to_le_bytes(),
                    &(-f64::INFINITY).to_le_bytes(),
                    &f64::NAN.to_le_bytes()
                ]
            ),
            "inf -inf NAN"
        );
        assert_eq!(run("100%% done", &[]), "100% done");
    }

    #[test]
    fn vectors_and_strings() {
        let v: Vec<u8> = [1.0f32, 2.5, -3.0, 4.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(run("%v4hlf", &[&v]), "1.000000,2.500000,-3.000000,4.000000");
        let v3: Vec<u8> = [1i32, -2, 3, 0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(run("<%v3hld>", &[&v3]), "<1,-2,3>");
        let c2 = [200u8, 7];
        assert_eq!(run("%v2hhu %d", &[&c2, &9i32.to_le_bytes()]), "200,7 9");
        let s = b"hello\0";
        assert_eq!(
            run(
                "[%s] [%.3s]",
                &[
                    &(s.as_ptr() as u64).to_le_bytes(),
                    &(s.as_ptr() as u64).to_le_bytes()
                ]
            ),
            "[hello] [hel]"
        );
    }

    #[test]
    fn bad_formats_are_rejected() {
        let b = buffer(&[&1i32.to_le_bytes()]);
        // A vector without a length modifier, a vector of 5 lanes, an unknown conversion.
        for bad in ["%v4d", "%v5hld", "%k"] {
            // SAFETY: as above.
            let text = unsafe {
                format(bad.as_bytes(), b.as_ptr().cast(), &|p| {
                    Some(p as *const c_char)
                })
            };
            assert_eq!(text, None, "{bad}");
        }
    }
}
