//! Where the loader finds libferrocl.so: `ferrocl install-icd` / `uninstall-icd` (an `.icd` file
//! in a vendors directory), and the private vendors directory that `run`, `build` and `bench`
//! set up so that the loader sees ferrocl beside the system's platforms without installing
//! anything.

use std::fs;
use std::path::{Path, PathBuf};

/// The name of the `.icd` file ferrocl installs.
pub const ICD_NAME: &str = "ferrocl.icd";

/// The directory Debian's ocl-icd and the Khronos loader read by default.
pub const SYSTEM_VENDORS: &str = "/etc/OpenCL/vendors";

/// The libferrocl.so to name: the one given, or the one beside this executable (cargo writes
/// both to `target/<profile>/`; a dependency's cdylib lands in `deps/` under it).
pub fn library(explicit: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(path) = explicit {
        return path
            .canonicalize()
            .map_err(|e| format!("--library {}: {e}", path.display()));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    let candidates = [
        dir.join("libferrocl.so"),
        dir.join("deps").join("libferrocl.so"),
    ];
    // Both may exist, from different builds: the newer one is the library of this build.
    let modified = |p: &PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    candidates
        .iter()
        .filter(|c| c.is_file())
        .max_by_key(|c| modified(c))
        .and_then(|c| c.canonicalize().ok())
        .ok_or_else(|| {
            format!(
                "libferrocl.so is not beside {} (build it with `cargo build -p ferrocl-icd`, or \
                 name it with --library PATH)",
                exe.display()
            )
        })
}

/// The user's vendors directory: `$XDG_DATA_HOME/OpenCL/vendors`, else
/// `~/.local/share/OpenCL/vendors`.
pub fn user_vendors() -> Result<PathBuf, String> {
    if let Some(data) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(data).join("OpenCL").join("vendors"));
    }
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .ok_or("neither XDG_DATA_HOME nor HOME is set")?;
    Ok(PathBuf::from(home).join(".local/share/OpenCL/vendors"))
}

/// Where install-icd and uninstall-icd write: `--system`, `--user` (the default) or `--dir DIR`.
fn vendors_dir(args: &[String], command: &str) -> Result<(PathBuf, bool, Option<PathBuf>), String> {
    let mut dir = None;
    let mut system = false;
    let mut library = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--system" => {
                dir = Some(PathBuf::from(SYSTEM_VENDORS));
                system = true;
            }
            "--user" => {
                dir = Some(user_vendors()?);
                system = false;
            }
            "--dir" | "--library" => {
                let Some(value) = args.get(i + 1) else {
                    return Err(format!("{command}: {} needs a path", args[i]));
                };
                if args[i] == "--dir" {
                    dir = Some(PathBuf::from(value));
                } else {
                    library = Some(PathBuf::from(value));
                }
                i += 1;
            }
            other => return Err(format!("{command}: unknown option '{other}'")),
        }
        i += 1;
    }
    let dir = match dir {
        Some(dir) => dir,
        None => user_vendors()?,
    };
    Ok((dir, system, library))
}

/// `ferrocl install-icd`: writes `ferrocl.icd` naming the library, and says how a loader finds
/// it.
pub fn install(args: &[String]) -> Result<String, crate::Failure> {
    let (dir, system, library) = vendors_dir(args, "install-icd").map_err(crate::Failure::Usage)?;
    let library = self::library(library.as_deref()).map_err(crate::Failure::Error)?;
    fs::create_dir_all(&dir)
        .map_err(|e| crate::Failure::Error(format!("cannot create {}: {e}", dir.display())))?;
    let file = dir.join(ICD_NAME);
    // cl_khr_icd: an .icd file holds the library's name or path, on one line.
    fs::write(&file, format!("{}\n", library.display()))
        .map_err(|e| crate::Failure::Error(format!("cannot write {}: {e}", file.display())))?;
    let mut out = format!("wrote {} naming {}\n", file.display(), library.display());
    if system {
        out.push_str(
            "Every ICD loader reads /etc/OpenCL/vendors: `clinfo -l` should list ferrocl.\n",
        );
    } else {
        out.push_str(&format!(
            "Debian's ocl-icd reads only /etc/OpenCL/vendors and OCL_ICD_VENDORS; to use this file:\n  \
             export OCL_ICD_VENDORS={}\n\
             (that directory then replaces /etc/OpenCL/vendors; copy the system's .icd files \
             into it to keep them)\n\
             The Khronos loader also takes the library itself:\n  \
             export OCL_ICD_FILENAMES={}\n",
            vendors_value(&dir).to_string_lossy(),
            library.display()
        ));
    }
    Ok(out)
}

/// `ferrocl uninstall-icd`: removes the `ferrocl.icd` that install-icd wrote.
pub fn uninstall(args: &[String]) -> Result<String, crate::Failure> {
    let (dir, _, _) = vendors_dir(args, "uninstall-icd").map_err(crate::Failure::Usage)?;
    let file = dir.join(ICD_NAME);
    match fs::read_to_string(&file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(format!(
            "{} does not exist; nothing to do\n",
            file.display()
        )),
        Err(e) => Err(crate::Failure::Error(format!(
            "cannot read {}: {e}",
            file.display()
        ))),
        Ok(text) if !text.contains("libferrocl") => Err(crate::Failure::Error(format!(
            "{} does not name libferrocl.so; left alone",
            file.display()
        ))),
        Ok(_) => {
            fs::remove_file(&file).map_err(|e| {
                crate::Failure::Error(format!("cannot remove {}: {e}", file.display()))
            })?;
            Ok(format!("removed {}\n", file.display()))
        }
    }
}

/// A private vendors directory for this process: the `.icd` files the loader would have read
/// (`OCL_ICD_VENDORS`, else /etc/OpenCL/vendors) plus one for ferrocl, named in
/// `OCL_ICD_VENDORS` so the loader sees every platform. Removed on drop.
pub struct PrivateVendors {
    dir: PathBuf,
}

impl Drop for PrivateVendors {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Sets up the private vendors directory; call before the loader is opened (it reads the
/// directory once, on the first clGetPlatformIDs). Without a libferrocl.so it changes nothing
/// and says why in the returned note.
pub fn private_vendors(library: Option<&Path>) -> (Option<PrivateVendors>, Option<String>) {
    let library = match self::library(library) {
        Ok(library) => library,
        Err(e) => return (None, Some(e)),
    };
    let source = std::env::var_os("OCL_ICD_VENDORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(SYSTEM_VENDORS));
    let mut icds = Vec::new();
    if source.is_dir() {
        if let Ok(entries) = fs::read_dir(&source) {
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "icd") {
                    icds.push(path);
                }
            }
        }
    } else if source.is_file() {
        icds.push(source.clone());
    }
    let dir = std::env::temp_dir().join(format!("ferrocl-vendors-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    if let Err(e) = fs::create_dir_all(&dir) {
        return (None, Some(format!("cannot create {}: {e}", dir.display())));
    }
    let guard = PrivateVendors { dir: dir.clone() };
    for icd in &icds {
        let Ok(text) = fs::read_to_string(icd) else {
            continue;
        };
        // An installed ferrocl.icd (perhaps of another build) would list the platform twice.
        if text.contains("libferrocl") {
            continue;
        }
        let name = icd.file_name().unwrap_or_default();
        let _ = fs::write(dir.join(name), text);
    }
    let _ = fs::write(dir.join(ICD_NAME), format!("{}\n", library.display()));
    std::env::set_var("OCL_ICD_VENDORS", vendors_value(&dir));
    (Some(guard), None)
}

/// `OCL_ICD_VENDORS` naming the directory `dir`: with a trailing `/`, since the Khronos loader
/// joins the variable and each file's name without a separator (as it does with its default,
/// "/etc/OpenCL/vendors/"); ocl-icd takes either form.
fn vendors_value(dir: &Path) -> std::ffi::OsString {
    let mut value = dir.as_os_str().to_os_string();
    if !value.as_encoded_bytes().ends_with(b"/") {
        value.push("/");
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vendors_directory_joins_with_a_file_name_as_the_khronos_loader_joins_them() {
        let dir = std::env::temp_dir().join(format!("ferrocl-vendors-test-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("a folder");
        fs::write(dir.join(ICD_NAME), "libferrocl.so\n").expect("write");
        for named in [dir.clone(), PathBuf::from(format!("{}/", dir.display()))] {
            // The Khronos loader's path of each .icd file: the variable, then the name.
            let mut joined = vendors_value(&named);
            joined.push(ICD_NAME);
            assert!(Path::new(&joined).is_file(), "{}", joined.to_string_lossy());
        }
        let _ = fs::remove_dir_all(&dir);
    }
}
