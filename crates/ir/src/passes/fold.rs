//! stub
use crate::module::Module;
/// Runs the pass.
pub fn run(_m: &mut Module) {}
