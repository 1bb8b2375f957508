//! The integration tests of `ferrocl-cpu` as one test binary, each file a module: one
//! link instead of one per file, and the tests of every file share the test threads.

mod common;

mod alone;
mod calls;
mod collectives;
mod id_limit;
mod jam;
mod robust;
mod run;
mod runs;
mod simd;
mod subgroups;
mod tier_policy;
mod transposed;
mod vectorize;
mod vectorize_filetests;
mod wide;
mod wide_filetests;
mod workgroup;
mod workgroup_filetests;
