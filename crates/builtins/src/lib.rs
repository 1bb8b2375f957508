//! The OpenCL C builtin library that every device shares: the builtins that are not one IR
//! operation (the math functions of 6.15.2, the relational classifications of 6.15.6, ...),
//! written once in OpenCL C (the `.cl` files beside this one).
//!
//! The build script compiles them with ferrocl's own compiler (`ferrocl_clc::library::compile`)
//! and this crate embeds the module as serialized IR, decoded once per process by [`library`].
//! Programs link it through the compiler's build driver (`ferrocl_clc::build`), which takes the
//! library as an argument: the compiler cannot depend on this crate, which is compiled by it.

use std::sync::OnceLock;

use ferrocl_ir::Module;

mod sources;
pub use sources::SOURCES;

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
        let fresh = ferrocl_clc::library::compile(super::SOURCES).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            ferrocl_ir::serialize::serialize(embedded),
            ferrocl_ir::serialize::serialize(&fresh)
        );
    }
}
