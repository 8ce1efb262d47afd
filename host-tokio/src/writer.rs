//! [`TokioFileWriter`]: the core's [`FileWriter`] on tokio, atomic per file.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use tool_offload_core::temp::temp_file_name;
use tool_offload_core::{CreateOutcome, FileReader, FileWriter, IoError};

use crate::stale;

/// Writes files from tokio's blocking pool, atomically: the data goes to a temporary file in the
/// same directory, which is then renamed over the final path, so a crash never leaves a
/// truncated file there. [`TokioFileWriter::durable`] also flushes each file to disk
/// before the rename and the directory after it, so the content survives a power loss
/// too (slower).
///
/// ```no_run
/// use tool_offload::{FileWriter, TokioFileWriter};
/// # async fn demo() -> Result<(), tool_offload::IoError> {
/// let writer = TokioFileWriter::new();
/// writer.mkdir("/tmp/artifacts/s1").await?;
/// writer.write_file("/tmp/artifacts/s1/toolu_1.md", "full tool output").await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioFileWriter {
    durable: bool,
}

impl TokioFileWriter {
    /// An atomic writer (temporary file + rename).
    pub fn new() -> Self {
        Self::default()
    }

    /// An atomic writer that also `fsync`s each file before renaming it into place, and
    /// its directory after.
    pub fn durable() -> Self {
        TokioFileWriter { durable: true }
    }
}

/// A temporary name unique within this process and, through a random part, across
/// processes too (containers sharing a volume often all run as PID 1). It does not
/// embed the final name, which may already be at the 255-byte limit.
pub(crate) fn temp_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    // RandomState is seeded from the OS once per process: no extra dependency needed.
    let random = RandomState::new().hash_one(n);
    temp_file_name(std::process::id(), &format!("{n}-{random:016x}"))
}

/// Flush a directory's entries (the rename) to disk. Only meaningful on Unix; elsewhere
/// directories cannot be opened this way and renames are durable per file system rules.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    if cfg!(unix) {
        std::fs::File::open(dir)?.sync_all()?;
    }
    Ok(())
}

impl FileWriter for TokioFileWriter {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        let path = PathBuf::from(dir);
        tokio::task::spawn_blocking(move || std::fs::create_dir_all(&path))
            .await
            .map_err(|e| IoError::new(format!("mkdir task failed: {e}")))??;
        stale::sweep_once(dir, self).await;
        Ok(())
    }

    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        // One blocking-pool task for the whole atomic write, as tokio::fs::write does for
        // a plain one: each tokio::fs call is its own spawn_blocking hop (~40 µs each
        // here), and an atomic write through tokio::fs would take three.
        let (path, data, durable) = (PathBuf::from(path), data.to_owned(), self.durable);
        tokio::task::spawn_blocking(move || write_atomically(&path, data.as_bytes(), durable))
            .await
            .map_err(|e| IoError::new(format!("write task failed: {e}")))?
            .map_err(IoError::from)
    }

    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.create_bytes(path, data.as_bytes()).await
    }

    async fn create_bytes(&self, path: &str, data: &[u8]) -> Result<CreateOutcome, IoError> {
        let (path, data, durable) = (PathBuf::from(path), data.to_owned(), self.durable);
        tokio::task::spawn_blocking(move || create_exclusively(&path, &data, durable))
            .await
            .map_err(|e| IoError::new(format!("create task failed: {e}")))?
            .map_err(IoError::from)
    }
}

/// Create `path` holding `data` unless something is there: the data goes to a temporary
/// file beside it (optionally fsynced), which is then moved to `path` without replacing
/// anything — `renameat2(RENAME_NOREPLACE)` on Linux, else a hard link — so a complete
/// file appears in one step. On a file system with neither, `path` is opened with
/// `O_CREAT | O_EXCL` instead (still exclusive, though a crash mid-write could leave it
/// short).
fn create_exclusively(path: &Path, data: &[u8], durable: bool) -> std::io::Result<CreateOutcome> {
    let dir = parent_of(path)?;
    let temp = dir.join(temp_name());
    let published = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(data)?;
        if durable {
            file.sync_all()?;
        }
        drop(file);
        publish_no_replace(&temp, path)
    })();
    if !matches!(published, Ok(Published::Renamed)) {
        // Best effort: the temporary file is ours and useless now.
        let _ = std::fs::remove_file(&temp);
    }
    let outcome = match published {
        Ok(_) => CreateOutcome::Created,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => CreateOutcome::Exists,
        Err(e) if links_unsupported(&e) => create_new_in_place(path, data, durable)?,
        Err(e) => return Err(e),
    };
    if durable && outcome == CreateOutcome::Created {
        sync_dir(dir)?;
    }
    Ok(outcome)
}

/// How [`publish_no_replace`] put the temporary file in place.
enum Published {
    /// Moved: the temporary name is gone.
    Renamed,
    /// Linked: the temporary name is still there, to remove.
    Linked,
}

/// Give the finished file `temp` the name `path` unless `path` exists
/// (`AlreadyExists`). One `renameat2(RENAME_NOREPLACE)` where the kernel and file
/// system have it (a third of the cost of link + unlink), else `link`.
fn publish_no_replace(temp: &Path, path: &Path) -> std::io::Result<Published> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::ffi::OsStrExt;
        let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes());
        if let (Ok(from), Ok(to)) = (c(temp), c(path)) {
            // SAFETY: both are valid NUL-terminated paths that outlive the call.
            let done = unsafe {
                libc::renameat2(
                    libc::AT_FDCWD,
                    from.as_ptr(),
                    libc::AT_FDCWD,
                    to.as_ptr(),
                    libc::RENAME_NOREPLACE,
                )
            };
            if done == 0 {
                return Ok(Published::Renamed);
            }
            let err = std::io::Error::last_os_error();
            // EINVAL / ENOSYS: the file system or kernel cannot; try a link.
            if !matches!(err.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) {
                return Err(err);
            }
        }
    }
    std::fs::hard_link(temp, path).map(|()| Published::Linked)
}

/// Whether `link` failed because the file system has no hard links (FAT, some FUSE and
/// network mounts), not because of the paths.
fn links_unsupported(e: &std::io::Error) -> bool {
    // EPERM (FAT on Linux), ENOTSUP/EOPNOTSUPP, ENOSYS, EXDEV, EMLINK.
    matches!(e.raw_os_error(), Some(1 | 95 | 38 | 18 | 31))
        || e.kind() == std::io::ErrorKind::Unsupported
}

/// The fallback of [`create_exclusively`]: exclusive open of the final path.
fn create_new_in_place(path: &Path, data: &[u8], durable: bool) -> std::io::Result<CreateOutcome> {
    let mut file = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Ok(CreateOutcome::Exists)
        }
        Err(e) => return Err(e),
    };
    file.write_all(data)?;
    if durable {
        file.sync_all()?;
    }
    Ok(CreateOutcome::Created)
}

fn parent_of(path: &Path) -> std::io::Result<&Path> {
    path.parent().ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} has no parent directory", path.display()),
        )
    })
}

/// Write `data` to a temporary file beside `path`, optionally fsync it, rename it over
/// `path`, optionally fsync the directory; the temporary file is removed on failure.
fn write_atomically(path: &Path, data: &[u8], durable: bool) -> std::io::Result<()> {
    let dir = parent_of(path)?;
    let temp = dir.join(temp_name());
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(data)?;
        if durable {
            file.sync_all()?;
        }
        drop(file);
        std::fs::rename(&temp, path)?;
        if durable {
            sync_dir(dir)?;
        }
        Ok(())
    })();
    if written.is_err() {
        // Best effort: the temporary file is ours and useless now.
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// Reading artifacts back, for the [`Materializer`](crate::materializer::Materializer).
impl FileReader for TokioFileWriter {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        match tokio::fs::read_to_string(path).await {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(IoError::from(e)),
        }
    }

    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        let mut entries = match tokio::fs::read_dir(dir).await {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(IoError::from(e)),
        };
        let mut names = Vec::new();
        while let Some(entry) = entries.next_entry().await? {
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
        names.sort();
        Ok(names)
    }

    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        match tokio::fs::metadata(path).await {
            Ok(meta) if meta.is_file() => Ok(Some(meta.len())),
            Ok(_) => Err(IoError::new(format!("not a file: {path}"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(IoError::from(e)),
        }
    }

    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        let path = path.to_owned();
        // One blocking-pool hop and one positioned read (`pread`), not seek + read
        // through tokio's file wrapper.
        tokio::task::spawn_blocking(move || read_range_blocking(&path, start, end))
            .await
            .map_err(|e| IoError::new(format!("read task failed: {e}")))?
            .map_err(IoError::from)
    }
}

/// Bytes `start..end` of the file at `path`, fewer at its end.
fn read_range_blocking(path: &str, start: u64, end: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    let len = end.min(file.metadata()?.len()).saturating_sub(start);
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.seek(SeekFrom::Start(start))?;
    file.take(len).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Error, ErrorKind};

    #[test]
    fn the_exclusive_open_fallback_creates_once_and_never_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        let create = |data: &str| create_new_in_place(&path, data.as_bytes(), true).unwrap();
        assert_eq!(create("first"), CreateOutcome::Created);
        assert_eq!(create("second"), CreateOutcome::Exists);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
    }

    #[test]
    fn only_link_failures_of_the_file_system_fall_back() {
        for errno in [1, 18, 31, 38, 95] {
            assert!(
                links_unsupported(&Error::from_raw_os_error(errno)),
                "{errno}"
            );
        }
        assert!(links_unsupported(&Error::from(ErrorKind::Unsupported)));
        assert!(!links_unsupported(&Error::from_raw_os_error(2))); // ENOENT
        assert!(!links_unsupported(&Error::from(ErrorKind::NotFound)));
    }

    #[tokio::test]
    async fn size_and_ranges_read_what_is_there_clamped_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "héllo\nworld").unwrap();
        let (path, io) = (path.to_str().unwrap(), TokioFileWriter::new());
        assert_eq!(io.size(path).await.unwrap(), Some(12));
        assert_eq!(io.read_range(path, 1, 3).await.unwrap(), "é".as_bytes());
        assert_eq!(io.read_range(path, 7, 1000).await.unwrap(), b"world");
        assert_eq!(io.read_range(path, 50, 60).await.unwrap(), b"");
        assert_eq!(io.read_range(path, 5, 2).await.unwrap(), b"");
        let missing = dir.path().join("missing.txt");
        assert_eq!(io.size(missing.to_str().unwrap()).await.unwrap(), None);
        assert!(io
            .read_range(missing.to_str().unwrap(), 0, 1)
            .await
            .is_err());
        let not_a_file = io.size(dir.path().to_str().unwrap()).await.unwrap_err();
        assert!(
            not_a_file.to_string().starts_with("not a file: "),
            "{not_a_file}"
        );
    }

    #[test]
    fn a_missing_directory_is_an_error_not_a_taken_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing/a.txt");
        let err = create_exclusively(&path, b"x", false).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
        let err = create_new_in_place(&path, b"x", false).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
    }
}
