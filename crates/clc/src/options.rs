//! Build options: the compile/build options of the API spec section 5.8.6 and the link
//! options of 5.8.7. Unknown options are errors the runtime maps to CL_INVALID_BUILD_OPTIONS
//! (clBuildProgram) or CL_INVALID_COMPILER_OPTIONS / CL_INVALID_LINKER_OPTIONS.

use std::fmt;

/// An OpenCL C language version, as `major * 100 + minor * 10` (CL1.2 = 120, CL3.0 = 300),
/// the same encoding as `__OPENCL_C_VERSION__`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClVersion(pub u32);

impl ClVersion {
    pub const CL1_0: ClVersion = ClVersion(100);
    pub const CL1_1: ClVersion = ClVersion(110);
    pub const CL1_2: ClVersion = ClVersion(120);
    pub const CL2_0: ClVersion = ClVersion(200);
    pub const CL3_0: ClVersion = ClVersion(300);
}

impl fmt::Display for ClVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CL{}.{}", self.0 / 100, (self.0 / 10) % 10)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MacroDef {
    /// `-D name` or `-D name=definition`; `None` means the definition `1`.
    Define(String, Option<String>),
    /// `-U name` (a common vendor extension; kept for portability of build scripts).
    Undef(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// `-D`/`-U` in the order given (5.8.6.1: "-D options are processed in the order they are
    /// given").
    pub macros: Vec<MacroDef>,
    pub include_dirs: Vec<String>,
    /// `-cl-std=`; `None` means the highest 1.x version the device supports (5.8.6.5).
    pub std: Option<ClVersion>,
    pub no_warnings: bool,
    pub warnings_as_errors: bool,
    pub single_precision_constant: bool,
    pub denorms_are_zero: bool,
    pub fp32_correctly_rounded_divide_sqrt: bool,
    pub opt_disable: bool,
    pub strict_aliasing: bool,
    pub mad_enable: bool,
    pub no_signed_zeros: bool,
    pub unsafe_math_optimizations: bool,
    pub finite_math_only: bool,
    pub fast_relaxed_math: bool,
    pub uniform_work_group_size: bool,
    pub no_subgroup_ifp: bool,
    pub kernel_arg_info: bool,
    pub debug_info: bool,
    /// `-cl-ferrocl-listing=STAGE`, an option of ferrocl's own (the `-cl-<vendor>-` form
    /// vendors give theirs): the device records the text of each stage of its compile and the
    /// build log ends with the text of stage `STAGE` (what `ferrocl build --emit` prints).
    pub listing: Option<String>,
    /// `-cl-ferrocl-no-vectorize`, ferrocl's own: the CPU device runs the kernels one
    /// work-item at a time (as `FERROCL_VECTORIZE=0` does for a whole process), so that one
    /// process can compare the two (`ferrocl bench --scalar`).
    pub no_vectorize: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub message: String,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OptionError {}

fn err(message: String) -> OptionError {
    OptionError { message }
}

/// Splits an option string into words; double quotes group (and are removed), so
/// `-I "my dir"` names one directory.
fn words(text: &str) -> Result<Vec<String>, OptionError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            '\\' if quoted && matches!(chars.peek(), Some('"') | Some('\\')) => {
                cur.push(chars.next().unwrap_or('\\'));
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err(err("unterminated quote in build options".into()));
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

/// Parses the options of clBuildProgram / clCompileProgram (API spec 5.8.6).
pub fn parse_build_options(text: &str) -> Result<BuildOptions, OptionError> {
    let mut o = BuildOptions::default();
    let w = words(text)?;
    let mut i = 0;
    // Takes the value of `-D x`, `-Dx`, `-I dir`, `-Idir`.
    let value = |i: &mut usize, flag: &str| -> Result<String, OptionError> {
        let word = &w[*i];
        if word.len() > flag.len() {
            return Ok(word[flag.len()..].to_string());
        }
        *i += 1;
        w.get(*i)
            .cloned()
            .ok_or_else(|| err(format!("missing argument to '{flag}'")))
    };
    while i < w.len() {
        let word = w[i].as_str();
        match word {
            "-w" => o.no_warnings = true,
            "-Werror" => o.warnings_as_errors = true,
            "-cl-single-precision-constant" => o.single_precision_constant = true,
            "-cl-denorms-are-zero" => o.denorms_are_zero = true,
            "-cl-fp32-correctly-rounded-divide-sqrt" => o.fp32_correctly_rounded_divide_sqrt = true,
            "-cl-opt-disable" => o.opt_disable = true,
            "-cl-strict-aliasing" => o.strict_aliasing = true,
            "-cl-mad-enable" => o.mad_enable = true,
            "-cl-no-signed-zeros" => o.no_signed_zeros = true,
            // 5.8.6.3: includes -cl-no-signed-zeros, -cl-mad-enable and -cl-denorms-are-zero.
            "-cl-unsafe-math-optimizations" => {
                o.unsafe_math_optimizations = true;
                o.no_signed_zeros = true;
                o.mad_enable = true;
                o.denorms_are_zero = true;
            }
            "-cl-finite-math-only" => o.finite_math_only = true,
            // 5.8.6.3: sets -cl-finite-math-only and -cl-unsafe-math-optimizations.
            "-cl-fast-relaxed-math" => {
                o.fast_relaxed_math = true;
                o.finite_math_only = true;
                o.unsafe_math_optimizations = true;
                o.no_signed_zeros = true;
                o.mad_enable = true;
                o.denorms_are_zero = true;
            }
            "-cl-uniform-work-group-size" => o.uniform_work_group_size = true,
            "-cl-no-subgroup-ifp" => o.no_subgroup_ifp = true,
            "-cl-kernel-arg-info" => o.kernel_arg_info = true,
            "-g" => o.debug_info = true,
            "-cl-ferrocl-no-vectorize" => o.no_vectorize = true,
            _ if word.starts_with("-cl-ferrocl-listing=") => {
                let stage = &word["-cl-ferrocl-listing=".len()..];
                if stage.is_empty() {
                    return Err(err("'-cl-ferrocl-listing=' needs a stage name".into()));
                }
                o.listing = Some(stage.to_string());
            }
            _ if word.starts_with("-cl-std=") => {
                o.std = Some(match &word[8..] {
                    "CL1.0" => ClVersion::CL1_0,
                    "CL1.1" => ClVersion::CL1_1,
                    "CL1.2" => ClVersion::CL1_2,
                    "CL2.0" => ClVersion::CL2_0,
                    "CL3.0" => ClVersion::CL3_0,
                    other => return Err(err(format!("invalid value '{other}' in '-cl-std='"))),
                });
            }
            _ if word.starts_with("-D") => {
                let v = value(&mut i, "-D")?;
                let (name, def) = match v.split_once('=') {
                    Some((n, d)) => (n.to_string(), Some(d.to_string())),
                    None => (v.clone(), None),
                };
                // `-D 'F(x)=x*2'` defines a function-like macro, as C compilers allow.
                let head = name.split('(').next().unwrap_or("");
                let params_ok = name.len() == head.len() || name.ends_with(')');
                if !is_identifier(head) || !params_ok {
                    return Err(err(format!(
                        "macro name '{name}' in '-D' is not an identifier"
                    )));
                }
                // 5.8.6.1: "the definition will be truncated by embedded newline characters".
                let def = def.map(|d| d.split('\n').next().unwrap_or("").to_string());
                o.macros.push(MacroDef::Define(name, def));
            }
            _ if word.starts_with("-U") => {
                let name = value(&mut i, "-U")?;
                if !is_identifier(&name) {
                    return Err(err(format!(
                        "macro name '{name}' in '-U' is not an identifier"
                    )));
                }
                o.macros.push(MacroDef::Undef(name));
            }
            _ if word.starts_with("-I") => {
                let dir = value(&mut i, "-I")?;
                o.include_dirs.push(dir);
            }
            _ => return Err(err(format!("unknown build option '{word}'"))),
        }
        i += 1;
    }
    Ok(o)
}

fn is_identifier(s: &str) -> bool {
    let mut b = s.bytes();
    matches!(b.next(), Some(c) if c == b'_' || c.is_ascii_alphabetic())
        && b.all(|c| c == b'_' || c.is_ascii_alphanumeric())
}

/// Options of clLinkProgram (API spec 5.8.7): the library options plus the program options
/// that make sense at link time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkOptions {
    pub create_library: bool,
    pub enable_link_options: bool,
    pub denorms_are_zero: bool,
    pub no_signed_zeros: bool,
    pub unsafe_math_optimizations: bool,
    pub finite_math_only: bool,
    pub fast_relaxed_math: bool,
    pub no_subgroup_ifp: bool,
}

pub fn parse_link_options(text: &str) -> Result<LinkOptions, OptionError> {
    let mut o = LinkOptions::default();
    for word in words(text)? {
        match word.as_str() {
            "-create-library" => o.create_library = true,
            "-enable-link-options" => o.enable_link_options = true,
            "-cl-denorms-are-zero" => o.denorms_are_zero = true,
            "-cl-no-signed-zeros" => o.no_signed_zeros = true,
            "-cl-unsafe-math-optimizations" => o.unsafe_math_optimizations = true,
            "-cl-finite-math-only" => o.finite_math_only = true,
            "-cl-fast-relaxed-math" => o.fast_relaxed_math = true,
            "-cl-no-subgroup-ifp" => o.no_subgroup_ifp = true,
            other => return Err(err(format!("unknown link option '{other}'"))),
        }
    }
    // 5.8.7.1: "This option must be specified with the create-library option."
    if o.enable_link_options && !o.create_library {
        return Err(err(
            "'-enable-link-options' requires '-create-library'".into()
        ));
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defines_in_order_with_and_without_values() {
        let o = parse_build_options("-D A -DB=2 -D C=x=y -U A").unwrap();
        assert_eq!(
            o.macros,
            vec![
                MacroDef::Define("A".into(), None),
                MacroDef::Define("B".into(), Some("2".into())),
                MacroDef::Define("C".into(), Some("x=y".into())),
                MacroDef::Undef("A".into()),
            ]
        );
    }

    #[test]
    fn function_like_defines() {
        let o = parse_build_options("-D \"SQ(x)=((x)*(x))\"").unwrap();
        assert_eq!(
            o.macros,
            vec![MacroDef::Define("SQ(x)".into(), Some("((x)*(x))".into()))]
        );
        assert!(parse_build_options("-D F(x").is_err());
    }

    #[test]
    fn include_dirs_may_be_quoted() {
        let o = parse_build_options("-I \"my dir\" -I/usr/inc").unwrap();
        assert_eq!(
            o.include_dirs,
            vec!["my dir".to_string(), "/usr/inc".to_string()]
        );
    }

    #[test]
    fn std_values() {
        assert_eq!(
            parse_build_options("-cl-std=CL2.0").unwrap().std,
            Some(ClVersion::CL2_0)
        );
        assert_eq!(parse_build_options("").unwrap().std, None);
        assert!(parse_build_options("-cl-std=CL4.0").is_err());
        assert!(parse_build_options("-cl-std=").is_err());
    }

    #[test]
    fn fast_relaxed_math_implies_the_others() {
        let o = parse_build_options("-cl-fast-relaxed-math").unwrap();
        assert!(o.finite_math_only && o.unsafe_math_optimizations && o.mad_enable);
        assert!(o.no_signed_zeros && o.denorms_are_zero);
    }

    #[test]
    fn every_listed_flag_is_accepted() {
        let all = "-w -Werror -cl-single-precision-constant -cl-denorms-are-zero \
                   -cl-fp32-correctly-rounded-divide-sqrt -cl-opt-disable -cl-mad-enable \
                   -cl-no-signed-zeros -cl-unsafe-math-optimizations -cl-finite-math-only \
                   -cl-fast-relaxed-math -cl-uniform-work-group-size -cl-no-subgroup-ifp \
                   -cl-kernel-arg-info -g -cl-strict-aliasing";
        let o = parse_build_options(all).unwrap();
        assert!(o.no_warnings && o.warnings_as_errors && o.kernel_arg_info && o.debug_info);
    }

    #[test]
    fn unknown_and_malformed_options_are_errors() {
        assert!(parse_build_options("-O3")
            .unwrap_err()
            .message
            .contains("-O3"));
        assert!(parse_build_options("-D").is_err());
        assert!(parse_build_options("-D 1abc").is_err());
        assert!(parse_build_options("-I \"unterminated").is_err());
        assert!(parse_build_options("-create-library").is_err());
        assert!(parse_build_options("-cl-ferrocl-listing=").is_err());
    }

    #[test]
    fn the_listing_option_names_a_stage() {
        let o = parse_build_options("-cl-mad-enable -cl-ferrocl-listing=asm").unwrap();
        assert_eq!(o.listing.as_deref(), Some("asm"));
        assert!(!o.no_vectorize);
        assert!(
            parse_build_options("-cl-ferrocl-no-vectorize")
                .unwrap()
                .no_vectorize
        );
        assert!(parse_build_options("").unwrap().listing.is_none());
    }

    #[test]
    fn link_options() {
        let o = parse_link_options("-create-library -enable-link-options").unwrap();
        assert!(o.create_library && o.enable_link_options);
        assert!(parse_link_options("-enable-link-options").is_err());
        assert!(parse_link_options("-D X").is_err());
    }
}
