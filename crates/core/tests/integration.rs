//! The integration tests of `ferrocl-core` as one test binary, each file a module: one
//! link instead of one per file, and the tests of every file share the test threads.

mod builtins_harness;

mod builtins_bitops;
mod builtins_common;
mod builtins_convert;
mod builtins_double;
mod builtins_half;
mod builtins_integer;
mod builtins_math;
mod builtins_math_double;
mod builtins_workgroup;
mod corpus_builds;
mod float_math;
mod opt_disable;
mod reserve_id_t;
mod scan_pipeline;
