//! `ferrocl info`: the platform and its devices, as text or JSON, read through the C API
//! (`clGetPlatformInfo`, `clGetDeviceInfo`) as every OpenCL program reads them: ferrocl's
//! platform, or with `--all` every platform the ICD loader sees.

use opencl_sys::*;

use crate::build::Session;
use crate::cl::Api;
use crate::json::Value;
use crate::Failure;

fn mib(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// The names of the bits of a `cl_device_fp_config`.
fn fp_names(config: u64) -> Value {
    let names = [
        (CL_FP_DENORM, "denorms"),
        (CL_FP_INF_NAN, "inf-nan"),
        (CL_FP_ROUND_TO_NEAREST, "round-to-nearest"),
        (CL_FP_ROUND_TO_ZERO, "round-to-zero"),
        (CL_FP_ROUND_TO_INF, "round-to-inf"),
        (CL_FP_FMA, "fma"),
        (CL_FP_SOFT_FLOAT, "soft-float"),
        (
            CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT,
            "correctly-rounded-divide-sqrt",
        ),
    ];
    Value::Array(
        names
            .iter()
            .filter(|(bit, _)| config & bit != 0)
            .map(|(_, n)| Value::String(n.to_string()))
            .collect(),
    )
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn type_name(device_type: u64) -> &'static str {
    [
        (CL_DEVICE_TYPE_CPU, "CPU"),
        (CL_DEVICE_TYPE_GPU, "GPU"),
        (CL_DEVICE_TYPE_ACCELERATOR, "Accelerator"),
        (CL_DEVICE_TYPE_CUSTOM, "Custom"),
    ]
    .iter()
    .find(|(bit, _)| device_type & bit != 0)
    .map_or("unknown", |(_, n)| n)
}

/// A list of names with versions (`cl_name_version`, OpenCL 3.0) as JSON objects; `Null`
/// where the platform does not answer the query.
fn name_versions(api: &Api, device: cl_device_id, param: cl_device_info) -> Value {
    match api.device_names(device, param) {
        Ok(list) => Value::Array(
            list.into_iter()
                .map(|(name, version)| {
                    Value::Object(vec![
                        ("name".into(), Value::String(name)),
                        ("version".into(), Value::String(version)),
                    ])
                })
                .collect(),
        ),
        Err(_) => Value::Null,
    }
}

/// One device's properties as the queries answer them.
fn device_value(api: &Api, device: cl_device_id) -> Value {
    let number = |param| {
        api.device_u64(device, param)
            .map_or(Value::Null, |v| Value::Number(v as f64))
    };
    let string = |param| Value::String(api.device_string(device, param));
    let flag = |param| Value::Bool(api.device_u64(device, param).unwrap_or(0) != 0);
    let fp = |param| fp_names(api.device_u64(device, param).unwrap_or(0));
    let sizes = api
        .device_sizes(device, CL_DEVICE_MAX_WORK_ITEM_SIZES)
        .unwrap_or_default();
    let device_type = api.device_u64(device, CL_DEVICE_TYPE).unwrap_or(0);
    Value::Object(vec![
        ("name".into(), string(CL_DEVICE_NAME)),
        ("type".into(), Value::String(type_name(device_type).into())),
        ("vendor".into(), string(CL_DEVICE_VENDOR)),
        ("version".into(), string(CL_DEVICE_VERSION)),
        (
            "opencl_c_version".into(),
            string(CL_DEVICE_OPENCL_C_VERSION),
        ),
        (
            "max_compute_units".into(),
            number(CL_DEVICE_MAX_COMPUTE_UNITS),
        ),
        (
            "max_clock_frequency_mhz".into(),
            number(CL_DEVICE_MAX_CLOCK_FREQUENCY),
        ),
        ("global_mem_size".into(), number(CL_DEVICE_GLOBAL_MEM_SIZE)),
        (
            "max_mem_alloc_size".into(),
            number(CL_DEVICE_MAX_MEM_ALLOC_SIZE),
        ),
        ("local_mem_size".into(), number(CL_DEVICE_LOCAL_MEM_SIZE)),
        (
            "max_work_group_size".into(),
            number(CL_DEVICE_MAX_WORK_GROUP_SIZE),
        ),
        (
            "max_work_item_sizes".into(),
            Value::Array(sizes.iter().map(|&s| Value::Number(s as f64)).collect()),
        ),
        (
            "compiler_available".into(),
            flag(CL_DEVICE_COMPILER_AVAILABLE),
        ),
        ("image_support".into(), flag(CL_DEVICE_IMAGE_SUPPORT)),
        ("single_fp_config".into(), fp(CL_DEVICE_SINGLE_FP_CONFIG)),
        ("double_fp_config".into(), fp(CL_DEVICE_DOUBLE_FP_CONFIG)),
        ("extensions".into(), string(CL_DEVICE_EXTENSIONS)),
        (
            "opencl_c_all_versions".into(),
            name_versions(api, device, CL_DEVICE_OPENCL_C_ALL_VERSIONS),
        ),
        (
            "opencl_c_features".into(),
            name_versions(api, device, CL_DEVICE_OPENCL_C_FEATURES),
        ),
    ])
}

/// One platform's properties and its devices'.
fn platform_value(api: &Api, platform: cl_platform_id) -> Value {
    let text = |param| Value::String(api.platform_string(platform, param));
    let devices = api
        .devices(platform)
        .unwrap_or_default()
        .into_iter()
        .map(|device| device_value(api, device))
        .collect();
    Value::Object(vec![
        ("name".into(), text(CL_PLATFORM_NAME)),
        ("vendor".into(), text(CL_PLATFORM_VENDOR)),
        ("version".into(), text(CL_PLATFORM_VERSION)),
        ("profile".into(), text(CL_PLATFORM_PROFILE)),
        ("extensions".into(), text(CL_PLATFORM_EXTENSIONS)),
        ("devices".into(), Value::Array(devices)),
    ])
}

/// `ferrocl info [--all] [--json]`: ferrocl's platform, or every platform the ICD loader sees
/// (ferrocl among them, through the private vendors directory).
pub fn command(json: bool, all: bool) -> Result<String, Failure> {
    let session = Session::open(None)?;
    let api = &session.api;
    let platforms = api.platforms().map_err(|e| Failure::Error(e.to_string()))?;
    let mut values: Vec<Value> = platforms
        .iter()
        .map(|&platform| platform_value(api, platform))
        .collect();
    if !all {
        values.retain(|p| matches!(p.get("name"), Some(Value::String(n)) if n == "ferrocl"));
        if values.is_empty() {
            let why = session
                .note
                .as_deref()
                .unwrap_or("the loader does not list it");
            return Err(Failure::Error(format!(
                "ferrocl's platform is not found: {why}"
            )));
        }
    }
    if json {
        return Ok(if all {
            Value::Object(vec![("platforms".into(), Value::Array(values))]).to_pretty()
        } else {
            let platform = values.swap_remove(0);
            Value::Object(vec![("platform".into(), platform)]).to_pretty()
        });
    }
    let mut out = String::new();
    if let (true, Some(note)) = (all, &session.note) {
        out.push_str(&format!("(ferrocl is not listed: {note})\n"));
    }
    for platform in &values {
        platform_text(&mut out, platform);
    }
    Ok(out)
}

/// A property as text: a string as it is, a number, a flag as yes/no, a list joined.
fn field(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(s)) if s.trim().is_empty() => "(none)".to_string(),
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Number(n)) => format!("{n}"),
        Some(Value::Bool(b)) => yes_no(*b).to_string(),
        Some(Value::Array(items)) if items.is_empty() => "(none)".to_string(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item {
                Value::String(s) => s.clone(),
                Value::Number(n) => format!("{n}"),
                other => field(other, "name"),
            })
            .collect::<Vec<_>>()
            .join(", "),
        _ => "?".to_string(),
    }
}

/// The text form, readable at a glance: the platform's lines indented by 2, its devices' by 4.
fn platform_text(out: &mut String, platform: &Value) {
    out.push_str(&format!("Platform: {}\n", field(platform, "name")));
    for (label, key) in [
        ("Vendor", "vendor"),
        ("Version", "version"),
        ("Profile", "profile"),
        ("Extensions", "extensions"),
    ] {
        out.push_str(&format!("  {label}: {}\n", field(platform, key)));
    }
    let devices = platform.get("devices").and_then(Value::as_array);
    for (i, device) in devices.unwrap_or(&[]).iter().enumerate() {
        let bytes = |key: &str| {
            device
                .get(key)
                .and_then(Value::as_f64)
                .map_or("?".to_string(), |n| mib(n as u64))
        };
        out.push_str(&format!("  Device {i}: {}\n", field(device, "name")));
        let lines = [
            ("Type", field(device, "type")),
            ("Vendor", field(device, "vendor")),
            ("Version", field(device, "version")),
            ("OpenCL C version", field(device, "opencl_c_version")),
            ("Compute units", field(device, "max_compute_units")),
            (
                "Max clock",
                format!("{} MHz", field(device, "max_clock_frequency_mhz")),
            ),
            ("Global memory", bytes("global_mem_size")),
            ("Max allocation", bytes("max_mem_alloc_size")),
            ("Local memory", bytes("local_mem_size")),
            ("Max work-group size", field(device, "max_work_group_size")),
            (
                "Max work-item sizes",
                format!("[{}]", field(device, "max_work_item_sizes")),
            ),
            ("Compiler available", field(device, "compiler_available")),
            ("Image support", field(device, "image_support")),
            ("Single precision", field(device, "single_fp_config")),
            ("Double precision", field(device, "double_fp_config")),
            ("Extensions", field(device, "extensions")),
            ("OpenCL C features", field(device, "opencl_c_features")),
        ];
        for (label, value) in lines {
            out.push_str(&format!("    {label}: {value}\n"));
        }
    }
}
