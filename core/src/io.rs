//! The injected IO: the only way bytes leave the core.

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::sync::Mutex;

/// An error reported by a [`FileWriter`]; its message is kept verbatim so users see the
/// underlying cause (`EACCES: permission denied, open '…'`, `No space left on device`…).
///
/// ```
/// use tool_offload_core::IoError;
/// let err = IoError::new("disk full");
/// assert_eq!(err.to_string(), "disk full");
/// ```
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct IoError {
    message: String,
    #[source]
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl IoError {
    /// An error with only a message.
    pub fn new(message: impl Into<String>) -> Self {
        IoError {
            message: message.into(),
            source: None,
        }
    }

    /// An error wrapping another one; the message is taken from it.
    pub fn from_error(source: impl std::error::Error + Send + Sync + 'static) -> Self {
        IoError {
            message: source.to_string(),
            source: Some(Box::new(source)),
        }
    }

    /// The writer's message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl From<std::io::Error> for IoError {
    fn from(err: std::io::Error) -> Self {
        IoError::from_error(err)
    }
}

/// What [`FileWriter::create_file`] did.
///
/// ```
/// use tool_offload_core::{CreateOutcome, FileWriter, MemoryWriter};
/// let fs = MemoryWriter::new();
/// futures_executor::block_on(async {
///     assert_eq!(fs.create_file("/a.txt", "one").await.unwrap(), CreateOutcome::Created);
///     assert_eq!(fs.create_file("/a.txt", "two").await.unwrap(), CreateOutcome::Exists);
/// });
/// assert_eq!(fs.read("/a.txt").as_deref(), Some("one"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CreateOutcome {
    /// The file did not exist; it now holds the data.
    Created,
    /// Something already was at the path; it was left untouched and nothing was written.
    Exists,
}

/// Where offloaded content goes. Hosts implement this over real storage; the core only
/// ever calls these operations, with absolute `/`-separated paths it has already
/// validated to stay inside the output directory.
///
/// Implementations should write atomically (temporary file in the same directory, then
/// rename, or link for [`create_file`](FileWriter::create_file)) so a crash never
/// leaves a truncated file at the final path.
///
/// The futures carry no `Send` bound so that single-threaded hosts (wasm) can implement
/// the trait; a writer whose futures are `Send` (like the tokio host's) makes the core's
/// futures `Send` too.
///
/// `D` is the text type the writer takes: `str` natively; the wasm host writes the
/// JavaScript strings it was given (`JsString`) so content never crosses into wasm.
///
/// ```
/// use tool_offload_core::{CreateOutcome, FileWriter, IoError};
///
/// /// A writer that only prints what it would do.
/// struct DryRun;
/// impl FileWriter for DryRun {
///     async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
///         println!("mkdir -p {dir}");
///         Ok(())
///     }
///     async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
///         println!("write {} bytes to {path}", data.len());
///         Ok(())
///     }
///     async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
///         println!("create {path} ({} bytes) unless it exists", data.len());
///         Ok(CreateOutcome::Created)
///     }
/// }
/// ```
pub trait FileWriter<D: ?Sized = str> {
    /// Create `dir` and any missing parents; succeed if it already exists.
    fn mkdir(&self, dir: &str) -> impl Future<Output = Result<(), IoError>>;
    /// Write `data` as UTF-8 to `path`, replacing any existing file.
    fn write_file(&self, path: &str, data: &D) -> impl Future<Output = Result<(), IoError>>;
    /// Write `data` as UTF-8 to `path` only if nothing is there yet, atomically: of
    /// any number of concurrent creators of one path (threads, processes), exactly one
    /// gets [`CreateOutcome::Created`] and its data is what the file holds; the others
    /// get [`CreateOutcome::Exists`] and write nothing. A reader never sees a partly
    /// written file. This is what every "pick a free name" in tool-offload relies on,
    /// so that nothing is ever overwritten.
    fn create_file(
        &self,
        path: &str,
        data: &D,
    ) -> impl Future<Output = Result<CreateOutcome, IoError>>;
}

impl<D: ?Sized, W: FileWriter<D> + ?Sized> FileWriter<D> for &W {
    fn mkdir(&self, dir: &str) -> impl Future<Output = Result<(), IoError>> {
        (**self).mkdir(dir)
    }
    fn write_file(&self, path: &str, data: &D) -> impl Future<Output = Result<(), IoError>> {
        (**self).write_file(path, data)
    }
    fn create_file(
        &self,
        path: &str,
        data: &D,
    ) -> impl Future<Output = Result<CreateOutcome, IoError>> {
        (**self).create_file(path, data)
    }
}

/// Reading artifacts back: the counterpart of [`FileWriter`], injected the same way.
///
/// Read-back pages through an artifact with [`size`](FileReader::size) and
/// [`read_range`](FileReader::read_range), so a page of a 1 GB artifact costs a page,
/// not the file; [`read_file`](FileReader::read_file) is for small files (bundles,
/// line indexes, a name's current content).
///
/// ```
/// use tool_offload_core::{FileReader, FileWriter, MemoryWriter};
/// let fs = MemoryWriter::new();
/// futures_executor::block_on(async {
///     fs.mkdir("/a").await.unwrap();
///     fs.write_file("/a/x.txt", "hi there").await.unwrap();
///     assert_eq!(fs.read_file("/a/x.txt").await.unwrap().as_deref(), Some("hi there"));
///     assert_eq!(fs.read_file("/a/nope").await.unwrap(), None);
///     assert_eq!(fs.list_dir("/a").await.unwrap(), ["x.txt"]);
///     assert_eq!(fs.size("/a/x.txt").await.unwrap(), Some(8));
///     assert_eq!(fs.read_range("/a/x.txt", 3, 100).await.unwrap(), b"there");
/// });
/// ```
pub trait FileReader {
    /// The UTF-8 content of the file at `path`, or `None` when there is no such file.
    fn read_file(&self, path: &str) -> impl Future<Output = Result<Option<String>, IoError>>;
    /// The names of the entries of `dir`, sorted; empty when it does not exist.
    fn list_dir(&self, dir: &str) -> impl Future<Output = Result<Vec<String>, IoError>>;
    /// The size in bytes of the file at `path`, or `None` when there is no such file.
    fn size(&self, path: &str) -> impl Future<Output = Result<Option<u64>, IoError>>;
    /// Bytes `start..end` of the file at `path`: fewer when the file ends first (none
    /// when `start` is at or past its end). A missing file is an error here: callers
    /// ask [`size`](FileReader::size) first.
    fn read_range(
        &self,
        path: &str,
        start: u64,
        end: u64,
    ) -> impl Future<Output = Result<Vec<u8>, IoError>>;
}

impl<R: FileReader + ?Sized> FileReader for &R {
    fn read_file(&self, path: &str) -> impl Future<Output = Result<Option<String>, IoError>> {
        (**self).read_file(path)
    }
    fn list_dir(&self, dir: &str) -> impl Future<Output = Result<Vec<String>, IoError>> {
        (**self).list_dir(dir)
    }
    fn size(&self, path: &str) -> impl Future<Output = Result<Option<u64>, IoError>> {
        (**self).size(path)
    }
    fn read_range(
        &self,
        path: &str,
        start: u64,
        end: u64,
    ) -> impl Future<Output = Result<Vec<u8>, IoError>> {
        (**self).read_range(path, start, end)
    }
}

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
/// ```
///
/// For tests it can fail on one path and tells what it was asked to do:
///
/// ```
/// use tool_offload_core::{FileWriter, MemoryWriter};
/// let writer = MemoryWriter::new().fail_on("/out/s");
/// futures_executor::block_on(async {
///     assert_eq!(writer.mkdir("/out/s").await.unwrap_err().to_string(), "injected failure: /out/s");
/// });
/// assert_eq!(writer.calls(), ["mkdir /out/s"]);
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
    files: BTreeMap<String, String>,
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

    /// The content of the file at `path`, if one was written.
    pub fn read(&self, path: &str) -> Option<String> {
        self.lock().files.get(path).cloned()
    }

    /// Whether `dir` was created (explicitly or as a parent).
    pub fn has_dir(&self, dir: &str) -> bool {
        dir == "/" || self.lock().dirs.contains(dir)
    }

    /// Every file written, by path, in path order.
    pub fn files(&self) -> BTreeMap<String, String> {
        self.lock().files.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, MemoryState> {
        // A poisoned lock only means another thread panicked mid-test; the maps are
        // still consistent because every mutation is a single insert.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl FileWriter for MemoryWriter {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
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

    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        let mut state = self.lock();
        self.call(&mut state, "write", path)?;
        state.check_writable(path)?;
        state.files.insert(path.to_owned(), data.to_owned());
        let now = state.now_ms;
        state.modified.insert(path.to_owned(), now);
        Ok(())
    }

    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
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
        Ok(self.read(path))
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
        names.sort();
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
            .ok_or_else(|| IoError::new(format!("no such file: {path}")))?
            .as_bytes();
        Ok(bytes[clamp_range(start, end, bytes.len())].to_vec())
    }
}

/// `start..end` as indexes into `len` bytes: cut at the end, empty when reversed.
///
/// ```
/// use tool_offload_core::clamp_range;
/// assert_eq!(clamp_range(2, 10, 5), 2..5);
/// assert_eq!(clamp_range(7, 9, 5), 5..5);
/// assert_eq!(clamp_range(3, 1, 5), 3..3);
/// ```
pub fn clamp_range(start: u64, end: u64, len: usize) -> std::ops::Range<usize> {
    let clamp = |n: u64| usize::try_from(n).map_or(len, |n| n.min(len));
    let start = clamp(start);
    start..clamp(end).max(start)
}

impl crate::FileLifecycle for MemoryWriter {
    async fn stat(&self, path: &str) -> Result<Option<crate::FileStat>, IoError> {
        let state = self.lock();
        if let Some(data) = state.files.get(path) {
            return Ok(Some(crate::FileStat {
                size: data.len() as u64,
                modified_ms: state.modified.get(path).copied().unwrap_or(0),
                is_dir: false,
            }));
        }
        let is_dir = path == "/" || state.dirs.contains(path);
        Ok(is_dir.then_some(crate::FileStat {
            size: 0,
            modified_ms: 0,
            is_dir: true,
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
