//! `ferrocl info`: the platform and its devices, as text or JSON. The values are the ones the
//! OpenCL queries return (`clGetPlatformInfo`, `clGetDeviceInfo`), read from the runtime.

use ferrocl_core::device::{fp_config, DeviceType};
use ferrocl_core::features::{names_string, NameVersion};
use ferrocl_core::{Device, Platform};

use crate::json::Value;

fn type_name(t: DeviceType) -> &'static str {
    match t {
        DeviceType::Cpu => "CPU",
        DeviceType::Gpu => "GPU",
        DeviceType::Accelerator => "Accelerator",
        DeviceType::Custom => "Custom",
    }
}

fn mib(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

fn fp_names(config: u64) -> Vec<&'static str> {
    let names = [
        (fp_config::DENORM, "denorms"),
        (fp_config::INF_NAN, "inf-nan"),
        (fp_config::ROUND_TO_NEAREST, "round-to-nearest"),
        (fp_config::ROUND_TO_ZERO, "round-to-zero"),
        (fp_config::ROUND_TO_INF, "round-to-inf"),
        (fp_config::FMA, "fma"),
        (fp_config::SOFT_FLOAT, "soft-float"),
        (
            fp_config::CORRECTLY_ROUNDED_DIVIDE_SQRT,
            "correctly-rounded-divide-sqrt",
        ),
    ];
    names
        .iter()
        .filter(|(bit, _)| config & bit != 0)
        .map(|(_, n)| *n)
        .collect()
}

fn list_or_none(list: &[NameVersion]) -> String {
    if list.is_empty() {
        "(none)".to_string()
    } else {
        names_string(list)
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The text form, readable at a glance.
pub fn text(platform: &Platform) -> String {
    let mut out = String::new();
    out.push_str(&format!("Platform: {}\n", Platform::NAME));
    out.push_str(&format!("  Vendor: {}\n", Platform::VENDOR));
    out.push_str(&format!("  Version: {}\n", platform.version_string()));
    out.push_str(&format!("  Profile: {}\n", Platform::PROFILE));
    out.push_str(&format!(
        "  Extensions: {}\n",
        list_or_none(platform.extensions())
    ));
    for (i, device) in platform.devices().iter().enumerate() {
        device_text(&mut out, i, device);
    }
    out
}

fn device_text(out: &mut String, index: usize, device: &Device) {
    let d = &device.info;
    let lines = [
        ("Type", type_name(d.device_type).to_string()),
        ("Vendor", d.vendor.clone()),
        ("Version", d.version_string()),
        ("OpenCL C version", d.opencl_c_version_string()),
        ("Compute units", d.max_compute_units.to_string()),
        ("Max clock", format!("{} MHz", d.max_clock_frequency)),
        ("Global memory", mib(d.global_mem_size)),
        ("Max allocation", mib(d.max_mem_alloc_size)),
        ("Local memory", mib(d.local_mem_size)),
        ("Max work-group size", d.max_work_group_size.to_string()),
        (
            "Max work-item sizes",
            format!("{:?}", d.max_work_item_sizes),
        ),
        (
            "Compiler available",
            yes_no(d.compiler_available).to_string(),
        ),
        ("Image support", yes_no(d.image_support).to_string()),
        ("Single precision", fp_names(d.single_fp_config).join(", ")),
        (
            "Double precision",
            if d.double_fp_config == 0 {
                "(none)".to_string()
            } else {
                fp_names(d.double_fp_config).join(", ")
            },
        ),
        ("Extensions", list_or_none(d.extensions)),
        ("OpenCL C features", list_or_none(d.opencl_c_features)),
    ];
    out.push_str(&format!("  Device {index}: {}\n", d.name));
    for (name, value) in lines {
        out.push_str(&format!("    {name}: {value}\n"));
    }
}

fn names(list: &[NameVersion]) -> Value {
    Value::Array(
        list.iter()
            .map(|e| {
                let v = e.version;
                Value::Object(vec![
                    ("name".into(), Value::String(e.name.into())),
                    (
                        "version".into(),
                        Value::String(format!("{}.{}.{}", v.major, v.minor, v.patch)),
                    ),
                ])
            })
            .collect(),
    )
}

/// The JSON form, for scripts.
pub fn json(platform: &Platform) -> String {
    let devices = platform
        .devices()
        .iter()
        .map(|device| device_json(device))
        .collect();
    let platform = Value::Object(vec![
        ("name".into(), Value::String(Platform::NAME.into())),
        ("vendor".into(), Value::String(Platform::VENDOR.into())),
        ("version".into(), Value::String(platform.version_string())),
        ("profile".into(), Value::String(Platform::PROFILE.into())),
        ("extensions".into(), names(platform.extensions())),
        ("devices".into(), Value::Array(devices)),
    ]);
    Value::Object(vec![("platform".into(), platform)]).to_pretty()
}

fn device_json(device: &Device) -> Value {
    let d = &device.info;
    let n = |x: u64| Value::Number(x as f64);
    Value::Object(vec![
        ("name".into(), Value::String(d.name.clone())),
        (
            "type".into(),
            Value::String(type_name(d.device_type).into()),
        ),
        ("vendor".into(), Value::String(d.vendor.clone())),
        ("version".into(), Value::String(d.version_string())),
        (
            "opencl_c_version".into(),
            Value::String(d.opencl_c_version_string()),
        ),
        ("max_compute_units".into(), n(d.max_compute_units.into())),
        (
            "max_clock_frequency_mhz".into(),
            n(d.max_clock_frequency.into()),
        ),
        ("global_mem_size".into(), n(d.global_mem_size)),
        ("max_mem_alloc_size".into(), n(d.max_mem_alloc_size)),
        ("local_mem_size".into(), n(d.local_mem_size)),
        (
            "max_work_group_size".into(),
            n(d.max_work_group_size as u64),
        ),
        (
            "max_work_item_sizes".into(),
            Value::Array(d.max_work_item_sizes.iter().map(|&s| n(s as u64)).collect()),
        ),
        (
            "compiler_available".into(),
            Value::Bool(d.compiler_available),
        ),
        ("image_support".into(), Value::Bool(d.image_support)),
        (
            "single_fp_config".into(),
            Value::Array(
                fp_names(d.single_fp_config)
                    .into_iter()
                    .map(|s| Value::String(s.into()))
                    .collect(),
            ),
        ),
        (
            "double_fp_config".into(),
            Value::Array(
                fp_names(d.double_fp_config)
                    .into_iter()
                    .map(|s| Value::String(s.into()))
                    .collect(),
            ),
        ),
        ("extensions".into(), names(d.extensions)),
        (
            "opencl_c_all_versions".into(),
            names(d.opencl_c_all_versions),
        ),
        ("opencl_c_features".into(), names(d.opencl_c_features)),
    ])
}

/// `ferrocl info --all`: every platform the ICD loader sees (ferrocl among them, through the
/// private vendors directory), with the key properties of each device, read through the C API.
pub fn all(json: bool) -> Result<String, crate::Failure> {
    use opencl_sys::*;
    let session = crate::build::Session::open(None)?;
    let api = &session.api;
    let platforms = api
        .platforms()
        .map_err(|e| crate::Failure::Error(e.to_string()))?;
    let mut values = Vec::new();
    for &platform in &platforms {
        let text = |param| Value::String(api.platform_string(platform, param));
        let mut devices = Vec::new();
        for device in api.devices(platform).unwrap_or_default() {
            let number = |param| {
                api.device_u64(device, param)
                    .map_or(Value::Null, |v| Value::Number(v as f64))
            };
            let device_type = api.device_u64(device, CL_DEVICE_TYPE).unwrap_or(0);
            let type_name = [
                (CL_DEVICE_TYPE_CPU, "CPU"),
                (CL_DEVICE_TYPE_GPU, "GPU"),
                (CL_DEVICE_TYPE_ACCELERATOR, "Accelerator"),
                (CL_DEVICE_TYPE_CUSTOM, "Custom"),
            ]
            .iter()
            .find(|(bit, _)| device_type & bit != 0)
            .map_or("unknown", |(_, n)| n);
            devices.push(Value::Object(vec![
                (
                    "name".into(),
                    Value::String(api.device_string(device, CL_DEVICE_NAME)),
                ),
                ("type".into(), Value::String(type_name.into())),
                (
                    "vendor".into(),
                    Value::String(api.device_string(device, CL_DEVICE_VENDOR)),
                ),
                (
                    "version".into(),
                    Value::String(api.device_string(device, CL_DEVICE_VERSION)),
                ),
                (
                    "opencl_c_version".into(),
                    Value::String(api.device_string(device, CL_DEVICE_OPENCL_C_VERSION)),
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
                    "compiler_available".into(),
                    Value::Bool(
                        api.device_u64(device, CL_DEVICE_COMPILER_AVAILABLE)
                            .unwrap_or(0)
                            != 0,
                    ),
                ),
                (
                    "extensions".into(),
                    Value::String(api.device_string(device, CL_DEVICE_EXTENSIONS)),
                ),
            ]));
        }
        values.push(Value::Object(vec![
            ("name".into(), text(CL_PLATFORM_NAME)),
            ("vendor".into(), text(CL_PLATFORM_VENDOR)),
            ("version".into(), text(CL_PLATFORM_VERSION)),
            ("profile".into(), text(CL_PLATFORM_PROFILE)),
            ("devices".into(), Value::Array(devices)),
        ]));
    }
    if json {
        return Ok(Value::Object(vec![("platforms".into(), Value::Array(values))]).to_pretty());
    }
    let mut out = String::new();
    if let Some(note) = &session.note {
        out.push_str(&format!("(ferrocl is not listed: {note})\n"));
    }
    let field = |v: &Value, key: &str| match v.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => format!("{n}"),
        Some(Value::Bool(b)) => yes_no(*b).to_string(),
        _ => "?".to_string(),
    };
    let bytes = |v: &Value, key: &str| {
        v.get(key)
            .and_then(Value::as_f64)
            .map_or("?".to_string(), |n| mib(n as u64))
    };
    for platform in &values {
        out.push_str(&format!("Platform: {}\n", field(platform, "name")));
        out.push_str(&format!("  Vendor: {}\n", field(platform, "vendor")));
        out.push_str(&format!("  Version: {}\n", field(platform, "version")));
        out.push_str(&format!("  Profile: {}\n", field(platform, "profile")));
        for (i, device) in platform
            .get("devices")
            .and_then(Value::as_array)
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            out.push_str(&format!("  Device {i}: {}\n", field(device, "name")));
            for (label, key) in [
                ("Type", "type"),
                ("Vendor", "vendor"),
                ("Version", "version"),
                ("OpenCL C version", "opencl_c_version"),
                ("Compute units", "max_compute_units"),
            ] {
                out.push_str(&format!("    {label}: {}\n", field(device, key)));
            }
            out.push_str(&format!(
                "    Max clock: {} MHz\n",
                field(device, "max_clock_frequency_mhz")
            ));
            out.push_str(&format!(
                "    Global memory: {}\n",
                bytes(device, "global_mem_size")
            ));
            out.push_str(&format!(
                "    Max allocation: {}\n",
                bytes(device, "max_mem_alloc_size")
            ));
            out.push_str(&format!(
                "    Local memory: {}\n",
                bytes(device, "local_mem_size")
            ));
            out.push_str(&format!(
                "    Max work-group size: {}\n",
                field(device, "max_work_group_size")
            ));
            out.push_str(&format!(
                "    Compiler available: {}\n",
                field(device, "compiler_available")
            ));
            out.push_str(&format!(
                "    Extensions: {}\n",
                field(device, "extensions").trim()
            ));
        }
    }
    Ok(out)
}
