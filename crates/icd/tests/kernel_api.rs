//! Kernels through the real ICD loader: `kernel/kernel_api.c` runs the kernels of
//! `kernel/kernels.ir`, which this harness serializes into a ferrocl program binary, on the
//! freshly built `libferrocl.so`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("deps directory");
    [
        deps.join("libferrocl.so"),
        deps.parent().unwrap_or(deps).join("libferrocl.so"),
    ]
    .into_iter()
    .find(|p| p.is_file())
    .expect("cargo builds libferrocl.so beside the test binary")
    .canonicalize()
    .expect("absolute library path")
}

#[test]
fn kernels_from_program_binaries() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernel");
    let tmp =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("kernel_api-{}", std::process::id()));
    std::fs::create_dir_all(tmp.join("vendors")).unwrap();

    let text = std::fs::read_to_string(dir.join("kernels.ir")).unwrap();
    let module = ferrocl_ir::parse_module(&text).unwrap_or_else(|e| panic!("kernels.ir: {e:?}"));
    ferrocl_ir::verify_module(&module).unwrap_or_else(|e| panic!("kernels.ir: {e:?}"));
    let binary = tmp.join("kernels.bin");
    std::fs::write(&binary, ferrocl_ir::serialize::serialize(&module)).unwrap();

    let lib = library();
    std::fs::write(
        tmp.join("vendors/ferrocl.icd"),
        format!("{}\n", lib.display()),
    )
    .unwrap();
    let exe = tmp.join("kernel_api");
    let gcc = Command::new("gcc")
        .args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O1",
            "-DCL_TARGET_OPENCL_VERSION=300",
            "-o",
        ])
        .arg(&exe)
        .arg(dir.join("kernel_api.c"))
        .args(["-lOpenCL"])
        .output()
        .expect("gcc (apt-get install gcc ocl-icd-opencl-dev opencl-headers)");
    assert!(
        gcc.status.success(),
        "gcc failed:\n{}",
        String::from_utf8_lossy(&gcc.stderr)
    );
    let run = Command::new(&exe)
        .arg(&binary)
        .env("OCL_ICD_VENDORS", tmp.join("vendors"))
        .env("OCL_ICD_FILENAMES", &lib)
        .output()
        .expect("run kernel_api");
    assert!(
        run.status.success(),
        "kernel_api failed ({}):\n{}{}",
        run.status,
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}
