//! The integration tests of `ferrocl-clc` as one test binary, each file a module: one
//! link instead of one per file, and the tests of every file share the test threads.

mod common;

mod build;
mod builtins;
mod contraction;
mod corpus;
mod diagnostics;
mod filetests;
mod library_exp_log;
mod library_misc;
mod library_trig;
mod lower_corpus;
mod lower_filetests;
mod lower_reachable;
mod lower_run;
mod lower_smoke;
mod preprocessor;
mod robustness;
mod sema;
