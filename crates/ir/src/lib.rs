//! The ferrocl IR: a backend-neutral SSA form with block parameters, typed values, vectors
//! and pointers that carry their address space. Every device compiles from it.
