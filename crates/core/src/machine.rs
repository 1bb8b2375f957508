//! Facts of the host machine, read from the OS: usable cores, memory, caches, the CPU's name
//! and vendor and its clock. The CPU device reports these in its queries.

use std::fs;

/// What the CPU device needs to know of the machine.
#[derive(Clone, Debug)]
pub struct Machine {
    pub cores: u32,
    pub memory_bytes: u64,
    pub cpu_name: String,
    pub cpu_vendor: String,
    /// The PCIe vendor ID of the CPU's maker where one is known (Intel 0x8086, AMD 0x1022).
    pub vendor_id: u32,
    pub max_clock_mhz: u32,
    /// Size in bytes of the largest data cache, and its line size.
    pub cache_bytes: u64,
    pub cache_line_bytes: u32,
}

impl Machine {
    pub fn probe() -> Machine {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
        let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |key: &str| {
            cpuinfo.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                (k.trim() == key).then(|| v.trim().to_string())
            })
        };
        let cpu_name = field("model name").unwrap_or_else(|| std::env::consts::ARCH.to_string());
        // The processor's own vendor identification, as other CPU implementations report it:
        // clients take the bare "AMD" and "Intel" for those vendors' GPU drivers.
        let cpu_vendor = cpuid_vendor()
            .or_else(|| field("vendor_id"))
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "unknown".to_string());
        let vendor_id = match cpu_vendor.as_str() {
            "GenuineIntel" => 0x8086,
            "AuthenticAMD" => 0x1022,
            _ => 0,
        };
        let max_clock_mhz = read_trimmed("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
            .and_then(|khz| khz.parse::<u64>().ok())
            .map(|khz| (khz / 1000) as u32)
            .or_else(|| {
                field("cpu MHz")
                    .and_then(|m| m.parse::<f64>().ok())
                    .map(|m| m as u32)
            })
            .unwrap_or(0);
        let (cache_bytes, cache_line_bytes) = ferrocl_device::largest_data_cache();
        Machine {
            cores,
            memory_bytes: memory_bytes(),
            cpu_name,
            cpu_vendor,
            vendor_id,
            max_clock_mhz,
            cache_bytes,
            cache_line_bytes,
        }
    }
}

/// The vendor identification string of CPUID leaf 0 (`GenuineIntel`, `AuthenticAMD`, ...):
/// the twelve bytes of EBX, EDX, ECX.
#[cfg(target_arch = "x86_64")]
fn cpuid_vendor() -> Option<String> {
    let leaf = std::arch::x86_64::__cpuid(0);
    let bytes: Vec<u8> = [leaf.ebx, leaf.edx, leaf.ecx]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    String::from_utf8(bytes)
        .ok()
        .map(|s| s.trim_end_matches('\0').trim().to_string())
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid_vendor() -> Option<String> {
    None
}

fn read_trimmed(path: &str) -> Option<String> {
    fs::read_to_string(path).ok().map(|s| s.trim().to_string())
}

/// Physical memory, lowered to a cgroup memory limit where one is set.
fn memory_bytes() -> u64 {
    let total = fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines().find_map(|l| {
                let rest = l.strip_prefix("MemTotal:")?;
                let kb = rest
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()?;
                Some(kb * 1024)
            })
        })
        .unwrap_or(1 << 30);
    let cgroup = read_trimmed("/sys/fs/cgroup/memory.max").and_then(|v| v.parse::<u64>().ok());
    match cgroup {
        Some(limit) if limit < total => limit,
        _ => total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_is_plausible() {
        let m = Machine::probe();
        assert!(m.cores >= 1);
        assert!(m.memory_bytes >= 64 << 20);
        assert!(!m.cpu_name.is_empty());
        assert!(!m.cpu_vendor.is_empty());
    }

    /// The vendor is CPUID's identification string, the one the kernel reports too.
    #[test]
    fn vendor_is_the_processors_identification() {
        let m = Machine::probe();
        let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let reported = cpuinfo.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == "vendor_id").then(|| v.trim().to_string())
        });
        if let Some(reported) = reported {
            assert_eq!(m.cpu_vendor, reported);
        }
        assert_ne!(m.cpu_vendor, "AMD");
        assert_ne!(m.cpu_vendor, "Intel");
    }
}
