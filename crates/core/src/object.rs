//! The header every API object starts with.
//!
//! An OpenCL handle is a pointer to an object whose first word is the ICD dispatch table
//! (`cl_khr_icd`). The runtime does not know the table; the `icd` crate registers its address
//! once with [`set_dispatch`], and every object built afterwards carries it.

use std::sync::atomic::{AtomicUsize, Ordering};

static DISPATCH: AtomicUsize = AtomicUsize::new(0);

/// Registers the address of the ICD dispatch table that new objects carry as their first word.
pub fn set_dispatch(table_address: usize) {
    DISPATCH.store(table_address, Ordering::Release);
}

/// The first field of every `#[repr(C)]` API object: the dispatch-table address.
#[repr(C)]
#[derive(Debug)]
pub struct IcdHeader {
    dispatch: usize,
}

impl IcdHeader {
    pub fn new() -> IcdHeader {
        IcdHeader {
            dispatch: DISPATCH.load(Ordering::Acquire),
        }
    }
}

impl Default for IcdHeader {
    fn default() -> Self {
        IcdHeader::new()
    }
}
