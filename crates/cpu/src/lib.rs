//! The CPU device: the work-group transform, code generation and the worker pool.
