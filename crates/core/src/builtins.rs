//! The shared builtin library as every program links it: compiled from OpenCL C when ferrocl
//! is built (`build.rs`) and embedded as serialized IR, decoded once per process.

use std::sync::OnceLock;

use ferrocl_ir::Module;

/// The serialized library, made by `build.rs`.
static SERIALIZED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/builtins.bin"));

/// The library module; the error says why it could not be decoded.
pub fn library() -> Result<&'static Module, String> {
    static LIBRARY: OnceLock<Result<Module, String>> = OnceLock::new();
    LIBRARY
        .get_or_init(|| {
            ferrocl_ir::serialize::deserialize_trusted(SERIALIZED)
                .map_err(|e| format!("the embedded builtin library: {e}"))
        })
        .as_ref()
        .map_err(|e| e.clone())
}

#[cfg(test)]
mod tests {
    /// The embedded library is what compiling the library's source gives now.
    #[test]
    fn embedded_library_matches_its_source() {
        let embedded = super::library().unwrap_or_else(|e| panic!("{e}"));
        let fresh = ferrocl_clc::library::module().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            ferrocl_ir::serialize::serialize(embedded),
            ferrocl_ir::serialize::serialize(fresh)
        );
    }
}
