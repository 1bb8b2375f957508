//! The on-disk program cache: what `clBuildProgram` makes of OpenCL C source, kept between
//! runs so that a program building the same source with the same options on the same device
//! skips the compiler.
//!
//! **What is cached.** Two kinds of entries. A *program* entry holds the build driver's result
//! for one device (`ferrocl_clc::build`): the compiled object (what `CL_PROGRAM_BINARIES`
//! returns), the executable module (builtin library linked, passes run), the build log and
//! whether launches need uniform work-groups; only `clBuildProgram` of source makes them, and
//! only builds that succeed. A *code* entry holds what a device compiled from an executable
//! module (`DeviceProgram::serialize`: the CPU device's machine code with its relocations),
//! for every build that gives the device a module, from source, binary or link, unless the
//! device keeps no code or the build records its stages' text (`-cl-ferrocl-listing`).
//!
//! **The keys.** Everything the result depends on, behind the entry's kind and ferrocl's
//! version with its build id (`FERROCL_BUILD_ID`, a hash of the compiler's, the runtime's and
//! the CPU device's sources written by `build.rs`). A program: the source text, the build
//! options string as given, the device's name and its compiler target (`ferrocl_clc::Target`,
//! every field). Code: the device's name, its code key (`DeviceBackend::code_key`: for the
//! CPU, the host's instruction set features and the settings read from the environment), the
//! device compile options and the executable module itself, serialized. The entry's file name
//! is a hash of the key; the entry holds the whole key, compared byte for byte on reading, so
//! two keys of one hash never share an entry.
//!
//! **Where.** `$XDG_CACHE_HOME/ferrocl`, else `$HOME/.cache/ferrocl`; `FERROCL_CACHE=0` turns
//! the cache off.
//!
//! **Many processes.** An entry is written to a temporary file in the same folder and renamed
//! to its name, which replaces a file atomically: a reader sees a whole entry or none. An
//! entry whose length, checksum, key or modules do not read back is ignored (and replaced by
//! the next store). Past [`MAX_BYTES`] of entries the least recently used go (a hit touches its
//! entry's modification time). The folder's total is kept in a file of its own (`size`),
//! which each store adds its entry to, so that a store reads one small file instead of every
//! entry's metadata (a folder of 4,000 entries took 15 ms a store to scan); the folder is
//! scanned, and the total written exactly, only when the total passes the bound, when the
//! file is missing, and every [`RESCAN_STORES`] stores of a process (the file's updates by
//! processes storing at once may lose one another's additions).

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use ferrocl_device::CompileOptions;
use ferrocl_ir::Module;

/// The cache's size bound: past it, the least recently used entries are removed.
pub const MAX_BYTES: u64 = 256 << 20;

/// The stores of a process between scans of the folder that correct its recorded total.
const RESCAN_STORES: u64 = 256;

/// The file holding the folder's total bytes of entries, as decimal text.
const SIZE_FILE: &str = "size";

/// The first bytes of an entry file.
const MAGIC: [u8; 8] = *b"FRCLPCE\0";
/// The entry layout's version; a change of layout changes it.
const FORMAT: u32 = 2;
/// Magic, format, payload length, payload checksum.
const HEADER: usize = 8 + 4 + 8 + 8;
/// Entry files end in this; temporary ones in `.tmp`.
const EXTENSION: &str = "entry";
/// A temporary file this old was left by a process that died while writing it.
const STALE_TEMPORARY: Duration = Duration::from_secs(3600);

/// ferrocl's version and build: part of every key.
const BUILD: &str = concat!(env!("CARGO_PKG_VERSION"), "+", env!("FERROCL_BUILD_ID"));

/// What happened to the lookups and stores of one kind of entry.
struct Counters {
    hits: AtomicU64,
    misses: AtomicU64,
    stores: AtomicU64,
}

impl Counters {
    const fn new() -> Counters {
        Counters {
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            stores: AtomicU64::new(0),
        }
    }
}

static PROGRAMS: Counters = Counters::new();
static CODE: Counters = Counters::new();

/// What the cache did in this process, counted since it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Builds answered from the cache.
    pub hits: u64,
    /// Lookups that found no usable entry (none, another key's, or a damaged one).
    pub misses: u64,
    /// Entries written.
    pub stores: u64,
    /// Device compiles answered from the cache (code entries the device loaded).
    pub code_hits: u64,
    /// Code lookups that found no entry the device could load.
    pub code_misses: u64,
    /// Code entries written.
    pub code_stores: u64,
}

/// This process's counts.
pub fn stats() -> Stats {
    Stats {
        hits: PROGRAMS.hits.load(Ordering::Relaxed),
        misses: PROGRAMS.misses.load(Ordering::Relaxed),
        stores: PROGRAMS.stores.load(Ordering::Relaxed),
        code_hits: CODE.hits.load(Ordering::Relaxed),
        code_misses: CODE.misses.load(Ordering::Relaxed),
        code_stores: CODE.stores.load(Ordering::Relaxed),
    }
}

/// The key of one build or device compile: its kind, then every input its result depends
/// on, as bytes.
pub struct Key {
    bytes: Vec<u8>,
}

impl Key {
    /// The key of building `source` with `options` for the device named `device` whose
    /// compiler target is `target`.
    pub fn new(source: &str, options: &str, device: &str, target: &ferrocl_clc::Target) -> Key {
        let mut bytes = Vec::with_capacity(source.len() + options.len() + 1024);
        for part in [
            "program",
            BUILD,
            device,
            &format!("{target:?}"),
            options,
            source,
        ] {
            put_bytes(&mut bytes, part.as_bytes());
        }
        Key { bytes }
    }

    /// The key of the code the device named `device`, whose code key is `code_key`
    /// (`DeviceBackend::code_key`), compiles with `options` from the module that `module` is
    /// the serialized form of.
    pub fn code(device: &str, code_key: &[u8], options: &CompileOptions, module: &[u8]) -> Key {
        let mut bytes = Vec::with_capacity(module.len() + code_key.len() + 1024);
        let options = format!("{options:?}");
        let parts: [&[u8]; 6] = [
            b"device code",
            BUILD.as_bytes(),
            device.as_bytes(),
            code_key,
            options.as_bytes(),
            module,
        ];
        for part in parts {
            put_bytes(&mut bytes, part);
        }
        Key { bytes }
    }

    /// The entry's file name.
    fn file_name(&self) -> String {
        format!("{:016x}.{EXTENSION}", checksum(&self.bytes))
    }
}

/// A cached build: what `ferrocl_clc::build` returned.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The compiled object.
    pub object: Module,
    /// The executable module.
    pub executable: Module,
    /// The executable module as `ferrocl_ir::serialize` writes it: what the entry holds, and
    /// what the key of the code a device compiles from it holds ([`Key::code`]).
    pub executable_bytes: Vec<u8>,
    /// The build log.
    pub log: String,
    pub uniform_work_groups: bool,
}

/// A cache folder.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    max_bytes: u64,
}

impl Cache {
    /// The cache in `dir`, bounded to `max_bytes` of entries.
    pub fn at(dir: impl Into<PathBuf>, max_bytes: u64) -> Cache {
        Cache {
            dir: dir.into(),
            max_bytes,
        }
    }

    /// The user's cache, unless `FERROCL_CACHE=0` turns it off or there is no folder for it
    /// (neither `XDG_CACHE_HOME` nor `HOME` is set to an absolute path).
    pub fn from_env() -> Option<Cache> {
        if std::env::var_os("FERROCL_CACHE").is_some_and(|v| v == "0") {
            return None;
        }
        let absolute = |var: &str| {
            std::env::var_os(var)
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
        };
        let base =
            absolute("XDG_CACHE_HOME").or_else(|| absolute("HOME").map(|h| h.join(".cache")))?;
        Some(Cache::at(base.join("ferrocl"), MAX_BYTES))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The program entry of `key`, when there is a whole one; a hit marks it as just used.
    pub fn load(&self, key: &Key) -> Option<Entry> {
        self.read(key, &PROGRAMS, decode)
    }

    /// Writes the program entry of `key` (replacing any there), then keeps the folder within
    /// its bound. Failures (a read-only or full disk) leave the cache as it was: it is only a
    /// cache.
    pub fn store(&self, key: &Key, entry: &Entry) {
        self.keep(key, &PROGRAMS, encode(key, entry));
    }

    /// What `load` makes of the code entry of `key` (a device's program, from the bytes it
    /// serialized), when there is a whole entry and `load` accepts it; a hit marks the entry
    /// as just used.
    pub fn load_code<T>(&self, key: &Key, load: impl FnOnce(&[u8]) -> Option<T>) -> Option<T> {
        self.read(key, &CODE, |bytes, key| {
            let mut fields = payload(bytes, key)?;
            let code = fields.field()?;
            if !fields.rest.is_empty() {
                return None;
            }
            load(code)
        })
    }

    /// Writes the code entry of `key`: `code`, the bytes a device serialized its program to.
    pub fn store_code(&self, key: &Key, code: &[u8]) {
        let mut fields = Vec::with_capacity(code.len() + 8);
        put_bytes(&mut fields, code);
        self.keep(key, &CODE, entry_bytes(key, &fields));
    }

    /// Reads the entry of `key` and decodes it, counting a hit or a miss.
    fn read<T>(
        &self,
        key: &Key,
        counters: &Counters,
        decode: impl FnOnce(&[u8], &Key) -> Option<T>,
    ) -> Option<T> {
        let path = self.dir.join(key.file_name());
        let got = fs::read(&path).ok().and_then(|bytes| decode(&bytes, key));
        match &got {
            Some(_) => {
                counters.hits.fetch_add(1, Ordering::Relaxed);
                if let Ok(file) = fs::File::open(&path) {
                    let _ = file.set_modified(SystemTime::now());
                }
            }
            None => {
                counters.misses.fetch_add(1, Ordering::Relaxed);
            }
        }
        got
    }

    /// Writes an entry's bytes under `key`'s name, then keeps the folder within its bound.
    fn keep(&self, key: &Key, counters: &Counters, bytes: Vec<u8>) {
        if self.write_file(&key.file_name(), &bytes).is_ok() {
            let n = counters.stores.fetch_add(1, Ordering::Relaxed) + 1;
            let recorded = fs::read_to_string(self.dir.join(SIZE_FILE))
                .ok()
                .and_then(|t| t.trim().parse::<u64>().ok());
            match recorded {
                Some(total)
                    if total + bytes.len() as u64 <= self.max_bytes && n % RESCAN_STORES != 0 =>
                {
                    let total = total + bytes.len() as u64;
                    let _ = self.write_file(SIZE_FILE, total.to_string().as_bytes());
                }
                _ => self.evict(),
            }
        }
    }

    /// Writes `bytes` to the folder's file `name` whole (a reader sees the old file or the
    /// new one).
    fn write_file(&self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        fs::create_dir_all(&self.dir)?;
        static SEQUENCE: AtomicU64 = AtomicU64::new(0);
        let temporary = self.dir.join(format!(
            "{}-{}.tmp",
            std::process::id(),
            SEQUENCE.fetch_add(1, Ordering::Relaxed)
        ));
        let written = fs::File::create(&temporary).and_then(|mut file| file.write_all(bytes));
        // rename(2) replaces the target atomically: readers open the old entry or the new one.
        let renamed = written.and_then(|()| fs::rename(&temporary, self.dir.join(name)));
        if renamed.is_err() {
            let _ = fs::remove_file(&temporary);
        }
        renamed
    }

    /// Removes the least recently used entries until the rest fit in the bound, and
    /// temporary files that their writer left behind; records the total left.
    fn evict(&self) {
        let Ok(dir) = fs::read_dir(&self.dir) else {
            return;
        };
        let now = SystemTime::now();
        let mut entries = Vec::new();
        let mut total = 0u64;
        for e in dir.flatten() {
            let path = e.path();
            let Ok(meta) = e.metadata() else { continue };
            let modified = meta.modified().unwrap_or(now);
            match path.extension().and_then(|x| x.to_str()) {
                Some(EXTENSION) => {
                    total += meta.len();
                    entries.push((modified, meta.len(), path));
                }
                Some("tmp")
                    if now.duration_since(modified).unwrap_or_default() > STALE_TEMPORARY =>
                {
                    let _ = fs::remove_file(&path);
                }
                _ => {}
            }
        }
        if total > self.max_bytes {
            entries.sort();
            for (_, len, path) in entries {
                if total <= self.max_bytes {
                    break;
                }
                // Another process may have removed it first.
                let _ = fs::remove_file(&path);
                total = total.saturating_sub(len);
            }
        }
        let _ = self.write_file(SIZE_FILE, total.to_string().as_bytes());
    }
}

/// The checksum of entries and the hash of keys (SipHash with fixed keys): it finds damage;
/// it is no defence against someone who can write the user's cache folder.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    h.write(bytes);
    h.finish()
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// An entry file: the header (magic, format, payload length, payload checksum), then the
/// payload: the key, then the entry's `fields`.
fn entry_bytes(key: &Key, fields: &[u8]) -> Vec<u8> {
    let mut payload = Vec::with_capacity(key.bytes.len() + fields.len() + 8);
    put_bytes(&mut payload, &key.bytes);
    payload.extend_from_slice(fields);
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// The fields after the key of an entry file, when its header, length and checksum hold and
/// its key is `key`.
fn payload<'a>(bytes: &'a [u8], key: &Key) -> Option<Fields<'a>> {
    let header = bytes.get(..HEADER)?;
    let word = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap_or([0; 8]));
    if header[..8] != MAGIC
        || u32::from_le_bytes(header[8..12].try_into().ok()?) != FORMAT
        || word(12) != (bytes.len() - HEADER) as u64
    {
        return None;
    }
    let payload = &bytes[HEADER..];
    if checksum(payload) != word(20) {
        return None;
    }
    let mut r = Fields { rest: payload };
    if r.field()? != key.bytes.as_slice() {
        return None;
    }
    Some(r)
}

/// A program entry: the log, the uniformity flag, the compiled object and the executable
/// (each module as `ferrocl_ir::serialize` writes it).
fn encode(key: &Key, entry: &Entry) -> Vec<u8> {
    let mut fields = Vec::new();
    put_bytes(&mut fields, entry.log.as_bytes());
    fields.push(entry.uniform_work_groups as u8);
    put_bytes(
        &mut fields,
        &ferrocl_ir::serialize::serialize(&entry.object),
    );
    put_bytes(
        &mut fields,
        &ferrocl_ir::serialize::serialize(&entry.executable),
    );
    entry_bytes(key, &fields)
}

/// Reads a program entry back: None unless its header, length and checksum hold, its key is
/// `key`, and both modules decode.
fn decode(bytes: &[u8], key: &Key) -> Option<Entry> {
    let mut r = payload(bytes, key)?;
    let log = String::from_utf8(r.field()?.to_vec()).ok()?;
    let uniform_work_groups = match r.take(1)? {
        [0] => false,
        [1] => true,
        _ => return None,
    };
    // Only this build of ferrocl writes entries under this key (its build id is in it), after
    // its modules passed the verifier, and the checksum has just rejected damage: the modules
    // are decoded with every bounds check but verified again only in debug builds, as the
    // embedded builtin library is (`deserialize_trusted`); verifying took more time than the
    // rest of a cached build of a large program.
    let object = ferrocl_ir::serialize::deserialize_trusted(r.field()?).ok()?;
    let executable_bytes = r.field()?;
    let executable = ferrocl_ir::serialize::deserialize_trusted(executable_bytes).ok()?;
    if !r.rest.is_empty() {
        return None;
    }
    Some(Entry {
        object,
        executable,
        executable_bytes: executable_bytes.to_vec(),
        log,
        uniform_work_groups,
    })
}

/// The fields of an entry's payload, read in order.
struct Fields<'a> {
    rest: &'a [u8],
}

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.rest.len() {
            return None;
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Some(head)
    }

    /// A length-prefixed field.
    fn field(&mut self) -> Option<&'a [u8]> {
        let len = u64::from_le_bytes(self.take(8)?.try_into().ok()?);
        self.take(usize::try_from(len).ok()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(source: &str) -> (Key, Entry) {
        let target = ferrocl_clc::Target::full_profile_cpu();
        let options = ferrocl_clc::build::parse_options("").expect("options");
        let library = &ferrocl_builtins::library;
        let built = ferrocl_clc::build(source, &options, &target, &[], library).expect("the build");
        let key = Key::new(source, "", "a device", &target);
        let entry = Entry {
            object: built.object.module,
            executable_bytes: ferrocl_ir::serialize::serialize(&built.executable),
            executable: built.executable,
            log: built.object.log,
            uniform_work_groups: built.object.uniform_work_groups,
        };
        (key, entry)
    }

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ferrocl-cache-unit-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn an_entry_reads_back_only_under_its_own_key() {
        let dir = folder("key");
        let cache = Cache::at(&dir, MAX_BYTES);
        let (key, e) = entry("kernel void k(global int *p) { p[0] = 1; }");
        let (other, _) = entry("kernel void k(global int *p) { p[0] = 2; }");
        assert!(cache.load(&key).is_none());
        cache.store(&key, &e);
        let back = cache.load(&key).expect("a hit");
        assert_eq!(
            ferrocl_ir::serialize::serialize(&back.executable),
            ferrocl_ir::serialize::serialize(&e.executable)
        );
        assert_eq!(back.log, e.log);
        assert!(cache.load(&other).is_none());
        // Another key written under this key's name (as two keys of one hash would be).
        fs::copy(dir.join(key.file_name()), dir.join(other.file_name())).expect("copy");
        assert!(cache.load(&other).is_none());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_truncation_of_an_entry_is_rejected() {
        let (key, e) = entry("kernel void k(global int *p) { p[0] = 1; }");
        let bytes = encode(&key, &e);
        assert!(decode(&bytes, &key).is_some());
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len], &key).is_none(), "length {len}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer, &key).is_none());
    }

    #[test]
    fn the_least_recently_used_entries_go_past_the_bound() {
        let dir = folder("evict");
        let sources: Vec<String> = (0..4)
            .map(|i| format!("kernel void k(global int *p) {{ p[0] = {i}; }}"))
            .collect();
        let built: Vec<(Key, Entry)> = sources.iter().map(|s| entry(s)).collect();
        let size = encode(&built[0].0, &built[0].1).len() as u64;
        // Room for about three entries.
        let cache = Cache::at(&dir, size * 3 + size / 2);
        let old = SystemTime::now() - Duration::from_secs(100);
        for (i, (key, e)) in built[..3].iter().enumerate() {
            cache.store(key, e);
            let file = fs::File::open(dir.join(key.file_name())).expect("the entry");
            file.set_modified(old + Duration::from_secs(i as u64))
                .expect("set the time");
        }
        // Using the oldest makes the second the least recently used.
        assert!(cache.load(&built[0].0).is_some());
        cache.store(&built[3].0, &built[3].1);
        let present: Vec<bool> = built
            .iter()
            .map(|(k, _)| dir.join(k.file_name()).exists())
            .collect();
        assert_eq!(present, [true, false, true, true]);
        // The recorded total is what the entries left take.
        let total: u64 = fs::read_dir(&dir)
            .expect("the folder")
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == EXTENSION))
            .map(|e| e.metadata().expect("metadata").len())
            .sum();
        let recorded = fs::read_to_string(dir.join(SIZE_FILE)).expect("the size file");
        assert_eq!(recorded.trim().parse::<u64>().ok(), Some(total));
        let _ = fs::remove_dir_all(&dir);
    }
}
