//! `ferrocl bench`.
use crate::Failure;
pub fn command(_args: &[String]) -> Result<String, Failure> {
    Err(Failure::Error("bench: not yet".into()))
}
