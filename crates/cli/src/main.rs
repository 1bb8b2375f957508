//! `ferrocl`: the command line of the ferrocl OpenCL implementation.

mod bench;
mod build;
mod cl;
mod icd;
mod info;
mod json;
mod run;
mod values;

use std::process::ExitCode;

const USAGE: &str = "\
usage: ferrocl <command> [options]

commands:
  info [--all] [--json]
      the ferrocl platform and its devices, with their properties, extensions and features;
      with --all, every platform the ICD loader sees, ferrocl among them, through the C API
  install-icd [--user|--system|--dir DIR] [--library PATH]
      write ferrocl.icd naming libferrocl.so, so an ICD loader finds it (default --user)
  uninstall-icd [--user|--system|--dir DIR]
      remove that file
  build FILE.cl [-D NAME[=VALUE]] [-I DIR] [--cl-std VERSION] [--options TEXT]
                [--emit ir|wg|clif|asm|ptx] [-o FILE] [--platform NAME] [--device N]
      compile; print the build log; exit 1 when the build fails. FILE.ir (ferrocl's IR as
      text) and FILE.bin (a program binary) build as binaries, without a compiler; so does
      `run` with them. --emit wg prints the CPU device's work-group functions, --emit ptx a
      GPU device's PTX
  run FILE.cl --kernel NAME --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--offset X[,Y[,Z]]] --arg SPEC...
              [--print ARG]... [--output ARG=FILE]... [--repeat N] [build options]
      run one kernel; SPEC is one of
        int:5  uint:7  float:2.5  double:1e-3  long:-1  char: uchar: short: ushort: ulong:
        float4:1,2,3,4         a vector (one value fills every lane)
        float[1024]            a buffer of 1024 floats, zeroed
        float[1024]=rand       ... filled with =rand (floats in [0, 1), integers in
                               [0, 1024)), =iota (0, 1, 2, ...) or =VALUE
        int[3]=5,-1,7          ... with one value per element
        {int:7,float4:1,float:2}  a struct by value, its fields in order (C layout)
        @in.bin                a buffer holding the file's bytes
        in.npy                 a buffer holding the .npy array
        local:BYTES            a __local buffer of that size
      ARG is an argument's name or index; --output writes .npy when FILE ends in .npy;
      --repeat runs the kernel N times over the same buffers;
      short forms: -k -g -l -a -p -o
  bench [--platform NAME]... [--device N] [--filter TEXT]... [--json]
        [--quick|--stream|--large] [--local N] [--scalar]
      the benchmark suite on each platform named (default: ferrocl and every other one);
      --stream gives copy, saxpy, stencil-2d and triad arrays of 4 times the last-level cache;
      --large gives every kernel row sizes for milliseconds of a large GPU (arrays up to
      1 GiB, no buffer over the devices' max allocation; slow on a CPU);
      --local N runs the rows that leave the local size to the device in groups of N along x;
      --scalar adds a column of ferrocl with its vectorizer off (its ratio: what vectorizing
      gains)
  help             this text
  version          ferrocl's version

--platform NAME picks the platform whose name (or else vendor) contains NAME, ignoring case
(default ferrocl; \"pocl\" finds Portable Computing Language);
--device N picks the platform's device of index N (default 0);
--library PATH names the libferrocl.so to use (default: the one beside this executable).
";

/// Why a command did not succeed.
#[derive(Debug)]
pub enum Failure {
    /// The command line is wrong: exit status 2, with the usage.
    Usage(String),
    /// The command ran and failed: exit status 1.
    Error(String),
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(Failure::Usage(message)) => {
            eprintln!("ferrocl: {message}");
            eprintln!("(ferrocl help: the commands and their options)");
            ExitCode::from(2)
        }
        Err(Failure::Error(message)) => {
            eprintln!("ferrocl: {message}");
            ExitCode::from(1)
        }
    }
}

/// Runs one command line; the output to print, or why it failed.
fn run(args: &[String]) -> Result<String, Failure> {
    let Some((command, rest)) = args.split_first() else {
        return Err(Failure::Usage("no command given".to_string()));
    };
    match command.as_str() {
        "info" => {
            let mut json = false;
            let mut all = false;
            for arg in rest {
                match arg.as_str() {
                    "--json" => json = true,
                    "--all" => all = true,
                    other => return Err(Failure::Usage(format!("info: unknown option '{other}'"))),
                }
            }
            info::command(json, all)
        }
        "install-icd" => icd::install(rest),
        "uninstall-icd" => icd::uninstall(rest),
        "build" => build::command(rest),
        "run" => run::command(rest),
        "bench" => bench::command(rest),
        "help" | "--help" | "-h" => Ok(USAGE.to_string()),
        "version" | "--version" | "-V" => Ok(format!("ferrocl {}\n", env!("CARGO_PKG_VERSION"))),
        other => Err(Failure::Usage(format!("unknown command '{other}'"))),
    }
}

#[cfg(test)]
mod tests {
    use super::Failure;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn run(args: &[String]) -> Result<String, String> {
        super::run(args).map_err(|e| match e {
            Failure::Usage(m) => m,
            Failure::Error(m) => format!("error: {m}"),
        })
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
