//! The integration tests of `ferrocl-ir` as one test binary, each file a module: one
//! link instead of one per file, and the tests of every file share the test threads.

mod builder;
mod differential;
mod filetests;
mod fold_vs_interp;
mod group;
mod interp;
mod kernel_abi;
mod load_elim_random;
mod module;
mod mutants;
mod random_ops;
mod random_programs;
mod roundtrip;
mod serialize;
mod split;
mod uniformity;
mod unroll_budget;
mod unroll_partial;
mod verifier;
