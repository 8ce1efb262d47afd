//! The injected IO, the whole contract: the only way bytes leave the core. Writing
//! ([`FileWriter`]), reading back ([`FileReader`]) and, for retention,
//! [`FileLifecycle`].

use std::future::Future;

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
    /// [`create_file`](FileWriter::create_file) for binary data (a tool's `.bin`
    /// output), written as it is. Writers that cannot write bytes keep this default,
    /// an error: binary outputs then fail with `WRITE_FAILED`, text is unaffected.
    fn create_bytes(
        &self,
        path: &str,
        data: &[u8],
    ) -> impl Future<Output = Result<CreateOutcome, IoError>> {
        let _ = data;
        let message = format!("this writer does not write binary data: {path}");
        async move { Err(IoError::new(message)) }
    }
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
    fn create_bytes(
        &self,
        path: &str,
        data: &[u8],
    ) -> impl Future<Output = Result<CreateOutcome, IoError>> {
        (**self).create_bytes(path, data)
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

/// No reader at all: every file is missing, every directory empty (so a writer without
/// a way to read finds every name free).
///
/// ```
/// use tool_offload_core::{FileReader, MemoryWriter};
/// let none: Option<MemoryWriter> = None;
/// assert_eq!(futures_executor::block_on(none.read_file("/a")).unwrap(), None);
/// assert!(futures_executor::block_on(none.read_range("/a", 0, 1)).is_err());
/// assert!(futures_executor::block_on(none.list_dir("/")).unwrap().is_empty());
/// assert_eq!(futures_executor::block_on(none.size("/a")).unwrap(), None);
///
/// // Some reader: its answers, whatever they are.
/// use tool_offload_core::FileWriter;
/// let fs = MemoryWriter::new();
/// futures_executor::block_on(fs.mkdir("/d")).unwrap();
/// futures_executor::block_on(fs.write_file("/d/a", "xyz")).unwrap();
/// let some = Some(fs);
/// assert_eq!(futures_executor::block_on(some.read_file("/d/a")).unwrap().as_deref(), Some("xyz"));
/// assert_eq!(futures_executor::block_on(some.list_dir("/d")).unwrap(), ["a"]);
/// assert_eq!(futures_executor::block_on(some.size("/d/a")).unwrap(), Some(3));
/// assert_eq!(futures_executor::block_on(some.read_range("/d/a", 1, 3)).unwrap(), b"yz");
/// ```
impl<R: FileReader> FileReader for Option<R> {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        match self {
            Some(reader) => reader.read_file(path).await,
            None => Ok(None),
        }
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        match self {
            Some(reader) => reader.list_dir(dir).await,
            None => Ok(Vec::new()),
        }
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        match self {
            Some(reader) => reader.size(path).await,
            None => Ok(None),
        }
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        match self {
            Some(reader) => reader.read_range(path, start, end).await,
            None => Err(IoError::new(format!("no such file: {path}"))),
        }
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

/// What [`FileLifecycle::stat`] tells about a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStat {
    /// Size in bytes (0 for a directory).
    pub size: u64,
    /// Last modification, milliseconds since the Unix epoch.
    pub modified_ms: u64,
    /// Whether it is a directory.
    pub is_dir: bool,
    /// Whether the path itself is a symbolic link (a stat that does not follow links
    /// says so; `is_dir` and `size` are then the link's, not its target's). Retention
    /// never follows one: it does not descend into a linked directory, removes nothing
    /// through a link and leaves the link alone (none of ours is a link).
    pub is_link: bool,
}

/// The part of the IO contract retention needs: a file's size and age, and removing it.
///
/// ```
/// use tool_offload_core::{FileLifecycle, FileWriter, MemoryWriter};
/// let fs = MemoryWriter::new();
/// futures_executor::block_on(async {
///     fs.mkdir("/a").await.unwrap();
///     fs.write_file("/a/x.txt", "hi").await.unwrap();
///     assert_eq!(fs.stat("/a/x.txt").await.unwrap().unwrap().size, 2);
///     assert!(fs.stat("/a").await.unwrap().unwrap().is_dir);
///     fs.remove("/a/x.txt").await.unwrap();
///     assert_eq!(fs.stat("/a/x.txt").await.unwrap(), None);
///     fs.remove("/a/x.txt").await.unwrap(); // already gone: fine
/// });
/// ```
pub trait FileLifecycle {
    /// Size, modification time and kind of `path`, or `None` when nothing is there.
    fn stat(&self, path: &str) -> impl Future<Output = Result<Option<FileStat>, IoError>>;
    /// Remove the file at `path`; nothing there is not an error.
    fn remove(&self, path: &str) -> impl Future<Output = Result<(), IoError>>;
}

impl<L: FileLifecycle + ?Sized> FileLifecycle for &L {
    fn stat(&self, path: &str) -> impl Future<Output = Result<Option<FileStat>, IoError>> {
        (**self).stat(path)
    }
    fn remove(&self, path: &str) -> impl Future<Output = Result<(), IoError>> {
        (**self).remove(path)
    }
}
