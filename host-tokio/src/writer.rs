//! [`TokioFileWriter`]: the core's [`FileWriter`] over `tokio::fs`, atomic per file.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::io::AsyncWriteExt;
use tool_offload_core::{FileWriter, IoError};

/// Writes files with `tokio::fs`, atomically: the data goes to a temporary file in the
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
async fn sync_dir(dir: &Path) -> std::io::Result<()> {
    if cfg!(unix) {
        tokio::fs::File::open(dir).await?.sync_all().await?;
    }
    Ok(())
}

impl FileWriter for TokioFileWriter {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        tokio::fs::create_dir_all(dir).await.map_err(IoError::from)
    }

    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        let path = Path::new(path);
        let dir = path
            .parent()
            .ok_or_else(|| IoError::new(format!("{} has no parent directory", path.display())))?;
        let temp = dir.join(temp_name());
        let written = async {
            let mut file = tokio::fs::File::create(&temp).await?;
            file.write_all(data.as_bytes()).await?;
            if self.durable {
                file.sync_all().await?;
            } else {
                file.flush().await?;
            }
            drop(file);
            tokio::fs::rename(&temp, path).await?;
            if self.durable {
                sync_dir(dir).await?;
            }
            Ok::<(), std::io::Error>(())
        }
        .await;
        if let Err(err) = written {
            // Best effort: the temporary file is ours and useless now.
            let _ = tokio::fs::remove_file(&temp).await;
            return Err(IoError::from(err));
        }
        Ok(())
    }
}
