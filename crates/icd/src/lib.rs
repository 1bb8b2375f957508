//! `libferrocl.so`: the OpenCL C API entry points and the `cl_khr_icd` dispatch table.
//!
//! Three layers, as in the spec's chapters: [`entry`] makes the `extern "C"` functions (panic
//! guard, error codes), the modules of [`api`] check the C arguments of each chapter as the
//! spec lists them, and `ferrocl_core` holds the objects and their behaviour. Handles are
//! looked up in [`handle`]'s registry before use; `clGet*Info` answers go through [`info`].

// Every raw-pointer operation sits in its own `unsafe` block with the reason it is sound,
// unsafe functions' bodies included.
#![deny(unsafe_op_in_unsafe_fn)]
// Entry points take raw pointers from C by design; each one documents the contract it relies
// on, which is the OpenCL specification's.
#![allow(clippy::missing_safety_doc, clippy::too_many_arguments)]

pub mod api;
pub mod dispatch;
mod entry;
pub mod handle;
pub mod info;

use std::ffi::c_void;

/// An application's `user_data` pointer, carried to the thread that calls its callback.
#[derive(Clone, Copy, Debug)]
pub struct UserData(pub *mut c_void);

// SAFETY: the pointer is opaque to ferrocl and only handed back to the application's callback,
// which the spec allows to run on any thread.
unsafe impl Send for UserData {}
// SAFETY: as above.
unsafe impl Sync for UserData {}

impl UserData {
    pub fn get(self) -> *mut c_void {
        self.0
    }
}
