//! [`MemoryWriter`]: the whole IO contract in memory, for tests, benchmarks of pure
//! compute, and hosts without a file system.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use crate::io::clamp_range;
use crate::{
    io::CreateOutcome, io::FileLifecycle, io::FileReader, io::FileStat, io::FileWriter, io::IoError,
};

/// A [`FileWriter`] that keeps everything in memory: for tests, benchmarks of pure
/// compute, and hosts without a file system.
///
/// Like a real file system, writing a file whose directory was never created fails.
///
/// ```
/// use tool_offload_core::{FileWriter, MemoryWriter};
/// let writer = MemoryWriter::new();
/// futures_executor::block_on(async {
///     writer.mkdir("/out/s").await.unwrap();
///     writer.write_file("/out/s/a.md", "hello").await.unwrap();
/// });
/// assert_eq!(writer.read("/out/s/a.md").as_deref(), Some("hello"));
/// assert!(writer.has_dir("/out"));
/// assert!(!writer.has_dir("/elsewhere"));
/// let orphan = futures_executor::block_on(writer.write_file("/elsewhere/a.md", "x"));
/// assert_eq!(orphan.unwrap_err().to_string(), "no such directory: /elsewhere");
/// ```
///
/// For tests it can fail on one path and tells what it was asked to do:
///
/// ```
/// use tool_offload_core::{FileWriter, MemoryWriter};
/// let writer = MemoryWriter::new().fail_on("/out/s");
/// futures_executor::block_on(async {
///     assert_eq!(writer.mkdir("/out/s").await.unwrap_err().to_string(), "injected failure: /out/s");
///     writer.mkdir("/out/t").await.unwrap();
/// });
/// assert_eq!(writer.calls(), ["mkdir /out/s", "mkdir /out/t"]);
/// ```
#[derive(Debug, Default)]
pub struct MemoryWriter {
    state: Mutex<MemoryState>,
    /// `mkdir`, `write_file` and `create_file` of this path fail.
    fail_on: Option<String>,
}

#[derive(Debug, Default)]
struct MemoryState {
    dirs: BTreeSet<String>,
    /// Each file's bytes: text as UTF-8, or binary data as written.
    files: BTreeMap<String, Vec<u8>>,
    /// When each file was last written ([`MemoryWriter::set_now`]'s clock).
    modified: BTreeMap<String, u64>,
    /// The clock: milliseconds since the Unix epoch, as set.
    now_ms: u64,
    /// `"<operation> <path>"` for every writer call, in order.
    calls: Vec<String>,
}

impl MemoryWriter {
    /// An empty in-memory file system (only `/` exists).
    pub fn new() -> Self {
        Self::default()
    }

    /// This writer, failing every `mkdir`, `write_file` and `create_file` of `path` with
    /// `injected failure: <path>` (the call is still logged).
    pub fn fail_on(mut self, path: impl Into<String>) -> Self {
        self.fail_on = Some(path.into());
        self
    }

    /// Set the clock that stamps what is written from now on (milliseconds since the
    /// Unix epoch; starts at 0): memory has no clock of its own, and tests of retention
    /// want one they control.
    pub fn set_now(&self, now_ms: u64) {
        self.lock().now_ms = now_ms;
    }

    /// Every writer call so far, in order: `mkdir <dir>`, `write <path>`, `create <path>`.
    pub fn calls(&self) -> Vec<String> {
        self.lock().calls.clone()
    }

    /// Log a writer call; the injected failure when `path` is the one to fail on.
    fn call(&self, state: &mut MemoryState, op: &str, path: &str) -> Result<(), IoError> {
        state.calls.push(format!("{op} {path}"));
        match &self.fail_on {
            Some(fail) if fail == path => Err(IoError::new(format!("injected failure: {path}"))),
            _ => Ok(()),
        }
    }

    /// The content of the file at `path`, if one was written (bytes that are not UTF-8
    /// as U+FFFD: [`MemoryWriter::read_bytes`] has them as written).
    pub fn read(&self, path: &str) -> Option<String> {
        let state = self.lock();
        let bytes = state.files.get(path)?;
        Some(String::from_utf8_lossy(bytes).into_owned())
    }

    /// The bytes of the file at `path`, if one was written.
    pub fn read_bytes(&self, path: &str) -> Option<Vec<u8>> {
        self.lock().files.get(path).cloned()
    }

    /// Whether `dir` was created (explicitly or as a parent).
    pub fn has_dir(&self, dir: &str) -> bool {
        dir == "/" || self.lock().dirs.contains(dir)
    }

    /// Every file written, by path, in path order (as [`MemoryWriter::read`] reads it).
    pub fn files(&self) -> BTreeMap<String, String> {
        let state = self.lock();
        let text = |bytes: &Vec<u8>| String::from_utf8_lossy(bytes).into_owned();
        state
            .files
            .iter()
            .map(|(p, b)| (p.clone(), text(b)))
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, MemoryState> {
        // A poisoned lock only means another thread panicked mid-test; the maps are
        // still consistent because every mutation is a single insert.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl MemoryWriter {
    fn write(&self, path: &str, data: &[u8]) -> Result<(), IoError> {
        let mut state = self.lock();
        self.call(&mut state, "write", path)?;
        state.check_writable(path)?;
        state.files.insert(path.to_owned(), data.to_owned());
        let now = state.now_ms;
        state.modified.insert(path.to_owned(), now);
        Ok(())
    }

    fn create(&self, path: &str, data: &[u8]) -> Result<CreateOutcome, IoError> {
        // One lock for the check and the insert: the in-memory form of an atomic create.
        let mut state = self.lock();
        self.call(&mut state, "create", path)?;
        state.check_writable(path)?;
        if state.files.contains_key(path) {
            return Ok(CreateOutcome::Exists);
        }
        state.files.insert(path.to_owned(), data.to_owned());
        let now = state.now_ms;
        state.modified.insert(path.to_owned(), now);
        Ok(CreateOutcome::Created)
    }

    fn make_dir(&self, dir: &str) -> Result<(), IoError> {
        let mut state = self.lock();
        self.call(&mut state, "mkdir", dir)?;
        let mut prefix = String::new();
        for part in dir.split('/').filter(|p| !p.is_empty()) {
            prefix.push('/');
            prefix.push_str(part);
            if state.files.contains_key(&prefix) {
                return Err(IoError::new(format!("not a directory: {prefix}")));
            }
            state.dirs.insert(prefix.clone());
        }
        Ok(())
    }
}

impl FileWriter for MemoryWriter {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.make_dir(dir)
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.write(path, data.as_bytes())
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.create(path, data.as_bytes())
    }
    async fn create_bytes(&self, path: &str, data: &[u8]) -> Result<CreateOutcome, IoError> {
        self.create(path, data)
    }
}

impl MemoryState {
    /// Why a file cannot be written at `path`, as a real file system would refuse it.
    fn check_writable(&self, path: &str) -> Result<(), IoError> {
        let parent = match path.rfind('/') {
            Some(0) => "/",
            Some(i) => &path[..i],
            None => return Err(IoError::new(format!("not an absolute path: {path}"))),
        };
        if parent != "/" && !self.dirs.contains(parent) {
            return Err(IoError::new(format!("no such directory: {parent}")));
        }
        if self.dirs.contains(path) {
            return Err(IoError::new(format!("is a directory: {path}")));
        }
        Ok(())
    }
}

impl FileReader for MemoryWriter {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        // As a file system's reader: bytes that are not UTF-8 are an error, not text.
        match self.read_bytes(path) {
            None => Ok(None),
            Some(bytes) => String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| IoError::new(format!("not UTF-8: {path}"))),
        }
    }

    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        let state = self.lock();
        let prefix = if dir.ends_with('/') {
            dir.to_owned()
        } else {
            format!("{dir}/")
        };
        let direct_child = |p: &String| {
            p.strip_prefix(&prefix)
                .filter(|rest| !rest.is_empty() && !rest.contains('/'))
                .map(str::to_owned)
        };
        let mut names: Vec<String> = state
            .files
            .keys()
            .chain(state.dirs.iter())
            .filter_map(direct_child)
            .collect();
        crate::sort::sort_by(&mut names, |a, b| a.cmp(b));
        names.dedup();
        Ok(names)
    }

    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        Ok(self.lock().files.get(path).map(|text| text.len() as u64))
    }

    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        let state = self.lock();
        let bytes = state
            .files
            .get(path)
            .ok_or_else(|| IoError::new(format!("no such file: {path}")))?;
        Ok(bytes[clamp_range(start, end, bytes.len())].to_vec())
    }
}

impl FileLifecycle for MemoryWriter {
    async fn stat(&self, path: &str) -> Result<Option<FileStat>, IoError> {
        let state = self.lock();
        if let Some(data) = state.files.get(path) {
            return Ok(Some(FileStat {
                size: data.len() as u64,
                modified_ms: state.modified.get(path).copied().unwrap_or(0),
                is_dir: false,
                is_link: false,
            }));
        }
        let is_dir = path == "/" || state.dirs.contains(path);
        Ok(is_dir.then_some(FileStat {
            size: 0,
            modified_ms: 0,
            is_dir: true,
            is_link: false,
        }))
    }

    async fn remove(&self, path: &str) -> Result<(), IoError> {
        let mut state = self.lock();
        self.call(&mut state, "remove", path)?;
        state.files.remove(path);
        state.modified.remove(path);
        Ok(())
    }
}
