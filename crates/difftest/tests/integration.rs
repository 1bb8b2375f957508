//! The integration tests of `ferrocl-difftest` as one test binary, each file a module: one
//! link instead of one per file, and the tests of every file share the test threads.

mod difftest;
mod wide_tier;
