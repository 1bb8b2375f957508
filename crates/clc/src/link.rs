//! Linking programs compiled separately (API 5.8.8 `clLinkProgram`, OpenCL C 6.10): the IR
//! modules are joined by `ferrocl_ir::module::link_modules`, which resolves `extern` variables
//! and function declarations by name; an executable must then leave nothing the programs
//! declared undefined, and the error names each symbol that is.

use ferrocl_ir::Module;

/// The device services a device provides itself (not a program's own functions): `printf`,
/// and the address-space queries of OpenCL C 6.15.10, which test an address against the
/// memory a device gives each work-group.
const SERVICES: &[&str] = &["printf", "to_global", "to_local", "to_private", "get_fence"];

/// Links `inputs`, in order, into a library (`executable` false) or an executable. In an
/// executable every extern variable and every function the programs declare must be defined
/// by one of them; builtins (named with their parameter types after a `.`, resolved from the
/// builtin library later) and device services are not the programs' to define.
pub fn link_programs(
    inputs: impl IntoIterator<Item = Module>,
    executable: bool,
) -> Result<Module, String> {
    let module = ferrocl_ir::module::link_modules(inputs, executable)?;
    if executable {
        let undefined: Vec<String> = module
            .funcs
            .values()
            .filter(|f| {
                f.is_declaration()
                    && !f.is_kernel()
                    && !f.name.contains('.')
                    && !f.name.starts_with(crate::library::PREFIX)
                    && !SERVICES.contains(&f.name.as_str())
            })
            .map(|f| {
                format!(
                    "undefined function '{}' (declared, defined nowhere)",
                    f.name
                )
            })
            .collect();
        if !undefined.is_empty() {
            return Err(undefined.join("\n"));
        }
    }
    Ok(module)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_executable_names_each_function_defined_nowhere() {
        let m = ferrocl_ir::parse_module(
            "declare @nowhere(i32) -> i32\ndeclare @sin.float(f32) -> f32\n\
             declare @printf(ptr.constant, ptr.private) -> i32\n",
        )
        .expect("parses");
        assert!(link_programs([m.clone()], false).is_ok(), "a library may");
        let e = link_programs([m], true).unwrap_err();
        assert_eq!(
            e,
            "undefined function 'nowhere' (declared, defined nowhere)"
        );
    }
}
