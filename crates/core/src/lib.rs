//! The ferrocl runtime: platform, devices, contexts, command queues, events and memory
//! objects, with the object semantics of the OpenCL 3.0 API specification.
//!
//! Everything here is plain Rust: objects are `Arc`s, failures are [`ClError`] values. The
//! `icd` crate turns C handles into these objects and checks the C arguments; this crate never
//! sees a raw handle. Each API object is `#[repr(C)]` and starts with an [`IcdHeader`], so the
//! address of the object is a valid `cl_khr_icd` handle.

pub mod cache;
pub mod clock;
mod compile;
pub mod context;
pub mod device;
pub mod error;
pub mod event;
mod executor;
pub mod features;
pub mod image;
pub mod kernel;
pub mod machine;
pub mod memory;
pub mod object;
pub mod platform;
pub mod program;
pub mod queue;
mod residency;
pub mod svm;

pub use context::Context;
pub use device::{Device, DeviceInfo, DeviceType};
pub use error::{ClError, ClResult};
pub use event::Event;
pub use image::{Image, ImageFormat, Sampler};
pub use kernel::Kernel;
pub use memory::{HostPtr, MemObject};
pub use object::{set_dispatch, IcdHeader};
pub use platform::Platform;
pub use queue::{CommandQueue, Work};
