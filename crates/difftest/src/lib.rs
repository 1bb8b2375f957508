//! ferrocl's differential tester for the CPU device's compiler: random, well-defined OpenCL C
//! kernels ([`gen`], in the manner of CLsmith) built once and run in the IR interpreter (the
//! reference), on the CPU device with scalar code and on the CPU device vectorized across
//! work-items, at several local sizes; outputs are compared bit for bit ([`check`]). A
//! program whose outputs differ is reduced ([`reduce`]) and written as a reproducer and as a
//! kernel test file ([`repro`]). [`campaign`] runs seeds and counts what it found.

pub mod campaign;
pub mod check;
pub mod gen;
pub mod program;
pub mod reduce;
pub mod repro;
pub mod run;
