//! `ferrocl`: the command line of the ferrocl OpenCL implementation.

mod info;
mod json;

use std::process::ExitCode;

const USAGE: &str = "\
usage: ferrocl <command> [options]

commands:
  info [--json]    the platform and its devices, with their properties, extensions and features
  help             this text
  version          ferrocl's version
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("ferrocl: {message}");
            eprint!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Runs one command line; the output to print, or the message of a usage error.
fn run(args: &[String]) -> Result<String, String> {
    let Some((command, rest)) = args.split_first() else {
        return Err("no command given".to_string());
    };
    match command.as_str() {
        "info" => {
            let mut json = false;
            for arg in rest {
                match arg.as_str() {
                    "--json" => json = true,
                    other => return Err(format!("info: unknown option '{other}'")),
                }
            }
            let platform = ferrocl_core::Platform::get();
            Ok(if json {
                info::json(platform)
            } else {
                info::text(platform)
            })
        }
        "help" | "--help" | "-h" => Ok(USAGE.to_string()),
        "version" | "--version" | "-V" => Ok(format!("ferrocl {}\n", env!("CARGO_PKG_VERSION"))),
        other => Err(format!("unknown command '{other}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::run;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn usage_errors() {
        assert_eq!(run(&[]).unwrap_err(), "no command given");
        assert_eq!(
            run(&args(&["frobnicate"])).unwrap_err(),
            "unknown command 'frobnicate'"
        );
        assert_eq!(
            run(&args(&["info", "--xml"])).unwrap_err(),
            "info: unknown option '--xml'"
        );
    }

    #[test]
    fn info_text_names_the_platform_and_device() {
        let out = run(&args(&["info"])).unwrap();
        assert!(out.starts_with("Platform: ferrocl\n"), "{out}");
        assert!(out.contains("  Device 0: "), "{out}");
        assert!(out.contains("    Type: CPU\n"), "{out}");
        assert!(out.contains("    Version: OpenCL 3.0 ferrocl"), "{out}");
    }

    #[test]
    fn info_json_is_well_formed() {
        let out = run(&args(&["info", "--json"])).unwrap();
        let value = crate::json::parse(&out).expect("valid JSON");
        let platform = value.get("platform").expect("platform");
        assert_eq!(
            platform.get("name").and_then(|n| n.as_str()),
            Some("ferrocl")
        );
        let devices = platform
            .get("devices")
            .and_then(|d| d.as_array())
            .expect("devices");
        assert_eq!(devices.len(), 1);
        assert_eq!(devices[0].get("type").and_then(|t| t.as_str()), Some("CPU"));
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        assert_eq!(
            devices[0].get("max_compute_units").and_then(|n| n.as_f64()),
            Some(cores)
        );
    }
}
