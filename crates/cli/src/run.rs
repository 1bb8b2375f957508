//! `ferrocl run FILE.cl --kernel NAME --global ... --arg ...`: runs one kernel from the shell.
//! The argument list is checked against the kernel's own (`clGetKernelArgInfo`, from a build
//! with `-cl-kernel-arg-info`) before anything runs, and each mistake names the argument.

use std::path::PathBuf;

use opencl_sys::{
    CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ADDRESS_LOCAL,
};

use crate::build::{print_log, read_program, Common, Session};
use crate::cl::{self, ArgInfo};
use crate::values::{self, Scalar};
use crate::Failure;

/// How a buffer is filled.
#[derive(Clone, Debug, PartialEq)]
pub enum Fill {
    Zero,
    /// Uniform pseudo-random values: floats in [0, 1), integers in [0, 1024).
    Rand,
    /// 0, 1, 2, ...
    Iota,
    Value(String),
    /// `=1,2,3`: one value per element, in order.
    List(Vec<String>),
}

/// One `--arg`, as written.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    /// `int:5`, or a vector: `float4:1,2,3,4` (the lane count, and the values as written)
    Scalar(Scalar, usize, String),
    /// `float[1024]=rand`
    Pattern(Scalar, usize, Fill),
    /// `@in.bin`
    File(PathBuf),
    /// `in.npy`
    Npy(PathBuf),
    /// `local:BYTES`
    Local(usize),
    /// `{int:7,float:2.5,float4:1}`: a struct passed by value, its fields in order (scalars
    /// or vectors, as for a scalar argument)
    Struct(Vec<(Scalar, usize, String)>),
}

/// Reads one `--arg` value; the message says what is wrong with it.
pub fn parse_arg(text: &str) -> Result<ArgSpec, String> {
    if let Some(path) = text.strip_prefix('@') {
        if path.is_empty() {
            return Err("'@' needs a file name".to_string());
        }
        return Ok(ArgSpec::File(PathBuf::from(path)));
    }
    if text.ends_with(".npy") {
        return Ok(ArgSpec::Npy(PathBuf::from(text)));
    }
    if let Some(size) = text.strip_prefix("local:") {
        let bytes = size
            .parse::<usize>()
            .ok()
            .filter(|&b| b > 0)
            .ok_or_else(|| format!("'{text}': local:BYTES needs a byte count above 0"))?;
        return Ok(ArgSpec::Local(bytes));
    }
    if let Some(fields) = text.strip_prefix('{') {
        let fields = fields
            .strip_suffix('}')
            .ok_or_else(|| format!("'{text}': a struct ends with '}}'"))?;
        return struct_fields(fields)
            .map(ArgSpec::Struct)
            .map_err(|e| format!("'{text}': {e}"));
    }
    if let Some(open) = text.find('[') {
        let name = &text[..open];
        let ty = Scalar::from_name(name)
            .ok_or_else(|| format!("'{text}': '{name}' is not a scalar type"))?;
        let close = text[open..]
            .find(']')
            .map(|c| c + open)
            .ok_or_else(|| format!("'{text}': no ']'"))?;
        let count = text[open + 1..close]
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("'{text}': the element count must be a number above 0"))?;
        let rest = &text[close + 1..];
        let fill = match rest {
            "" | "=0" => Fill::Zero,
            "=rand" => Fill::Rand,
            "=iota" => Fill::Iota,
            _ => match rest.strip_prefix('=') {
                Some(list) if list.contains(',') => {
                    let values: Vec<String> = list.split(',').map(str::to_string).collect();
                    if values.len() != count {
                        return Err(format!(
                            "'{text}': {} values for {count} elements (give one, or {count})",
                            values.len()
                        ));
                    }
                    for value in &values {
                        ty.parse(value).map_err(|e| format!("'{text}': {e}"))?;
                    }
                    Fill::List(values)
                }
                Some(value) => {
                    ty.parse(value).map_err(|e| format!("'{text}': {e}"))?;
                    Fill::Value(value.to_string())
                }
                None => return Err(format!("'{text}': expected '=' after ']'")),
            },
        };
        return Ok(ArgSpec::Pattern(ty, count, fill));
    }
    if text.contains(':') {
        let (ty, lanes, value) = typed_value(text).map_err(|e| format!("'{text}': {e}"))?;
        return Ok(ArgSpec::Scalar(ty, lanes, value));
    }
    Err(format!(
        "'{text}' is not an argument: write TYPE:VALUE, TYPE[N]=FILL, {{TYPE:VALUE,...}}, @FILE, FILE.npy or local:BYTES"
    ))
}

/// Reads `TYPE:VALUE` (`int:5`, `float4:1,2,3,4`): the type, its lane count and the value.
fn typed_value(text: &str) -> Result<(Scalar, usize, String), String> {
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| format!("'{text}' is not TYPE:VALUE"))?;
    let (ty, lanes) = element(name)
        .filter(|&(_, lanes)| matches!(lanes, 1 | 2 | 3 | 4 | 8 | 16))
        .ok_or_else(|| {
            format!("'{name}' is not a scalar type (char, uchar, short, ushort, int, uint, long, ulong, float, double) or a vector of one (float4)")
        })?;
    vector_bytes(ty, lanes, value)?;
    Ok((ty, lanes, value.to_string()))
}

/// The fields of `{int:7,float4:1,2,3,4,float:2}`: a field starts where a word holds a ':'
/// (a vector's further values are words without one).
fn struct_fields(text: &str) -> Result<Vec<(Scalar, usize, String)>, String> {
    let mut fields: Vec<String> = Vec::new();
    for word in text.split(',') {
        match fields.last_mut() {
            Some(field) if !word.contains(':') => {
                field.push(',');
                field.push_str(word);
            }
            _ => fields.push(word.to_string()),
        }
    }
    if fields.iter().all(|f| f.trim().is_empty()) {
        return Err("a struct needs at least one field, like {int:1,float:2}".to_string());
    }
    fields.iter().map(|f| typed_value(f.trim())).collect()
}

/// The bytes of a struct argument, laid out as OpenCL C lays out a struct of these fields
/// (6.1.5: every type is aligned to its size; a 3-component vector to 4 components): each
/// field at the next multiple of its alignment, the whole padded to the largest alignment.
fn struct_bytes(fields: &[(Scalar, usize, String)]) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let mut largest = 1;
    for (ty, lanes, text) in fields {
        let align = ty.size() * storage_lanes(*lanes);
        largest = largest.max(align);
        bytes.resize(bytes.len().next_multiple_of(align), 0);
        bytes.extend(vector_bytes(*ty, *lanes, text)?);
    }
    bytes.resize(bytes.len().next_multiple_of(largest), 0);
    Ok(bytes)
}

/// The bytes of a scalar or vector value: one number per lane, or one for all lanes.
fn vector_bytes(ty: Scalar, lanes: usize, text: &str) -> Result<Vec<u8>, String> {
    let values: Vec<&str> = text.split(',').collect();
    if values.len() != lanes && values.len() != 1 {
        return Err(format!(
            "{} values for {lanes} lanes (give {lanes}, or one for all)",
            values.len()
        ));
    }
    let mut bytes = Vec::with_capacity(ty.size() * storage_lanes(lanes));
    for lane in 0..lanes {
        bytes.extend(ty.parse(values[lane % values.len()])?);
    }
    bytes.resize(ty.size() * storage_lanes(lanes), 0);
    Ok(bytes)
}

/// 6.1.2: "For 3-component vector data types, the size of the data type is 4 * sizeof
/// (component)."
fn storage_lanes(lanes: usize) -> usize {
    if lanes == 3 {
        4
    } else {
        lanes
    }
}

/// Parses `X[,Y[,Z]]`.
fn parse_sizes(option: &str, text: &str) -> Result<Vec<usize>, String> {
    let sizes: Vec<usize> = text
        .split(',')
        .map(|s| s.trim().parse::<usize>().ok().filter(|&n| n > 0))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            format!("run: {option} '{text}': sizes are numbers above 0, like 1024 or 64,64")
        })?;
    if sizes.is_empty() || sizes.len() > 3 {
        return Err(format!("run: {option} '{text}': one to three sizes"));
    }
    Ok(sizes)
}

/// The parsed command line of `run`.
#[derive(Debug, Default)]
pub struct Options {
    pub common: Common,
    pub file: Option<String>,
    pub kernel: Option<String>,
    pub global: Vec<usize>,
    pub local: Option<Vec<usize>>,
    /// The global work offset (`--offset`), as many sizes as `global`.
    pub offset: Option<Vec<usize>>,
    pub args: Vec<ArgSpec>,
    pub prints: Vec<String>,
    pub outputs: Vec<(String, PathBuf)>,
    /// How many times the kernel runs, one after the other on the same buffers (`--repeat`).
    pub repeat: usize,
}

pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        repeat: 1,
        ..Options::default()
    };
    let mut i = 0;
    while i < args.len() {
        if o.common.take("run", args, &mut i)? {
            i += 1;
            continue;
        }
        let arg = args[i].as_str();
        let value = |i: &mut usize| -> Result<String, String> {
            *i += 1;
            args.get(*i)
                .cloned()
                .ok_or_else(|| format!("run: {arg} needs a value"))
        };
        match arg {
            "--kernel" | "-k" => o.kernel = Some(value(&mut i)?),
            "--global" | "-g" => o.global = parse_sizes("--global", &value(&mut i)?)?,
            "--local" | "-l" => o.local = Some(parse_sizes("--local", &value(&mut i)?)?),
            "--offset" => o.offset = Some(parse_offsets(&value(&mut i)?)?),
            "--arg" | "-a" => {
                let text = value(&mut i)?;
                let spec =
                    parse_arg(&text).map_err(|e| format!("run: argument {}: {e}", o.args.len()))?;
                o.args.push(spec);
            }
            "--print" | "-p" => o.prints.push(value(&mut i)?),
            "--repeat" => {
                let text = value(&mut i)?;
                o.repeat = text
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("run: --repeat '{text}': a count above 0"))?;
            }
            "--output" | "-o" => {
                let text = value(&mut i)?;
                let (name, file) = text
                    .split_once('=')
                    .filter(|(n, f)| !n.is_empty() && !f.is_empty())
                    .ok_or_else(|| format!("run: --output '{text}': write ARG=FILE"))?;
                o.outputs.push((name.to_string(), PathBuf::from(file)));
            }
            other if other.starts_with('-') => {
                return Err(format!("run: unknown option '{other}'"))
            }
            other => {
                if o.file.is_some() {
                    return Err(format!("run: one source file only ('{other}' is a second)"));
                }
                o.file = Some(other.to_string());
            }
        }
        i += 1;
    }
    if o.file.is_none() {
        return Err("run: no source file given".to_string());
    }
    if o.kernel.is_none() {
        return Err("run: --kernel NAME is required".to_string());
    }
    if o.global.is_empty() {
        return Err("run: --global X[,Y[,Z]] is required".to_string());
    }
    if let Some(local) = &o.local {
        if local.len() != o.global.len() {
            return Err(format!(
                "run: --local has {} sizes, --global {}",
                local.len(),
                o.global.len()
            ));
        }
    }
    if let Some(offset) = &o.offset {
        if offset.len() != o.global.len() {
            return Err(format!(
                "run: --offset has {} values, --global {}",
                offset.len(),
                o.global.len()
            ));
        }
    }
    Ok(o)
}

/// `--offset X[,Y[,Z]]`: a global work offset, 0 allowed.
fn parse_offsets(text: &str) -> Result<Vec<usize>, String> {
    let values: Result<Vec<usize>, _> = text.split(',').map(str::parse::<usize>).collect();
    match values {
        Ok(v) if (1..=3).contains(&v.len()) => Ok(v),
        _ => Err(format!("run: --offset '{text}': one to three numbers")),
    }
}

/// A deterministic generator for `=rand` (xorshift64*, Vigna, "An experimental exploration of
/// Marsaglia's xorshift generators", 2016), so a run can be repeated.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The bytes of a `TYPE[N]=FILL` buffer.
pub fn fill(ty: Scalar, count: usize, fill: &Fill, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count * ty.size());
    let constant = match fill {
        Fill::Value(v) => ty.parse(v).ok(),
        _ => None,
    };
    for i in 0..count {
        match fill {
            Fill::Zero => out.resize(out.len() + ty.size(), 0),
            Fill::Iota => out.extend(ty.encode_f64(i as f64)),
            Fill::Rand if ty.is_float() => out.extend(ty.encode_f64(rng.next_f64())),
            Fill::Rand => out.extend(ty.encode_f64((rng.next_u64() % 1024) as f64)),
            Fill::Value(_) => out.extend(constant.as_deref().unwrap_or(&[])),
            Fill::List(values) => out.extend(ty.parse(&values[i]).unwrap_or_default()),
        }
    }
    out
}

/// The element type and lane count of a kernel argument's pointee or scalar type
/// (`float4*` → float, 4), when it is a scalar or vector of a scalar.
fn element(type_name: &str) -> Option<(Scalar, usize)> {
    let base = type_name.trim_end_matches('*');
    let digits = base.len() - base.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (name, lanes) = base.split_at(base.len() - digits);
    let lanes = if lanes.is_empty() {
        1
    } else {
        lanes.parse().ok()?
    };
    Scalar::from_name(name).map(|s| (s, lanes))
}

fn lane_suffix(lanes: usize) -> String {
    if lanes == 1 {
        String::new()
    } else {
        lanes.to_string()
    }
}

/// An argument ready to set: a value, a buffer's contents, or a __local size.
#[derive(Debug)]
enum Prepared {
    Value(Vec<u8>),
    Buffer { ty: Option<Scalar>, data: Vec<u8> },
    Local(usize),
}

fn describe(info: &ArgInfo) -> String {
    let space = match info.address {
        CL_KERNEL_ARG_ADDRESS_GLOBAL => "__global ",
        CL_KERNEL_ARG_ADDRESS_CONSTANT => "__constant ",
        CL_KERNEL_ARG_ADDRESS_LOCAL => "__local ",
        _ => "",
    };
    format!("{space}{}", info.type_name)
}

/// Checks one argument against the kernel's and prepares its bytes; the message (without the
/// argument's name, which the caller adds) says what does not fit.
fn prepare(spec: &ArgSpec, info: Option<&ArgInfo>, seed: u64) -> Result<Prepared, String> {
    let kind = info.map(|i| (i.is_pointer(), i.address, element(&i.type_name)));
    let read = |path: &PathBuf| {
        std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    match (spec, kind) {
        (ArgSpec::Local(bytes), None) => Ok(Prepared::Local(*bytes)),
        (ArgSpec::Local(bytes), Some((true, CL_KERNEL_ARG_ADDRESS_LOCAL, _))) => {
            Ok(Prepared::Local(*bytes))
        }
        (ArgSpec::Pattern(_, _, fill), Some((true, CL_KERNEL_ARG_ADDRESS_LOCAL, _)))
            if *fill != Fill::Zero =>
        {
            Err("is a __local buffer: give only its size; the host cannot fill it".to_string())
        }
        (ArgSpec::Pattern(ty, count, _), Some((true, CL_KERNEL_ARG_ADDRESS_LOCAL, elem))) => {
            if let Some((want, _)) = elem {
                if want != *ty {
                    return Err(format!("holds {}, not {}", want.name(), ty.name()));
                }
            }
            Ok(Prepared::Local(count * ty.size()))
        }
        (_, Some((true, CL_KERNEL_ARG_ADDRESS_LOCAL, _))) => {
            Err("is a __local buffer: give its size, as local:BYTES or TYPE[N]".to_string())
        }
        (ArgSpec::Local(_), Some(_)) => {
            Err("is not a __local pointer; local:BYTES does not fit".to_string())
        }
        (ArgSpec::Struct(fields), kind) => match kind {
            Some((true, _, _)) => Err(
                "is a buffer; got a struct value (write TYPE[N]=FILL, @FILE or FILE.npy)"
                    .to_string(),
            ),
            Some((false, _, Some(_))) => {
                Err("is a scalar or vector; got a struct value (write TYPE:VALUE)".to_string())
            }
            // The size is checked by clSetKernelArg (5.9.2: CL_INVALID_ARG_SIZE).
            _ => Ok(Prepared::Value(struct_bytes(fields)?)),
        },
        (ArgSpec::Scalar(ty, lanes, text), kind) => {
            let written = format!("{}{}:{text}", ty.name(), lane_suffix(*lanes));
            match kind {
                Some((true, _, _)) => {
                    return Err(format!(
                    "is a buffer; got the scalar {written} (write TYPE[N]=FILL, @FILE or FILE.npy)"
                ))
                }
                Some((false, _, Some((want, want_lanes))))
                    if want != *ty || want_lanes != *lanes =>
                {
                    return Err(format!("got {written}, a different type"))
                }
                Some((false, _, None)) => {
                    return Err(
                        "is not a scalar or vector; for a struct write {TYPE:VALUE,...}"
                            .to_string(),
                    )
                }
                _ => {}
            }
            Ok(Prepared::Value(vector_bytes(*ty, *lanes, text)?))
        }
        (_, Some((false, _, _))) => Err(format!(
            "is a scalar; got a buffer ({}) — write TYPE:VALUE",
            match spec {
                ArgSpec::Pattern(ty, n, _) => format!("{}[{n}]", ty.name()),
                ArgSpec::File(p) => format!("@{}", p.display()),
                ArgSpec::Npy(p) => p.display().to_string(),
                _ => unreachable!("scalars and local sizes handled above"),
            }
        )),
        (ArgSpec::Pattern(ty, count, how), kind) => {
            if let Some((_, _, Some((want, lanes)))) = kind {
                if want != *ty {
                    return Err(format!("points to {want}, got {}[{count}]", ty.name()));
                }
                if count % storage_lanes(lanes) != 0 {
                    return Err(format!(
                        "points to {}{lanes}; {count} {} elements are not a whole number of them",
                        want.name(),
                        want.name()
                    ));
                }
            }
            Ok(Prepared::Buffer {
                ty: Some(*ty),
                data: fill(*ty, *count, how, seed),
            })
        }
        (ArgSpec::File(path), kind) => {
            let data = read(path)?;
            if data.is_empty() {
                return Err(format!("{} is empty", path.display()));
            }
            let elem = kind.and_then(|(_, _, e)| e);
            if let Some((ty, lanes)) = elem {
                let size = ty.size() * storage_lanes(lanes);
                if data.len() % size != 0 {
                    return Err(format!(
                        "{} holds {} bytes, not a whole number of {}{} ({size} bytes each)",
                        path.display(),
                        data.len(),
                        ty.name(),
                        if lanes > 1 {
                            lanes.to_string()
                        } else {
                            String::new()
                        }
                    ));
                }
            }
            Ok(Prepared::Buffer {
                ty: elem.map(|(t, _)| t),
                data,
            })
        }
        (ArgSpec::Npy(path), kind) => {
            let npy =
                values::parse_npy(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
            if let Some((_, _, Some((want, lanes)))) = kind {
                if want != npy.ty {
                    return Err(format!(
                        "points to {}, but {} holds {} ({})",
                        want.name(),
                        path.display(),
                        npy.ty.name(),
                        npy.ty.npy_descr()
                    ));
                }
                if (npy.data.len() / want.size()) % storage_lanes(lanes) != 0 {
                    return Err(format!(
                        "points to {}{lanes}; {} holds {} elements, not a multiple of {lanes}",
                        want.name(),
                        path.display(),
                        npy.data.len() / want.size()
                    ));
                }
            }
            if npy.data.is_empty() {
                return Err(format!("{} holds no elements", path.display()));
            }
            Ok(Prepared::Buffer {
                ty: Some(npy.ty),
                data: npy.data,
            })
        }
    }
}

/// The index of the argument an `--print`/`--output` names: its name or its index.
fn resolve(name: &str, infos: &[Option<ArgInfo>], count: usize) -> Result<usize, String> {
    if let Ok(index) = name.parse::<usize>() {
        if index < count {
            return Ok(index);
        }
        return Err(format!(
            "the kernel has no argument {index} (it takes {count})"
        ));
    }
    infos
        .iter()
        .position(|i| i.as_ref().is_some_and(|i| i.name == name))
        .ok_or_else(|| format!("the kernel has no argument named '{name}'"))
}

pub fn command(args: &[String]) -> Result<String, Failure> {
    let o = parse(args).map_err(Failure::Usage)?;
    let file = o.file.as_deref().expect("parse requires a file");
    let kernel_name = o.kernel.as_deref().expect("parse requires a kernel");
    let program = read_program(file)?;
    let session = Session::open(o.common.library.as_deref())?;
    let target = session.find(o.common.platform(), o.common.device)?;
    let err = |e: cl::ClError| Failure::Error(e.to_string());
    let context = session.api.context(target.device).map_err(err)?;
    let options = format!("{} -cl-kernel-arg-info", o.common.options_string());
    let build = context
        .build_input(&program.input(), options.trim())
        .map_err(err)?;
    print_log(&build.log);
    if let Some(error) = build.error {
        return Err(Failure::Error(crate::build::failure(
            file,
            &target.platform_name,
            &error,
        )));
    }
    let kernel = build.program.kernel(kernel_name).map_err(|e| {
        let names = build.program.kernel_names();
        Failure::Error(format!(
            "{file} has no kernel '{kernel_name}' ({}); its kernels: {}",
            cl::error_name(e.code),
            if names.is_empty() {
                "(none)".to_string()
            } else {
                names.join(", ")
            }
        ))
    })?;
    let count = kernel.num_args().map_err(err)? as usize;
    let infos: Vec<Option<ArgInfo>> = (0..count as u32).map(|i| kernel.arg_info(i).ok()).collect();
    let signature = infos
        .iter()
        .enumerate()
        .map(|(i, info)| match info {
            Some(info) => format!("{} {}", describe(info), info.name),
            None => format!("argument {i}"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    if o.args.len() != count {
        return Err(Failure::Error(format!(
            "kernel '{kernel_name}' takes {count} argument{} ({signature}); {} given",
            if count == 1 { "" } else { "s" },
            o.args.len()
        )));
    }
    let label = |i: usize| match &infos[i] {
        Some(info) => format!("argument {i} '{}' ({})", info.name, describe(info)),
        None => format!("argument {i}"),
    };
    // Check every argument before allocating anything.
    let max_alloc = session
        .api
        .device_u64(target.device, opencl_sys::CL_DEVICE_MAX_MEM_ALLOC_SIZE)
        .unwrap_or(1 << 40);
    for (i, spec) in o.args.iter().enumerate() {
        if let ArgSpec::Pattern(ty, n, _) = spec {
            let bytes = n.checked_mul(ty.size()).map_or(u64::MAX, |b| b as u64);
            if bytes > max_alloc {
                return Err(Failure::Error(format!(
                    "{}: {}[{n}] is larger than the device's largest buffer \
                     (CL_DEVICE_MAX_MEM_ALLOC_SIZE, {max_alloc} bytes)",
                    label(i),
                    ty.name()
                )));
            }
        }
    }
    let mut prepared = Vec::with_capacity(count);
    for (i, spec) in o.args.iter().enumerate() {
        let p = prepare(spec, infos[i].as_ref(), 0x5eed + i as u64)
            .map_err(|e| Failure::Error(format!("{} {e}", label(i))))?;
        prepared.push(p);
    }
    let mut wanted = Vec::new();
    for name in &o.prints {
        let index = resolve(name, &infos, count)
            .map_err(|e| Failure::Error(format!("--print {name}: {e}")))?;
        wanted.push((index, None));
    }
    for (name, path) in &o.outputs {
        let index = resolve(name, &infos, count)
            .map_err(|e| Failure::Error(format!("--output {name}: {e}")))?;
        wanted.push((index, Some(path.clone())));
    }
    for (index, _) in &wanted {
        if !matches!(prepared[*index], Prepared::Buffer { .. }) {
            return Err(Failure::Error(format!(
                "{} is not a buffer; only buffers can be printed or written",
                label(*index)
            )));
        }
    }
    let mut buffers = Vec::new();
    for (i, p) in prepared.iter().enumerate() {
        let index = i as u32;
        let set = match p {
            Prepared::Value(bytes) => kernel.set_arg_bytes(index, bytes),
            Prepared::Local(size) => kernel.set_arg_local(index, *size),
            Prepared::Buffer { data, .. } => {
                let buffer = context.buffer(data.len()).map_err(err)?;
                context.write(&buffer, data).map_err(err)?;
                let set = kernel.set_arg_buffer(index, &buffer);
                buffers.push((i, buffer));
                set
            }
        };
        set.map_err(|e| Failure::Error(format!("{}: {e}", label(i))))?;
    }
    let start = std::time::Instant::now();
    // The queue is in order: each run starts after the one before it has finished.
    let mut event = context
        .enqueue_at(&kernel, o.offset.as_deref(), &o.global, o.local.as_deref())
        .map_err(err)?;
    for _ in 1..o.repeat {
        event = context
            .enqueue_at(&kernel, o.offset.as_deref(), &o.global, o.local.as_deref())
            .map_err(err)?;
    }
    event.wait().map_err(err)?;
    let wall = start.elapsed();
    let device_ns = event.device_ns().ok();
    eprintln!(
        "ran {kernel_name} on {} over {} in {:.3} ms{}",
        target.device_name,
        o.global
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join("x"),
        wall.as_secs_f64() * 1e3,
        device_ns.map_or(String::new(), |ns| format!(
            " ({:.3} ms on the device)",
            ns as f64 / 1e6
        ))
    );
    let mut out = String::new();
    for (index, path) in wanted {
        let buffer = &buffers
            .iter()
            .find(|(i, _)| *i == index)
            .expect("checked to be a buffer")
            .1;
        let data = context.read(buffer).map_err(err)?;
        let ty = match &prepared[index] {
            Prepared::Buffer { ty, .. } => *ty,
            _ => None,
        };
        let name = infos[index]
            .as_ref()
            .map_or(index.to_string(), |i| i.name.clone());
        match path {
            None => match ty {
                Some(ty) => out.push_str(&format!("{name}: {}\n", values::format_all(ty, &data))),
                None => out.push_str(&format!(
                    "{name}: {}\n",
                    data.iter()
                        .map(|b| format!("{b:02x}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                )),
            },
            Some(path) => {
                let bytes = match ty {
                    Some(ty) if path.extension().is_some_and(|e| e == "npy") => {
                        values::write_npy(ty, &data)
                    }
                    _ => data,
                };
                std::fs::write(&path, bytes)
                    .map_err(|e| Failure::Error(format!("cannot write {}: {e}", path.display())))?;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn argument_specs_parse() {
        assert_eq!(
            parse_arg("int:5").unwrap(),
            ArgSpec::Scalar(Scalar::Int, 1, "5".into())
        );
        assert_eq!(
            parse_arg("float[16]=rand").unwrap(),
            ArgSpec::Pattern(Scalar::Float, 16, Fill::Rand)
        );
        assert_eq!(
            parse_arg("uint[4]=7").unwrap(),
            ArgSpec::Pattern(Scalar::UInt, 4, Fill::Value("7".into()))
        );
        assert_eq!(
            parse_arg("float[8]").unwrap(),
            ArgSpec::Pattern(Scalar::Float, 8, Fill::Zero)
        );
        assert_eq!(
            parse_arg("@in.bin").unwrap(),
            ArgSpec::File("in.bin".into())
        );
        assert_eq!(parse_arg("x.npy").unwrap(), ArgSpec::Npy("x.npy".into()));
        assert_eq!(parse_arg("local:256").unwrap(), ArgSpec::Local(256));
        assert!(parse_arg("flot:1")
            .unwrap_err()
            .contains("not a scalar type"));
        assert!(parse_arg("int:1.5").unwrap_err().contains("not an integer"));
        assert!(parse_arg("float[0]").is_err());
        assert!(parse_arg("float[4]=abc").is_err());
        assert!(parse_arg("5").is_err());
        assert_eq!(
            parse_arg("float4:1,2,3,4").unwrap(),
            ArgSpec::Scalar(Scalar::Float, 4, "1,2,3,4".into())
        );
        assert!(parse_arg("float4:1,2")
            .unwrap_err()
            .contains("2 values for 4 lanes"));
        assert!(parse_arg("float5:1").is_err());
        assert_eq!(
            parse_arg("int[3]=5,-1,7").unwrap(),
            ArgSpec::Pattern(
                Scalar::Int,
                3,
                Fill::List(vec!["5".into(), "-1".into(), "7".into()])
            )
        );
        assert!(parse_arg("int[3]=5,-1")
            .unwrap_err()
            .contains("2 values for 3 elements"));
        assert!(parse_arg("uchar[2]=1,256").is_err());
        let ArgSpec::Struct(fields) = parse_arg("{char:1,float4:1,2,3,4,short:-2}").unwrap() else {
            panic!("a struct");
        };
        assert_eq!(fields.len(), 3);
        // 6.1.5: the float4 is aligned to 16 bytes, the whole struct to a multiple of 16.
        let bytes = struct_bytes(&fields).unwrap();
        assert_eq!(bytes.len(), 48);
        assert_eq!(bytes[0], 1);
        assert_eq!(&bytes[16..20], 1.0f32.to_le_bytes());
        assert_eq!(&bytes[28..32], 4.0f32.to_le_bytes());
        assert_eq!(&bytes[32..34], (-2i16).to_le_bytes());
        assert!(parse_arg("{int:1").is_err());
        assert!(parse_arg("{}").is_err());
        assert!(parse_arg("{int:1,flot:2}").is_err());
    }

    #[test]
    fn command_lines_parse() {
        let o = parse(&strings(&[
            "k.cl", "--kernel", "k", "--global", "64,8", "--local", "8,8", "--arg", "int:1",
            "--print", "out", "-D", "N=3",
        ]))
        .unwrap();
        assert_eq!(o.global, [64, 8]);
        assert_eq!(o.offset, None);
        assert_eq!(o.local.as_deref(), Some(&[8, 8][..]));
        assert_eq!(o.args.len(), 1);
        assert_eq!(o.common.options_string(), "-DN=3");
        assert_eq!(o.repeat, 1);
        let o = parse(&strings(&[
            "k.cl", "--kernel", "k", "--global", "4", "--repeat", "3",
        ]))
        .unwrap();
        assert_eq!(o.repeat, 3);
        let o = parse(&strings(&[
            "k.cl", "--kernel", "k", "--global", "4,2", "--offset", "3,0",
        ]))
        .unwrap();
        assert_eq!(o.offset.as_deref(), Some(&[3, 0][..]));
        let err = |list: &[&str]| parse(&strings(list)).unwrap_err();
        assert_eq!(
            err(&["--kernel", "k", "--global", "4"]),
            "run: no source file given"
        );
        assert_eq!(
            err(&["k.cl", "--global", "4"]),
            "run: --kernel NAME is required"
        );
        assert!(err(&["k.cl", "--kernel", "k"]).contains("--global"));
        assert!(err(&["k.cl", "--kernel", "k", "--global", "4,0"]).contains("above 0"));
        assert!(
            err(&["k.cl", "--kernel", "k", "--global", "4", "--offset", "1,1"])
                .contains("--offset has 2 values")
        );
        assert!(
            err(&["k.cl", "--kernel", "k", "--global", "4", "--offset", "x"])
                .contains("one to three")
        );
        assert!(
            err(&["k.cl", "--kernel", "k", "--global", "4", "--local", "2,2"])
                .contains("--local has 2 sizes")
        );
        assert!(
            err(&["k.cl", "--kernel", "k", "--global", "4", "--arg", "bogus"])
                .starts_with("run: argument 0: 'bogus'")
        );
        assert!(
            err(&["k.cl", "--kernel", "k", "--global", "4", "--repeat", "0"])
                .contains("--repeat '0'")
        );
        assert_eq!(
            err(&["k.cl", "--kernel", "k", "--global", "4", "--frob"]),
            "run: unknown option '--frob'"
        );
    }

    #[test]
    fn arguments_are_checked_against_the_kernel() {
        let global = |t: &str| ArgInfo {
            name: "x".into(),
            type_name: t.into(),
            address: CL_KERNEL_ARG_ADDRESS_GLOBAL,
        };
        let scalar = |t: &str| ArgInfo {
            name: "n".into(),
            type_name: t.into(),
            address: opencl_sys::CL_KERNEL_ARG_ADDRESS_PRIVATE,
        };
        let check = |spec: &str, info: &ArgInfo| prepare(&parse_arg(spec).unwrap(), Some(info), 1);
        assert!(check("float[4]=iota", &global("float*")).is_ok());
        assert!(check("float[8]", &global("float4*")).is_ok());
        assert!(check("float[6]", &global("float4*"))
            .unwrap_err()
            .contains("whole number"));
        assert!(check("int[4]", &global("float*"))
            .unwrap_err()
            .contains("points to float"));
        assert!(check("int:3", &global("float*"))
            .unwrap_err()
            .contains("is a buffer"));
        assert!(check("float[4]", &scalar("int"))
            .unwrap_err()
            .contains("is a scalar"));
        assert!(check("float:1", &scalar("int"))
            .unwrap_err()
            .contains("different type"));
        assert!(check("uint:1", &scalar("uint")).is_ok());
        assert!(check("{int:1,float:2}", &scalar("params")).is_ok());
        assert!(check("{int:1}", &scalar("int"))
            .unwrap_err()
            .contains("got a struct"));
        assert!(check("{int:1}", &global("int*"))
            .unwrap_err()
            .contains("is a buffer"));
        assert!(check("int:1", &scalar("params"))
            .unwrap_err()
            .contains("for a struct"));
        assert!(check("int:1", &scalar("int2"))
            .unwrap_err()
            .contains("got int:1, a different type"));
        let Ok(Prepared::Value(bytes)) = check("int3:7", &scalar("int3")) else {
            panic!("a value");
        };
        // 6.1.2: a 3-component vector has the size of a 4-component one.
        assert_eq!(bytes.len(), 16);
        assert_eq!(&bytes[..12], [7i32, 7, 7].map(i32::to_le_bytes).concat());
        assert!(check("float[8]", &global("float3*")).is_ok());
        assert!(check("float[6]", &global("float3*")).is_err());
        let Ok(Prepared::Buffer { data, .. }) = check("int[3]=iota", &global("int*")) else {
            panic!("a buffer");
        };
        assert_eq!(
            data,
            [0i32, 1, 2]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect::<Vec<_>>()
        );
    }
}
