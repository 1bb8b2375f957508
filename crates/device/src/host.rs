//! Facts of the host the runtime and the CPU device both read.

/// The largest data or unified cache of CPU 0 and its line size, from sysfs (read once per
/// process): what `CL_DEVICE_GLOBAL_MEM_CACHE_SIZE` reports of a CPU device, and what the CPU
/// device's launches weigh the bytes they write against.
pub fn largest_data_cache() -> (u64, u32) {
    static CACHE: std::sync::OnceLock<(u64, u32)> = std::sync::OnceLock::new();
    *CACHE.get_or_init(read_largest_data_cache)
}

fn read_largest_data_cache() -> (u64, u32) {
    let mut best = (0u64, 64u32);
    for index in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{index}");
        let Some(kind) = read_trimmed(&format!("{dir}/type")) else {
            break;
        };
        if kind == "Instruction" {
            continue;
        }
        let size = read_trimmed(&format!("{dir}/size"))
            .and_then(|s| parse_size(&s))
            .unwrap_or(0);
        let line = read_trimmed(&format!("{dir}/coherency_line_size"))
            .and_then(|s| s.parse().ok())
            .unwrap_or(64);
        if size > best.0 {
            best = (size, line);
        }
    }
    best
}

/// Parses sysfs sizes such as `32K`, `1024K`, `8M`.
fn parse_size(s: &str) -> Option<u64> {
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => s.split_at(i),
        None => (s, ""),
    };
    let n: u64 = digits.parse().ok()?;
    match unit {
        "" => Some(n),
        "K" => Some(n << 10),
        "M" => Some(n << 20),
        "G" => Some(n << 30),
        _ => None,
    }
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("32K"), Some(32 << 10));
        assert_eq!(parse_size("8M"), Some(8 << 20));
        assert_eq!(parse_size("100"), Some(100));
        assert_eq!(parse_size("3X"), None);
    }
}
