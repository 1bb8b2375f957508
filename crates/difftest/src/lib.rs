//! ferrocl's differential tester for the CPU device's compiler: random, well-defined OpenCL C
//! kernels ([`gen`], in the manner of CLsmith) built once and run in the IR interpreter (the
//! reference), on the CPU device with scalar code and on the CPU device vectorized across
//! work-items, at several local sizes along x over an NDRange of the program's own shape (one
//! to three dimensions, a global offset, non-uniform work-groups: [`program::Shape`]);
//! outputs are compared bit for bit ([`check`]). Sub-group functions are compared too: the
//! interpreter's sub-groups are the CPU device's (`SUB_GROUP_SIZE` consecutive linear local
//! ids), though another implementation's may differ. A program whose outputs differ is
//! reduced ([`reduce`]) and written as a reproducer and as a kernel test file ([`repro`]).
//! [`campaign`] runs seeds and counts what it found. Reproducers of bugs fixed live in
//! `reproducers/` (a test keeps them passing), those of bugs still open in `open/` (a test
//! keeps them failing).

pub mod campaign;
pub mod check;
pub mod gen;
pub mod program;
pub mod reduce;
pub mod repro;
pub mod run;
