//! Declarations of the OpenCL C builtin functions (OpenCL C 6.15 and the conversions of 6.4),
//! table-driven: each row names functions, a signature template over the generic types of the
//! spec (gentype, sgentype, ugentype, intn ...) and the family the template ranges over. A
//! lookup expands only the rows of one name, for the features of the target, into concrete
//! signatures that sema's overload resolution chooses from.

pub mod catalogue;
mod table;

pub use catalogue::Builtin;

use crate::options::ClVersion;
use crate::parse::ast::Access;
use crate::sema::types::{AddrSpace, ImageDim, Scalar, LANES};
use catalogue::{HalfData, VectorData, VectorMisc};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};
use table::TABLE;

/// What a builtin may use on this target.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    pub version: u32,
    pub fp64: bool,
    pub fp16: bool,
    pub images: bool,
    pub generic: bool,
    pub extensions: Vec<String>,
    pub features: Vec<String>,
}

impl Config {
    fn has(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name) || self.features.iter().any(|e| e == name)
    }
    /// A 2.0 feature: always in 2.0, in 3.0 only with its feature macro.
    pub fn v20(&self, feature: &str) -> bool {
        if self.version >= ClVersion::CL3_0.0 {
            feature.is_empty() || self.has(feature)
        } else {
            self.version >= ClVersion::CL2_0.0
        }
    }
}

/// An element a builtin's pointer parameter points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PElem {
    Val(Scalar, u8),
    Atomic(Scalar),
    AtomicFlag,
    Event,
    ClkEvent,
    Void,
}

/// Which image access a parameter accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImgUse {
    Read,
    /// Read with a sampler: read_only images only (6.8: read_write images are read without
    /// a sampler).
    Sampled,
    Write,
    Any,
}

impl ImgUse {
    pub fn accepts(self, a: Access) -> bool {
        match self {
            ImgUse::Any => true,
            ImgUse::Read => a != Access::WriteOnly,
            ImgUse::Sampled => a == Access::ReadOnly,
            ImgUse::Write => a != Access::ReadOnly,
        }
    }
}

/// A concrete parameter or result type of a builtin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pt {
    Void,
    Val(Scalar, u8),
    SizeT,
    Ptr {
        elem: PElem,
        space: AddrSpace,
        is_const: bool,
        is_volatile: bool,
    },
    Image(ImageDim, ImgUse),
    Sampler,
    Event,
    ClkEvent,
    Queue,
    NdRange,
    ReserveId,
    MemOrder,
    MemScope,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sig {
    pub ret: Pt,
    pub params: Vec<Pt>,
    pub variadic: bool,
}

/// One table row: names, `ret(params)` template, family, requirement.
type Row = (&'static str, &'static str, &'static str, &'static str);

const ALL_LANES: [u8; 6] = [1, 2, 3, 4, 8, 16];

fn family(name: &str) -> Vec<(Scalar, u8)> {
    let floats = [Scalar::Float, Scalar::Double, Scalar::Half];
    let cross = |ss: &[Scalar], ls: &[u8]| -> Vec<(Scalar, u8)> {
        ss.iter()
            .flat_map(|&s| ls.iter().map(move |&l| (s, l)))
            .collect()
    };
    match name {
        "F" => cross(&floats, &ALL_LANES),
        "Fv" => cross(&floats, &LANES),
        "f" => cross(&[Scalar::Float], &ALL_LANES),
        "I" => cross(&Scalar::ALL_INT, &ALL_LANES),
        "Iv" => cross(&Scalar::ALL_INT, &LANES),
        "Isg" => cross(
            &[Scalar::Char, Scalar::Short, Scalar::Int, Scalar::Long],
            &ALL_LANES,
        ),
        "G" => {
            let mut v = cross(&Scalar::ALL_INT, &ALL_LANES);
            v.extend(cross(&floats, &ALL_LANES));
            v
        }
        "g4" => cross(&floats, &[1, 2, 3, 4]),
        "g34" => cross(&floats, &[3, 4]),
        "f4" => cross(&[Scalar::Float], &[1, 2, 3, 4]),
        "i32" => cross(&[Scalar::Int, Scalar::UInt], &ALL_LANES),
        "a1" => cross(&[Scalar::Int, Scalar::UInt], &[1]),
        "a64" => cross(&[Scalar::Long, Scalar::ULong], &[1]),
        "A" => cross(
            &[
                Scalar::Int,
                Scalar::UInt,
                Scalar::Long,
                Scalar::ULong,
                Scalar::Float,
                Scalar::Double,
            ],
            &[1],
        ),
        "Ai" => cross(
            &[Scalar::Int, Scalar::UInt, Scalar::Long, Scalar::ULong],
            &[1],
        ),
        "W" => cross(
            &[
                Scalar::Int,
                Scalar::UInt,
                Scalar::Long,
                Scalar::ULong,
                Scalar::Float,
                Scalar::Double,
                Scalar::Half,
            ],
            &[1],
        ),
        // `n`: the template's types carry their own lanes; expanded over all lane counts.
        "n" => ALL_LANES.iter().map(|&l| (Scalar::Int, l)).collect(),
        _ => vec![(Scalar::Int, 1)],
    }
}

pub(crate) fn scalar_named(s: &str) -> Option<Scalar> {
    Some(match s {
        "bool" => Scalar::Bool,
        "char" => Scalar::Char,
        "uchar" => Scalar::UChar,
        "short" => Scalar::Short,
        "ushort" => Scalar::UShort,
        "int" => Scalar::Int,
        "uint" => Scalar::UInt,
        "long" => Scalar::Long,
        "ulong" => Scalar::ULong,
        "half" => Scalar::Half,
        "float" => Scalar::Float,
        "double" => Scalar::Double,
        _ => return None,
    })
}

/// Parses one template type for the binding (s, n); `space` is the pointer space to use for
/// `A`/`N` pointers. Returns None for an unknown token (a table bug).
fn template_type(tok: &str, s: Scalar, n: u8, space: AddrSpace, fam_n: bool) -> Option<Pt> {
    if let Some((pointee, sp)) = tok.split_once('*') {
        // A leading `c` or `v` marks const or volatile, unless the name itself starts so.
        let plain = |p: &str| {
            matches!(p, "@" | "flag" | "event" | "clkevent" | "void")
                || template_type(p, s, n, space, fam_n).is_some()
        };
        let (is_const, is_volatile, core) = if plain(pointee) {
            (false, false, pointee)
        } else if let Some(c) = pointee.strip_prefix('c') {
            (true, false, c)
        } else if let Some(v) = pointee.strip_prefix('v') {
            (false, true, v)
        } else {
            (false, false, pointee)
        };
        let elem = match core {
            "@" => PElem::Atomic(s),
            "flag" => PElem::AtomicFlag,
            "event" => PElem::Event,
            "clkevent" => PElem::ClkEvent,
            "void" => PElem::Void,
            _ => match template_type(core, s, n, space, fam_n)? {
                Pt::Val(s, n) => PElem::Val(s, n),
                _ => return None,
            },
        };
        let space = match sp {
            "g" => AddrSpace::Global,
            "l" => AddrSpace::Local,
            "p" => AddrSpace::Private,
            "c" => AddrSpace::Constant,
            "G" => AddrSpace::Generic,
            "P" => {
                if space == AddrSpace::Generic {
                    AddrSpace::Generic
                } else {
                    AddrSpace::Private
                }
            }
            _ => space,
        };
        return Some(Pt::Ptr {
            elem,
            space,
            is_const,
            is_volatile,
        });
    }
    let unsigned = s.to_unsigned();
    Some(match tok {
        "T" => Pt::Val(s, n),
        "S" => Pt::Val(s, 1),
        "U" => Pt::Val(unsigned, n),
        "Us" => Pt::Val(unsigned, 1),
        "I" => Pt::Val(Scalar::Int, n),
        "R" => Pt::Val(
            if n == 1 {
                Scalar::Int
            } else {
                s.same_size_int()
            },
            n,
        ),
        "Ki" => Pt::Val(s.same_size_int(), n),
        "Ku" => Pt::Val(s.same_size_int().to_unsigned(), n),
        "void" => Pt::Void,
        "size_t" => Pt::SizeT,
        "sampler" => Pt::Sampler,
        "event" => Pt::Event,
        "clkevent" => Pt::ClkEvent,
        "queue" => Pt::Queue,
        "ndrange" => Pt::NdRange,
        "order" => Pt::MemOrder,
        "scope" => Pt::MemScope,
        _ if tok.starts_with("img") => {
            let t = &tok[3..];
            let (dim_s, use_) = match t.strip_suffix('r') {
                Some(d) => (d, ImgUse::Read),
                None => match t.strip_suffix('w') {
                    Some(d) => (d, ImgUse::Write),
                    None => (t, ImgUse::Any),
                },
            };
            let dim = match dim_s {
                "1" => ImageDim::D1,
                "1a" => ImageDim::D1Array,
                "1b" => ImageDim::D1Buffer,
                "2" => ImageDim::D2,
                "2a" => ImageDim::D2Array,
                "3" => ImageDim::D3,
                "2d" => ImageDim::D2Depth,
                "2ad" => ImageDim::D2ArrayDepth,
                _ => return None,
            };
            Pt::Image(dim, use_)
        }
        _ => {
            // A concrete scalar or vector name; in an `n` family the lanes come from it.
            let digits = tok.trim_start_matches(|c: char| c.is_ascii_alphabetic());
            let base = &tok[..tok.len() - digits.len()];
            let sc = scalar_named(base)?;
            let lanes = if digits.is_empty() {
                if fam_n {
                    n
                } else {
                    1
                }
            } else {
                digits.parse().ok()?
            };
            Pt::Val(sc, lanes)
        }
    })
}

fn uses(pt: &Pt, s: Scalar) -> bool {
    match pt {
        Pt::Val(x, _) => *x == s,
        Pt::Ptr {
            elem: PElem::Val(x, _),
            ..
        }
        | Pt::Ptr {
            elem: PElem::Atomic(x),
            ..
        } => *x == s,
        _ => false,
    }
}

fn available(sig: &Sig, cfg: &Config) -> bool {
    let all = std::iter::once(&sig.ret).chain(sig.params.iter());
    for p in all {
        if uses(p, Scalar::Double) && !cfg.fp64 {
            return false;
        }
        // Half values need cl_khr_fp16; pointers to half (vload_half) do not.
        if matches!(p, Pt::Val(Scalar::Half, _)) && !cfg.fp16 {
            return false;
        }
        if matches!(
            p,
            Pt::Ptr {
                space: AddrSpace::Generic,
                ..
            }
        ) && !cfg.generic
        {
            return false;
        }
    }
    true
}

fn requirement_met(req: &str, cfg: &Config) -> bool {
    if req.is_empty() {
        return true;
    }
    if let Some(f) = req.strip_prefix("2.0:") {
        return cfg.v20(f);
    }
    if let Some(e) = req.strip_prefix("ext:") {
        return cfg.has(e);
    }
    match req {
        "img" => cfg.images,
        "sub" => cfg.has("cl_khr_subgroups") || cfg.has("__opencl_c_subgroups"),
        _ => false,
    }
}

/// The table's builtins by name (for "did you mean" suggestions).
pub fn table_names() -> impl Iterator<Item = (&'static str, Builtin)> {
    TABLE
        .iter()
        .flat_map(|row| row.0.split_whitespace())
        .map(|name| {
            (
                name,
                Builtin::from_name(name).expect("the table names builtins"),
            )
        })
}

fn rows_by_name() -> &'static HashMap<Builtin, Vec<&'static Row>> {
    static MAP: OnceLock<HashMap<Builtin, Vec<&'static Row>>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut m: HashMap<Builtin, Vec<&'static Row>> = HashMap::new();
        for row in TABLE {
            for name in row.0.split_whitespace() {
                let b = Builtin::from_name(name).expect("the table names builtins");
                m.entry(b).or_default().push(row);
            }
        }
        m
    })
}

fn parse_template(t: &str) -> (&str, Vec<&str>) {
    let (ret, rest) = t.split_once('(').unwrap_or((t, ")"));
    let params = rest.trim_end_matches(')');
    let params = if params.is_empty() {
        vec![]
    } else {
        params.split(',').collect()
    };
    (ret, params)
}

fn spaces_for(template: &str, cfg: &Config) -> Vec<AddrSpace> {
    let mut v = vec![AddrSpace::Global, AddrSpace::Local, AddrSpace::Private];
    if template.contains("*N") {
        v.push(AddrSpace::Constant);
    }
    if cfg.generic {
        v.push(AddrSpace::Generic);
    }
    if template.contains("*A") || template.contains("*N") || template.contains("*P") {
        if template.contains("*P") && !template.contains("*A") && !template.contains("*N") {
            return if cfg.generic {
                vec![AddrSpace::Private, AddrSpace::Generic]
            } else {
                vec![AddrSpace::Private]
            };
        }
        v
    } else {
        vec![AddrSpace::Private]
    }
}

fn expand_row(row: &Row, cfg: &Config, out: &mut Vec<Sig>) {
    if row.1.contains("*B") {
        let mut letters = vec!["g", "l", "p"];
        if cfg.generic {
            letters.push("G");
        }
        for letter in letters {
            let template = row.1.replace("*B", &format!("*{letter}"));
            expand_template(&template, row.2, cfg, out);
        }
    } else {
        expand_template(row.1, row.2, cfg, out);
    }
}

fn expand_template(template: &str, family_name: &str, cfg: &Config, out: &mut Vec<Sig>) {
    let (ret, params) = parse_template(template);
    let fam_n = family_name == "n";
    for (s, n) in family(family_name) {
        for space in spaces_for(template, cfg) {
            let Some(ret) = template_type(ret, s, n, space, fam_n) else {
                continue;
            };
            let ps: Option<Vec<Pt>> = params
                .iter()
                .map(|p| template_type(p, s, n, space, fam_n))
                .collect();
            let Some(mut params) = ps else { continue };
            if params.contains(&Pt::Sampler) {
                for p in &mut params {
                    if let Pt::Image(d, ImgUse::Read) = *p {
                        *p = Pt::Image(d, ImgUse::Sampled);
                    }
                }
            }
            let sig = Sig {
                ret,
                params,
                variadic: false,
            };
            if available(&sig, cfg) && !out.contains(&sig) {
                out.push(sig);
            }
        }
    }
}

fn all_scalars() -> [Scalar; 11] {
    [
        Scalar::Char,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Long,
        Scalar::ULong,
        Scalar::Float,
        Scalar::Double,
        Scalar::Half,
    ]
}

fn vec_size(s: Scalar, n: u8) -> u32 {
    s.size() * if n == 3 { 4 } else { n as u32 }
}

type Cache = HashMap<u64, crate::hash::FxHashMap<Builtin, Arc<Vec<Sig>>>>;

impl Config {
    /// Identifies the configuration in the process-wide cache of expanded overloads.
    pub fn fingerprint(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.hash(&mut h);
        h.finish()
    }

    /// A value of scalar type `s` exists on this target.
    fn value_ok(&self, s: Scalar) -> bool {
        (s != Scalar::Double || self.fp64) && (s != Scalar::Half || self.fp16)
    }
}

/// All overloads of `builtin` available with `cfg` (whose fingerprint is given), expanded once
/// per process and configuration.
pub fn lookup_cached(builtin: Builtin, cfg: &Config, fingerprint: u64) -> Arc<Vec<Sig>> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(v) = cache
        .lock()
        .ok()
        .and_then(|m| m.get(&fingerprint).and_then(|n| n.get(&builtin)).cloned())
    {
        return v;
    }
    let v = Arc::new(lookup(builtin, cfg));
    if let Ok(mut m) = cache.lock() {
        // The builtins are finitely many, so the cache is bounded.
        m.entry(fingerprint).or_default().insert(builtin, v.clone());
    }
    v
}

/// All overloads of `builtin` available with `cfg`; empty when the target has none.
pub fn lookup(builtin: Builtin, cfg: &Config) -> Vec<Sig> {
    let mut out = Vec::new();
    if let Some(rows) = rows_by_name().get(&builtin) {
        for row in rows {
            if requirement_met(row.3, cfg) {
                expand_row(row, cfg, &mut out);
            }
        }
        return out;
    }
    match builtin {
        Builtin::Convert(c) => conversions(c.to, c.lanes, cfg, &mut out),
        Builtin::As { to, lanes } => reinterpretations(to, lanes, cfg, &mut out),
        Builtin::VectorData(v) => vector_data(v, cfg, &mut out),
        Builtin::VectorMisc(m) => shuffles(m == VectorMisc::Shuffle2, cfg, &mut out),
        // 6.15.14: int printf(constant char * restrict format, ...).
        Builtin::Printf if cfg.version >= ClVersion::CL1_2.0 || cfg.has("cl_intel_printf") => {
            out.push(Sig {
                ret: Pt::Val(Scalar::Int, 1),
                params: vec![element_ptr(Scalar::Char, AddrSpace::Constant, true)],
                variadic: true,
            });
        }
        _ => {}
    }
    out
}

/// A pointer to one scalar element.
fn element_ptr(s: Scalar, space: AddrSpace, is_const: bool) -> Pt {
    Pt::Ptr {
        elem: PElem::Val(s, 1),
        space,
        is_const,
        is_volatile: false,
    }
}

/// 6.4.3 explicit conversions to `d` with `n` lanes: one overload per source type with the
/// same lane count.
fn conversions(d: Scalar, n: u8, cfg: &Config, out: &mut Vec<Sig>) {
    if !cfg.value_ok(d) {
        return;
    }
    for s in all_scalars() {
        if cfg.value_ok(s) {
            out.push(Sig {
                ret: Pt::Val(d, n),
                params: vec![Pt::Val(s, n)],
                variadic: false,
            });
        }
    }
}

/// 6.4.4 `as_<type>`: reinterpretation between types of the same size.
fn reinterpretations(d: Scalar, n: u8, cfg: &Config, out: &mut Vec<Sig>) {
    if !cfg.value_ok(d) || d == Scalar::Bool {
        return;
    }
    for s in all_scalars() {
        for m in ALL_LANES {
            // 6.4.4.1: a 3-component vector reinterprets only to/from a 3-component vector or
            // a 4-component one of the same size.
            let same = vec_size(s, m) == vec_size(d, n);
            let three_ok = (m != 3 && n != 3) || (m == 3 && n == 3) || m == 4 || n == 4;
            if same && three_ok && cfg.value_ok(s) {
                out.push(Sig {
                    ret: Pt::Val(d, n),
                    params: vec![Pt::Val(s, m)],
                    variadic: false,
                });
            }
        }
    }
}

/// 6.15.7 vloadn / vstoren / vload_halfn / vstore_halfn / vloada_halfn / vstorea_halfn (the
/// scalar `vload_half` and `vstore_half` are rows of the table).
fn vector_data(v: VectorData, cfg: &Config, out: &mut Vec<Sig>) {
    let mut spaces = vec![
        AddrSpace::Global,
        AddrSpace::Local,
        AddrSpace::Private,
        AddrSpace::Constant,
    ];
    if cfg.generic {
        spaces.push(AddrSpace::Generic);
    }
    if v.store {
        spaces.retain(|s| *s != AddrSpace::Constant);
    }
    let n = v.lanes;
    let mut sigs = Vec::new();
    match (v.half, v.store) {
        (HalfData::No, false) => {
            for s in all_scalars() {
                for &sp in &spaces {
                    sigs.push(Sig {
                        ret: Pt::Val(s, n),
                        params: vec![Pt::SizeT, element_ptr(s, sp, true)],
                        variadic: false,
                    });
                }
            }
        }
        (HalfData::No, true) => {
            for s in all_scalars() {
                for &sp in &spaces {
                    sigs.push(Sig {
                        ret: Pt::Void,
                        params: vec![Pt::Val(s, n), Pt::SizeT, element_ptr(s, sp, false)],
                        variadic: false,
                    });
                }
            }
        }
        (_, false) => {
            // A half pointer needs no cl_khr_fp16.
            for &sp in &spaces {
                out.push(Sig {
                    ret: Pt::Val(Scalar::Float, n),
                    params: vec![Pt::SizeT, element_ptr(Scalar::Half, sp, true)],
                    variadic: false,
                });
            }
        }
        (_, true) => {
            for src in [Scalar::Float, Scalar::Double] {
                for &sp in &spaces {
                    sigs.push(Sig {
                        ret: Pt::Void,
                        params: vec![
                            Pt::Val(src, n),
                            Pt::SizeT,
                            element_ptr(Scalar::Half, sp, false),
                        ],
                        variadic: false,
                    });
                }
            }
        }
    }
    out.extend(sigs.into_iter().filter(|sig| available(sig, cfg)));
}

/// 6.15.13: shuffle(gentypem x, ugentypen mask) and shuffle2(gentypem x, gentypem y,
/// ugentypen mask).
fn shuffles(two: bool, cfg: &Config, out: &mut Vec<Sig>) {
    let lanes = [2u8, 4, 8, 16];
    for s in all_scalars() {
        if !cfg.value_ok(s) {
            continue;
        }
        let mask = s.same_size_int().to_unsigned();
        for &m in &lanes {
            for &n in &lanes {
                let mut params = vec![Pt::Val(s, m)];
                if two {
                    params.push(Pt::Val(s, m));
                }
                params.push(Pt::Val(mask, n));
                out.push(Sig {
                    ret: Pt::Val(s, n),
                    params,
                    variadic: false,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The overloads of the builtin called `name` (none when no builtin is).
    fn named(name: &str, cfg: &Config) -> Vec<Sig> {
        Builtin::from_name(name)
            .map(|b| lookup(b, cfg))
            .unwrap_or_default()
    }

    fn cfg(version: u32, fp64: bool) -> Config {
        Config {
            version,
            fp64,
            fp16: false,
            images: true,
            generic: version >= 200,
            ..Default::default()
        }
    }

    #[test]
    fn math_gentype_covers_float_vectors_and_double_only_with_fp64() {
        let without = named("sin", &cfg(120, false));
        assert_eq!(
            without.len(),
            6,
            "float, float2, float3, float4, float8, float16"
        );
        let with = named("sin", &cfg(120, true));
        assert_eq!(with.len(), 12);
        assert!(with.iter().any(|s| s.ret == Pt::Val(Scalar::Double, 16)));
    }

    #[test]
    fn pointer_arguments_expand_over_address_spaces() {
        let v12 = named("fract", &cfg(120, false));
        assert_eq!(v12.len(), 6 * 3);
        let v20 = named("fract", &cfg(200, false));
        assert_eq!(v20.len(), 6 * 4);
    }

    #[test]
    fn convert_and_as_names() {
        assert_eq!(
            Builtin::from_name("convert_int4_sat_rte"),
            Some(Builtin::Convert(catalogue::Convert {
                to: Scalar::Int,
                lanes: 4,
                sat: true,
                round: Some(catalogue::Rounding::Rte)
            }))
        );
        assert_eq!(Builtin::from_name("convert_float_sat"), None);
        assert_eq!(Builtin::from_name("convert_int5"), None);
        let c = named("convert_float4", &cfg(120, false));
        assert!(c.iter().all(|s| matches!(s.params[0], Pt::Val(_, 4))));
        let a = named("as_float", &cfg(120, false));
        assert!(a.iter().any(|s| s.params[0] == Pt::Val(Scalar::Int, 1)));
        assert!(a.iter().any(|s| s.params[0] == Pt::Val(Scalar::UChar, 4)));
        assert!(!a.iter().any(|s| s.params[0] == Pt::Val(Scalar::Long, 1)));
    }

    #[test]
    fn version_and_feature_gates() {
        assert!(named("ctz", &cfg(120, false)).is_empty());
        assert!(!named("ctz", &cfg(200, false)).is_empty());
        assert!(named("work_group_reduce_add", &cfg(300, false)).is_empty());
        let mut c = cfg(300, false);
        c.features
            .push("__opencl_c_work_group_collective_functions".into());
        assert!(!named("work_group_reduce_add", &c).is_empty());
        let mut noimg = cfg(120, false);
        noimg.images = false;
        assert!(named("read_imagef", &noimg).is_empty());
    }

    #[test]
    fn vload_store_and_shuffle() {
        let v = named("vload4", &cfg(120, false));
        assert!(v.contains(&Sig {
            ret: Pt::Val(Scalar::Float, 4),
            params: vec![
                Pt::SizeT,
                Pt::Ptr {
                    elem: PElem::Val(Scalar::Float, 1),
                    space: AddrSpace::Constant,
                    is_const: true,
                    is_volatile: false
                }
            ],
            variadic: false
        }));
        assert!(named("vload5", &cfg(120, false)).is_empty());
        assert!(!named("vstore_half4_rtz", &cfg(120, false)).is_empty());
        let s = named("shuffle", &cfg(120, false));
        assert!(s.iter().any(|x| x.ret == Pt::Val(Scalar::Float, 8)
            && x.params == vec![Pt::Val(Scalar::Float, 4), Pt::Val(Scalar::UInt, 8)]));
    }

    #[test]
    fn every_row_expands() {
        // Every row of the table is reachable with some configuration (no dead rows, no
        // template tokens the expander does not know).
        let mut c = cfg(300, true);
        c.fp16 = true;
        c.generic = true;
        for f in [
            "__opencl_c_work_group_collective_functions",
            "__opencl_c_subgroups",
            "__opencl_c_device_enqueue",
            "__opencl_c_3d_image_writes",
            "cl_khr_int64_base_atomics",
            "__opencl_c_atomic_order_seq_cst",
            "cl_khr_kernel_clock",
            "__opencl_c_integer_dot_product_input_4x8bit",
            "cl_khr_extended_bit_ops",
            "__opencl_c_integer_dot_product_input_4x8bit_packed",
            "cl_khr_work_group_uniform_arithmetic",
            "cl_khr_subgroup_non_uniform_vote",
            "cl_khr_subgroup_ballot",
            "cl_khr_subgroup_non_uniform_arithmetic",
            "cl_khr_subgroup_clustered_reduce",
            "cl_khr_subgroup_shuffle",
            "cl_khr_subgroup_shuffle_relative",
            "cl_khr_subgroup_rotate",
        ] {
            c.features.push(f.into());
        }
        for row in TABLE {
            let mut out = Vec::new();
            expand_row(row, &c, &mut out);
            assert!(!out.is_empty(), "row {:?} expands to nothing", row);
        }
    }
}
