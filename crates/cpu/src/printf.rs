//! `printf` (OpenCL C 6.15.14) for the CPU device: each call is formatted as it is made
//! (`ferrocl_device::printf`, where the argument layout is described) and what a launch
//! prints is collected and written to standard output when the launch completes.

use std::cell::RefCell;
use std::ffi::{c_char, CStr};

use ferrocl_device::printf::format;
use std::sync::{Arc, Mutex};

/// Where the `printf` calls of a thread go while it runs a launch's work-groups.
pub type Sink = Arc<Mutex<Vec<u8>>>;

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Makes `printf` on this thread append to `sink` (or, with None, to standard output).
pub fn set_sink(sink: Option<Sink>) {
    SINK.with(|s| *s.borrow_mut() = sink);
}

/// The library function lowering calls: `printf(format, args) -> int` (0 on success, -1 for
/// a format the spec does not allow: 6.15.14.3).
pub extern "C" fn printf(fmt: *const c_char, args: *const u8) -> i32 {
    if fmt.is_null() {
        return -1;
    }
    // SAFETY: the format is a NUL-terminated string in the program's constant data.
    let fmt = unsafe { CStr::from_ptr(fmt) }.to_bytes();
    // SAFETY: lowering built `args` for this format; a `%s` argument is the address of a
    // string literal in the program's constant data, addressable as it is.
    let Some(text) = (unsafe { format(fmt, args, &|p| Some(p as *const c_char)) }) else {
        return -1;
    };
    SINK.with(|s| match &*s.borrow() {
        Some(sink) => sink
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(&text),
        None => {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&text);
        }
    });
    0
}
