//! Link `libferrocl.so` with `-Bsymbolic` so that calls from inside the library to its own
//! exported `cl*` symbols bind to the library's definitions, not to an ICD loader's functions
//! of the same name (DESIGN.md, decision 7).
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic");
    println!("cargo:rerun-if-changed=build.rs");
}
