//! The OpenCL C compiler: source text in, a checked program (and later an `ir::Module`) out,
//! or a build log that says exactly what is wrong and where.
//!
//! The pipeline reads as its stages: [`options`] → [`pp`] (preprocess) → [`lex`] → [`parse`]
//! → [`sema`] (types, overloads, OpenCL rules) → [`diag`] (the build log).
//!
//! # Using it from the runtime
//!
//! ```
//! use ferrocl_clc::{compile, parse_build_options, Target};
//! let options = parse_build_options("-cl-std=CL2.0 -D N=4").expect("valid options");
//! let target = Target::full_profile_cpu(); // built from the device's queries in practice
//! let source = "__kernel void k(__global int *o) { o[get_global_id(0)] = N; }";
//! let c = compile(source, &options, &target, &[]);
//! let program = c.program.expect("no errors");
//! assert_eq!(program.kernels()[0].name, "k");
//! assert!(c.log.is_empty());
//! ```
//!
//! - [`parse_build_options`] / [`parse_link_options`]: `Err(OptionError)` maps to
//!   CL_INVALID_BUILD_OPTIONS / CL_INVALID_COMPILER_OPTIONS / CL_INVALID_LINKER_OPTIONS.
//! - [`compile`] never panics on any input; `Compilation::log` is the build log
//!   (CL_PROGRAM_BUILD_LOG), `program` is `None` exactly when there were errors (after
//!   `-Werror`). `headers` are clCompileProgram's embedded headers (include name → text).
//! - [`compile`] runs on a stack that holds the compiler's measured need ([`stack`]: the
//!   caller's); [`compile_here`] always on the caller's thread. [`preprocess`] gives the
//!   preprocessed text (`-E`).
//!   `Compilation::timings` has the time of each stage.
//! - [`CheckedProgram::kernels`] gives the metadata of clGetKernelInfo/clGetKernelArgInfo:
//!   argument names, type names, address/access/type qualifiers, how each argument is passed
//!   (`ir`'s [`ArgKind`]), its size and alignment, and the reqd_work_group_size / work_group_size_hint /
//!   vec_type_hint attributes.
//!
//! # The checked tree (for lowering)
//!
//! [`sema::tree`] holds one [`sema::Function`] per function, with a body of
//! [`sema::tree::Stmt`]s. Every [`sema::tree::Expr`] carries its type ([`sema::types::Types`]
//! interns them); lvalues are read through explicit `Load` nodes, arrays decay through
//! `Cast(ArrayToPointer)`, every implicit conversion is a `Cast` with its [`sema::tree::CastKind`]
//! (splats of scalars to vectors included), subscripts are `Deref(PtrAdd(..))`, and every call
//! names one user function or one builtin overload with its parameter types. Program-scope
//! variables (and function-scope statics and `__local` variables) are in
//! `CheckedProgram::globals` with their initializers. `CheckedProgram::dump` prints the tree
//! (the form the filetests in `tests/filetests/sema` compare).

pub mod build;
pub mod builtins;
pub mod diag;
pub mod hash;
pub mod lex;
pub mod library;
pub mod link;
pub mod lower;
pub mod number;
pub mod options;
pub mod parse;
pub mod pp;
pub mod sema;
pub mod stack;

pub use build::{
    build, build_ir, compile_object, link, BuildError, BuildErrorKind, BuiltProgram, Library,
    Linked, Object,
};
pub use link::link_programs;
pub use lower::{lower, lower_reachable, LowerError};
pub use options::{
    parse_build_options, parse_link_options, BuildOptions, ClVersion, LinkOptions, MacroDef,
    OptionError,
};
pub use sema::{ArgAccess, ArgAddress, ArgKind, CheckedProgram, KernelArg, KernelInfo};

/// What the device the program is compiled for supports.
#[derive(Clone, Debug)]
pub struct Target {
    /// OpenCL C versions the device accepts (CL_DEVICE_OPENCL_C_ALL_VERSIONS).
    pub c_versions: Vec<ClVersion>,
    /// The device's OpenCL version as `__OPENCL_VERSION__` reports it (e.g. 300).
    pub opencl_version: u32,
    /// Extension names (`cl_khr_fp64`, ...); each becomes a macro defined to 1.
    pub extensions: Vec<String>,
    /// OpenCL C 3.0 feature macro names (`__opencl_c_fp64`, ...), defined when compiling
    /// for 3.0.
    pub features: Vec<String>,
    pub image_support: bool,
    pub fp64: bool,
    pub fp16: bool,
    pub address_bits: u32,
    pub little_endian: bool,
    /// CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT in CL_DEVICE_SINGLE_FP_CONFIG.
    pub correctly_rounded_divide_sqrt: bool,
    /// A fused multiply-add is about as fast as a multiply and an add (one instruction): the
    /// compiler contracts `a * b + c` where `#pragma OPENCL FP_CONTRACT` allows, computes
    /// `mad` as `fma`, and defines FP_FAST_FMAF (and FP_FAST_FMA with doubles). Without it,
    /// `fma` is a library computation, and the compiler never contracts (contraction is
    /// permitted, never required).
    pub fast_fma: bool,
    /// The device's fused multiply-add costs what an add does (a GPU): an accumulation
    /// `acc += x * y` carried through a loop is contracted too, which on a CPU, where the
    /// fused operation is the slower one, it is not.
    pub fma_chains: bool,
}

impl Target {
    /// A 64-bit little-endian CPU-like device with OpenCL C 1.0–3.0, fp64, images, pipes and
    /// device-side enqueue: every language feature the front end checks.
    pub fn full_profile_cpu() -> Target {
        let features = [
            "__opencl_c_fp64",
            "__opencl_c_fp16",
            "__opencl_c_images",
            "__opencl_c_read_write_images",
            "__opencl_c_3d_image_writes",
            "__opencl_c_int64",
            "__opencl_c_generic_address_space",
            "__opencl_c_program_scope_global_variables",
            "__opencl_c_atomic_order_acq_rel",
            "__opencl_c_atomic_order_seq_cst",
            "__opencl_c_atomic_scope_device",
            "__opencl_c_atomic_scope_all_devices",
            "__opencl_c_work_group_collective_functions",
            "__opencl_c_subgroups",
            "__opencl_c_pipes",
            "__opencl_c_device_enqueue",
        ];
        let extensions = [
            "cl_khr_fp64",
            "cl_khr_fp16",
            "cl_khr_global_int32_base_atomics",
            "cl_khr_global_int32_extended_atomics",
            "cl_khr_local_int32_base_atomics",
            "cl_khr_local_int32_extended_atomics",
            "cl_khr_int64_base_atomics",
            "cl_khr_int64_extended_atomics",
            "cl_khr_byte_addressable_store",
            "cl_khr_3d_image_writes",
        ];
        Target {
            c_versions: vec![
                ClVersion::CL1_0,
                ClVersion::CL1_1,
                ClVersion::CL1_2,
                ClVersion::CL2_0,
                ClVersion::CL3_0,
            ],
            opencl_version: 300,
            extensions: extensions.iter().map(|s| s.to_string()).collect(),
            features: features.iter().map(|s| s.to_string()).collect(),
            image_support: true,
            fp64: true,
            fp16: true,
            address_bits: 64,
            little_endian: true,
            correctly_rounded_divide_sqrt: true,
            fast_fma: false,
            fma_chains: false,
        }
    }

    fn has_feature(&self, f: &str) -> bool {
        self.features.iter().any(|x| x == f)
    }
}

/// The result of [`compile`]: a program when there were no errors, and the build log.
#[derive(Debug)]
pub struct Compilation {
    pub program: Option<CheckedProgram>,
    pub log: String,
    pub diagnostics: Vec<Diagnostic>,
    /// Time spent in each stage, by name (preprocess, parse, sema).
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

/// A diagnostic as the user sees it: file, line and column resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: diag::Severity,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl Compilation {
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == diag::Severity::Error)
    }
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == diag::Severity::Warning)
    }
}

/// The feature macros a build defines: all the device's in OpenCL C 3.0; before 3.0, only
/// those an extension the device supports brings with it (cl_khr_integer_dot_product's
/// functions are declared under its feature macros, and programs that test the extension
/// macro alone, as clpeak does, call them in OpenCL C 1.2).
fn language_features(target: &Target, v: u32) -> Vec<String> {
    if v >= 300 {
        return target.features.clone();
    }
    let dot = target
        .extensions
        .iter()
        .any(|e| e == "cl_khr_integer_dot_product");
    target
        .features
        .iter()
        .filter(|f| dot && f.starts_with("__opencl_c_integer_dot_product_input_4x8bit"))
        .cloned()
        .collect()
}

/// 6.15.2.1 floating-point macros, 6.15.3.2 integer macros, 6.15.8 fence flags, 6.15.15.1
/// sampler and image constants: defined in every version.
const LIMITS: &[(&str, &str)] = &[
    ("MAXFLOAT", "0x1.fffffep127f"),
    ("HUGE_VALF", "(1.0f / 0.0f)"),
    ("INFINITY", "(1.0f / 0.0f)"),
    ("NAN", "(0.0f / 0.0f)"),
    ("FLT_DIG", "6"),
    ("FLT_MANT_DIG", "24"),
    ("FLT_MAX_10_EXP", "+38"),
    ("FLT_MAX_EXP", "+128"),
    ("FLT_MIN_10_EXP", "-37"),
    ("FLT_MIN_EXP", "-125"),
    ("FLT_RADIX", "2"),
    ("FLT_MAX", "0x1.fffffep127f"),
    ("FLT_MIN", "0x1.0p-126f"),
    ("FLT_EPSILON", "0x1.0p-23f"),
    ("FP_ILOGB0", "(-2147483647 - 1)"),
    ("FP_ILOGBNAN", "(-2147483647 - 1)"),
    ("M_E_F", "2.71828182845904523536f"),
    ("M_LOG2E_F", "1.44269504088896340736f"),
    ("M_LOG10E_F", "0.434294481903251827651f"),
    ("M_LN2_F", "0.693147180559945309417f"),
    ("M_LN10_F", "2.30258509299404568402f"),
    ("M_PI_F", "3.14159265358979323846f"),
    ("M_PI_2_F", "1.57079632679489661923f"),
    ("M_PI_4_F", "0.785398163397448309616f"),
    ("M_1_PI_F", "0.318309886183790671538f"),
    ("M_2_PI_F", "0.636619772367581343076f"),
    ("M_2_SQRTPI_F", "1.12837916709551257390f"),
    ("M_SQRT2_F", "1.41421356237309504880f"),
    ("M_SQRT1_2_F", "0.707106781186547524401f"),
    ("CHAR_BIT", "8"),
    ("SCHAR_MAX", "127"),
    ("SCHAR_MIN", "(-127-1)"),
    ("CHAR_MAX", "SCHAR_MAX"),
    ("CHAR_MIN", "SCHAR_MIN"),
    ("UCHAR_MAX", "255"),
    ("SHRT_MAX", "32767"),
    ("SHRT_MIN", "(-32767-1)"),
    ("USHRT_MAX", "65535"),
    ("INT_MAX", "2147483647"),
    ("INT_MIN", "(-2147483647-1)"),
    ("UINT_MAX", "0xffffffffU"),
    ("LONG_MAX", "0x7fffffffffffffffL"),
    ("LONG_MIN", "(-0x7fffffffffffffffL-1)"),
    ("ULONG_MAX", "0xffffffffffffffffUL"),
    // 6.15.8 fence flags, 6.15.15.1 sampler and image constants.
    ("CLK_LOCAL_MEM_FENCE", "0x01"),
    ("CLK_GLOBAL_MEM_FENCE", "0x02"),
    ("CLK_IMAGE_MEM_FENCE", "0x04"),
    ("CLK_ADDRESS_NONE", "0"),
    ("CLK_ADDRESS_CLAMP_TO_EDGE", "2"),
    ("CLK_ADDRESS_CLAMP", "4"),
    ("CLK_ADDRESS_REPEAT", "6"),
    ("CLK_ADDRESS_MIRRORED_REPEAT", "8"),
    ("CLK_NORMALIZED_COORDS_FALSE", "0"),
    ("CLK_NORMALIZED_COORDS_TRUE", "1"),
    ("CLK_FILTER_NEAREST", "0x10"),
    ("CLK_FILTER_LINEAR", "0x20"),
    ("CLK_SNORM_INT8", "0x10D0"),
    ("CLK_SNORM_INT16", "0x10D1"),
    ("CLK_UNORM_INT8", "0x10D2"),
    ("CLK_UNORM_INT16", "0x10D3"),
    ("CLK_UNORM_SHORT_565", "0x10D4"),
    ("CLK_UNORM_SHORT_555", "0x10D5"),
    ("CLK_UNORM_INT_101010", "0x10D6"),
    ("CLK_SIGNED_INT8", "0x10D7"),
    ("CLK_SIGNED_INT16", "0x10D8"),
    ("CLK_SIGNED_INT32", "0x10D9"),
    ("CLK_UNSIGNED_INT8", "0x10DA"),
    ("CLK_UNSIGNED_INT16", "0x10DB"),
    ("CLK_UNSIGNED_INT32", "0x10DC"),
    ("CLK_HALF_FLOAT", "0x10DD"),
    ("CLK_FLOAT", "0x10DE"),
    ("CLK_UNORM_INT24", "0x10DF"),
    ("CLK_R", "0x10B0"),
    ("CLK_A", "0x10B1"),
    ("CLK_RG", "0x10B2"),
    ("CLK_RA", "0x10B3"),
    ("CLK_RGB", "0x10B4"),
    ("CLK_RGBA", "0x10B5"),
    ("CLK_BGRA", "0x10B6"),
    ("CLK_ARGB", "0x10B7"),
    ("CLK_INTENSITY", "0x10B8"),
    ("CLK_LUMINANCE", "0x10B9"),
    ("CLK_Rx", "0x10BA"),
    ("CLK_RGx", "0x10BB"),
    ("CLK_RGBx", "0x10BC"),
    ("CLK_DEPTH", "0x10BD"),
    ("CLK_sRGB", "0x10BF"),
    ("CLK_sRGBx", "0x10C0"),
    ("CLK_sRGBA", "0x10C1"),
    ("CLK_sBGRA", "0x10C2"),
    ("CLK_ABGR", "0x10C3"),
];

/// The double-precision macros of 6.15.2.1: defined where the device has doubles.
const DOUBLES: &[(&str, &str)] = &[
    ("DBL_DIG", "15"),
    ("DBL_MANT_DIG", "53"),
    ("DBL_MAX_10_EXP", "+308"),
    ("DBL_MAX_EXP", "+1024"),
    ("DBL_MIN_10_EXP", "-307"),
    ("DBL_MIN_EXP", "-1021"),
    // Not in 6.15.2.1's list, but clang-based compilers define it beside FLT_RADIX and
    // HALF_RADIX, and real code reads it.
    ("DBL_RADIX", "2"),
    ("DBL_MAX", "0x1.fffffffffffffp1023"),
    ("DBL_MIN", "0x1.0p-1022"),
    ("DBL_EPSILON", "0x1.0p-52"),
    ("HUGE_VAL", "(1.0 / 0.0)"),
    ("M_E", "2.718281828459045090796"),
    ("M_LOG2E", "1.442695040888963387005"),
    ("M_LOG10E", "0.434294481903251816668"),
    ("M_LN2", "0.693147180559945286227"),
    ("M_LN10", "2.302585092994045901094"),
    ("M_PI", "3.141592653589793115998"),
    ("M_PI_2", "1.570796326794896557999"),
    ("M_PI_4", "0.785398163397448278999"),
    ("M_1_PI", "0.318309886183790691216"),
    ("M_2_PI", "0.636619772367581382433"),
    ("M_2_SQRTPI", "1.128379167095512558561"),
    ("M_SQRT2", "1.414213562373095145475"),
    ("M_SQRT1_2", "0.707106781186547572737"),
];

/// The half-precision macros of 6.15.2.1: defined where the device has halves.
const HALVES: &[(&str, &str)] = &[
    ("HALF_DIG", "3"),
    ("HALF_MANT_DIG", "11"),
    ("HALF_MAX_10_EXP", "+4"),
    ("HALF_MAX_EXP", "+16"),
    ("HALF_MIN_10_EXP", "-4"),
    ("HALF_MIN_EXP", "-13"),
    ("HALF_RADIX", "2"),
    ("HALF_MAX", "((half)0x1.ffcp15h)"),
    ("HALF_MIN", "((half)0x1.0p-14h)"),
    ("HALF_EPSILON", "((half)0x1.0p-10h)"),
    // 6.15.2.1: "They are of type half and are accurate within the precision of the half
    // type": each the constant of the float list rounded once, from its decimal, to half.
    ("M_E_H", "2.71828182845904523536h"),
    ("M_LOG2E_H", "1.44269504088896340736h"),
    ("M_LOG10E_H", "0.434294481903251827651h"),
    ("M_LN2_H", "0.693147180559945309417h"),
    ("M_LN10_H", "2.30258509299404568402h"),
    ("M_PI_H", "3.14159265358979323846h"),
    ("M_PI_2_H", "1.57079632679489661923h"),
    ("M_PI_4_H", "0.785398163397448309616h"),
    ("M_1_PI_H", "0.318309886183790671538h"),
    ("M_2_PI_H", "0.636619772367581343076h"),
    ("M_2_SQRTPI_H", "1.12837916709551257390h"),
    ("M_SQRT2_H", "1.41421356237309504880h"),
    ("M_SQRT1_2_H", "0.707106781186547524401h"),
];

/// 6.15.12.3 `memory_order` and `memory_scope` enumerators and initializers, 6.15.19 enqueue
/// results and event states: defined from OpenCL C 2.0 on.
const CL20: &[(&str, &str)] = &[
    ("memory_order_relaxed", "0"),
    ("memory_order_acquire", "2"),
    ("memory_order_release", "3"),
    ("memory_order_acq_rel", "4"),
    ("memory_order_seq_cst", "5"),
    ("memory_scope_work_item", "0"),
    ("memory_scope_work_group", "1"),
    ("memory_scope_device", "2"),
    ("memory_scope_all_svm_devices", "3"),
    ("memory_scope_all_devices", "3"),
    ("memory_scope_sub_group", "4"),
    ("ATOMIC_VAR_INIT(x)", "(x)"),
    ("ATOMIC_FLAG_INIT", "0"),
    ("CLK_ENQUEUE_FLAGS_NO_WAIT", "0"),
    // 6.15.19 enqueue results and event states (the values of the CL_ error codes).
    ("CLK_SUCCESS", "0"),
    ("CLK_ENQUEUE_FAILURE", "-101"),
    ("CLK_INVALID_QUEUE", "-102"),
    ("CLK_INVALID_NDRANGE", "-160"),
    ("CLK_INVALID_EVENT_WAIT_LIST", "-57"),
    ("CLK_DEVICE_QUEUE_FULL", "-161"),
    ("CLK_INVALID_ARG_SIZE", "-51"),
    ("CLK_EVENT_ALLOCATION_FAILURE", "-100"),
    ("CLK_OUT_OF_RESOURCES", "-5"),
    ("CLK_NULL_QUEUE", "0"),
    // The invalid reservation ID of the pipe functions (6.15.18), the name OpenCL C headers
    // give it: `is_valid_reserve_id` is false for it.
    ("CLK_NULL_RESERVE_ID", "0"),
    ("CLK_COMPLETE", "0x0"),
    ("CLK_RUNNING", "0x1"),
    ("CLK_SUBMITTED", "0x2"),
    ("CLK_PROFILING_COMMAND_EXEC_TIME", "0x1"),
    ("MAX_WORK_DIM", "3"),
    ("CLK_ENQUEUE_FLAGS_WAIT_KERNEL", "1"),
    ("CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP", "2"),
];

/// The text of the macros every program sees (OpenCL C 6.12 and the constants of 6.15).
fn predefined(options: &BuildOptions, target: &Target, version: ClVersion) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let v = version.0;
    let mut def = |name: &str, value: &str| {
        let _ = writeln!(s, "#define {name} {value}");
    };
    def("__OPENCL_VERSION__", &target.opencl_version.to_string());
    def("__OPENCL_C_VERSION__", &v.to_string());
    for (name, val, min) in [
        ("CL_VERSION_1_0", 100, 110),
        ("CL_VERSION_1_1", 110, 110),
        ("CL_VERSION_1_2", 120, 120),
        ("CL_VERSION_2_0", 200, 200),
        ("CL_VERSION_3_0", 300, 300),
    ] {
        if v >= min {
            def(name, &val.to_string());
        }
    }
    if target.little_endian {
        def("__ENDIAN_LITTLE__", "1");
    }
    if target.image_support {
        def("__IMAGE_SUPPORT__", "1");
    }
    if options.fast_relaxed_math {
        def("__FAST_RELAXED_MATH__", "1");
    }
    // 6.15.2.1: "If defined, the FP_FAST_FMAF macro shall indicate that the fma function
    // generally executes about as fast as, or faster than, a multiply and an add of float
    // operands"; FP_FAST_FMA says the same of double operands.
    if target.fast_fma {
        def("FP_FAST_FMAF", "1");
        if target.fp64 {
            def("FP_FAST_FMA", "1");
        }
    }
    def("__kernel_exec(X, typen)", "__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))");
    def("kernel_exec(X, typen)", "__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))");
    def("__OPENCL_C_VERSION", "__OPENCL_C_VERSION__");
    // 6.3.1: "The value true expands to the integer constant 1 and the value false expands to
    // the integer constant 0" -- in every OpenCL C version.
    def("true", "1");
    def("false", "0");
    // OpenCL C 2.0 code compares pointers with NULL (6.7.9's examples: `int *ptr = NULL;`),
    // which the 2.0 and later headers of other compilers define as a null pointer constant.
    if v >= 200 {
        def("NULL", "((void*)0)");
    }
    for e in &target.extensions {
        def(e, "1");
    }
    for f in language_features(target, v) {
        def(&f, "1");
    }
    for &(n, val) in LIMITS {
        def(n, val);
    }
    if target.fp64 {
        for &(n, val) in DOUBLES {
            def(n, val);
        }
    }
    if target.fp16 {
        for &(n, val) in HALVES {
            def(n, val);
        }
    }
    if v >= 200 {
        for &(n, val) in CL20 {
            def(n, val);
        }
    }
    for m in &options.macros {
        match m {
            MacroDef::Define(n, None) => {
                let _ = writeln!(s, "#define {n} 1");
            }
            MacroDef::Define(n, Some(d)) => {
                let _ = writeln!(s, "#define {n} {d}");
            }
            MacroDef::Undef(n) => {
                let _ = writeln!(s, "#undef {n}");
            }
        }
    }
    s
}

/// The OpenCL C version a build uses: `-cl-std`, or the highest 1.x the device supports
/// (API spec 5.8.6.5).
pub fn effective_version(options: &BuildOptions, target: &Target) -> Result<ClVersion, String> {
    // 5.8.6.2: the build fails for a device without correctly rounded divide and sqrt.
    if options.fp32_correctly_rounded_divide_sqrt && !target.correctly_rounded_divide_sqrt {
        return Err("-cl-fp32-correctly-rounded-divide-sqrt is not supported by the device".into());
    }
    match options.std {
        Some(v) => {
            let max = target
                .c_versions
                .iter()
                .copied()
                .max()
                .unwrap_or(ClVersion::CL1_2);
            if target.c_versions.contains(&v) || (v <= max && v < ClVersion::CL2_0) {
                Ok(v)
            } else {
                Err(format!(
                    "the device does not support OpenCL C version {}.{} (-cl-std={v})",
                    v.0 / 100,
                    (v.0 / 10) % 10
                ))
            }
        }
        None => Ok(target
            .c_versions
            .iter()
            .copied()
            .filter(|v| *v < ClVersion::CL2_0)
            .max()
            .unwrap_or(ClVersion::CL1_2)),
    }
}

/// Runs only the preprocessor (like `cc -E`): the expanded tokens as text, one line per
/// source line that produced tokens, and the log of any diagnostics.
pub fn preprocess(
    source: &str,
    options: &BuildOptions,
    target: &Target,
    headers: &[(String, String)],
) -> (String, String) {
    let version = effective_version(options, target).unwrap_or(ClVersion::CL1_2);
    let mut known = target.extensions.clone();
    known.extend(target.features.iter().cloned());
    let interner = lex::Interner::new(parse::KEYWORDS);
    let mut pp = pp::Preprocessor::new(interner, &options.include_dirs, headers, known);
    pp.version = version.0;
    pp.diags.suppress_warnings = options.no_warnings;
    pp.diags.warnings_as_errors = options.warnings_as_errors;
    pp.run_directives_only("<built-in>", predefined(options, target, version));
    let tokens = pp.run("<source>", source.to_string());
    let mut out = String::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == lex::Tok::Eof {
            break;
        }
        if let Some(h) = pp.unroll_hints.iter().find(|h| h.0 == i) {
            out.push_str(&format!("\n#pragma unroll {}\n", h.1));
        }
        for &(_, v) in pp.pragmas.pack.iter().filter(|p| p.0 == i) {
            let v = v.map_or(String::new(), |v| v.to_string());
            out.push_str(&format!("\n#pragma pack({v})\n"));
        }
        if t.has(lex::BOL) && !out.is_empty() {
            out.push('\n');
        } else if t.has(lex::SPACE) && !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&pp.text(t));
    }
    (out, pp.diags.render(&pp.sm))
}

/// Compiles one program source: preprocess (with the embedded `headers`, name → text, that
/// clCompileProgram passes), parse and check it, on a stack large enough for any input
/// ([`stack::on_compiler_stack`]).
pub fn compile(
    source: &str,
    options: &BuildOptions,
    target: &Target,
    headers: &[(String, String)],
) -> Compilation {
    stack::on_compiler_stack(|| compile_here(source, options, target, headers))
}

/// [`compile`] on the calling thread (whose stack must be large enough: see [`stack`]).
pub fn compile_here(
    source: &str,
    options: &BuildOptions,
    target: &Target,
    headers: &[(String, String)],
) -> Compilation {
    let version = match effective_version(options, target) {
        Ok(v) => v,
        Err(msg) => {
            let log = format!("error: {msg}\n1 error generated.\n");
            let d = Diagnostic {
                severity: diag::Severity::Error,
                file: String::new(),
                line: 0,
                column: 0,
                message: msg,
            };
            return Compilation {
                program: None,
                log,
                diagnostics: vec![d],
                timings: Vec::new(),
            };
        }
    };
    let v = version.0;
    let generic = v == 200 || (v >= 300 && target.has_feature("__opencl_c_generic_address_space"));
    let program_scope_globals =
        v == 200 || (v >= 300 && target.has_feature("__opencl_c_program_scope_global_variables"));
    let fp64 = target.fp64 && (v < 300 || target.has_feature("__opencl_c_fp64"));
    let images = target.image_support && (v < 300 || target.has_feature("__opencl_c_images"));
    let mut known = target.extensions.clone();
    known.extend(target.features.iter().cloned());
    if target.fp16 && !known.iter().any(|e| e == "cl_khr_fp16") {
        known.push("cl_khr_fp16".into());
    }
    let mut timings = Vec::new();
    let mut clock = std::time::Instant::now();
    let mut lap = |name: &'static str, timings: &mut Vec<(&'static str, std::time::Duration)>| {
        let now = std::time::Instant::now();
        timings.push((name, now - clock));
        clock = now;
    };
    let interner = lex::Interner::new(parse::KEYWORDS);
    let mut pp = pp::Preprocessor::new(interner, &options.include_dirs, headers, known);
    pp.version = v;
    pp.diags.suppress_warnings = options.no_warnings;
    pp.diags.warnings_as_errors = options.warnings_as_errors;
    pp.run_directives_only("<built-in>", predefined(options, target, version));
    let tokens = pp.run("<source>", source.to_string());
    lap("preprocess", &mut timings);
    let truncated = pp.truncated;
    let unroll_hints = std::mem::take(&mut pp.unroll_hints);
    let pp::Preprocessor {
        sm,
        mut interner,
        mut diags,
        pragmas,
        ..
    } = pp;
    let fp16 = target.fp16
        && (v >= 300
            || pragmas
                .extensions
                .iter()
                .any(|(n, on, _)| n == "cl_khr_fp16" && *on));
    let ast = {
        let mut p = parse::Parser::new(&tokens, &sm, &mut interner, &mut diags);
        p.quiet_at_eof = truncated;
        p.unroll_hints = unroll_hints.iter().map(|&(i, c, l)| (i, (c, l))).collect();
        p.version = v;
        p.pack = pragmas.pack.clone();
        p.fp_contract = pragmas.fp_contract.clone();
        p.translation_unit()
    };
    lap("parse", &mut timings);
    let program = {
        let lang = sema::LangOpts {
            version: v,
            fp64,
            fp16,
            images,
            generic,
            program_scope_globals,
            device_pipes: target.has_feature("__opencl_c_pipes"),
            device_enqueue: target.has_feature("__opencl_c_device_enqueue"),
            single_precision_constant: options.single_precision_constant,
            pointer_size: (target.address_bits / 8) as u64,
            fast_fma: target.fast_fma,
            fma_chains: target.fma_chains,
            mad_enable: options.mad_enable,
            correctly_rounded_divide_sqrt: options.fp32_correctly_rounded_divide_sqrt,
            depth_images: images && target.extensions.iter().any(|e| e == "cl_khr_depth_images"),
        };
        let cfg = builtins::Config {
            version: v,
            fp64,
            fp16,
            images,
            generic,
            extensions: target.extensions.clone(),
            features: language_features(target, v),
        };
        let s = sema::Sema::new(&interner, &mut diags, lang, cfg);
        s.translation_unit(&ast, &pragmas)
    };
    lap("sema", &mut timings);
    diags.sort(&sm);
    let log = diags.render(&sm);
    let diagnostics = diags
        .list
        .iter()
        .map(|d| {
            let (file, line, column) = sm.describe(d.loc);
            Diagnostic {
                severity: d.severity,
                file,
                line,
                column,
                message: d.message.clone(),
            }
        })
        .collect();
    let program = if diags.has_errors() { None } else { program };
    Compilation {
        program,
        log,
        diagnostics,
        timings,
    }
}
