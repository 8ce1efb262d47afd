//! [`TokioFileWriter`]: the core's [`FileWriter`] on tokio, atomic per file.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use tool_offload_core::{FileReader, FileWriter, IoError};

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
fn temp_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    // RandomState is seeded from the OS once per process: no extra dependency needed.
    let random = RandomState::new().hash_one(n);
    format!(".tool-offload-{}-{n}-{random:016x}.tmp", std::process::id())
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
        tokio::fs::create_dir_all(dir).await.map_err(IoError::from)
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
}

/// Write `data` to a temporary file beside `path`, optionally fsync it, rename it over
/// `path`, optionally fsync the directory; the temporary file is removed on failure.
fn write_atomically(path: &Path, data: &[u8], durable: bool) -> std::io::Result<()> {
    let dir = path.parent().ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} has no parent directory", path.display()),
        )
    })?;
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

/// Reading artifacts back, for the [`Materializer`](crate::Materializer).
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
}
