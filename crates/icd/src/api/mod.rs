//! The entry points, one module per chapter of the API specification.

pub mod context;
pub mod event;
pub mod image;
pub mod kernel;
pub mod memory;
pub mod pipe;
pub mod platform;
pub mod program;
pub mod queue;
pub mod svm;
