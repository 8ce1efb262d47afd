//! Retention on real files: [`FileLifecycle`] for [`TokioFileWriter`], and `gc` over a
//! materializer's user data or any directory of ours.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use tool_offload_core::gc::{self, FileLifecycle, FileStat, GcOptions, GcReport};
use tool_offload_core::{FileReader, FileWriter, IoError, OffloadError};

use crate::{materializer::Materializer, writer::TokioFileWriter};

use crate::paths::utf8;

impl FileLifecycle for TokioFileWriter {
    async fn stat(&self, path: &str) -> Result<Option<FileStat>, IoError> {
        // The path itself, not what a link points at: retention never follows a link.
        match tokio::fs::symlink_metadata(path).await {
            Ok(meta) => Ok(Some(FileStat {
                size: if meta.is_dir() { 0 } else { meta.len() },
                modified_ms: meta.modified().map_or(0, millis),
                is_dir: meta.is_dir(),
                is_link: meta.file_type().is_symlink(),
            })),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(IoError::from(e)),
        }
    }

    async fn remove(&self, path: &str) -> Result<(), IoError> {
        match tokio::fs::remove_file(path).await {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(IoError::from(e)),
            _ => Ok(()),
        }
    }
}

/// Milliseconds since the Unix epoch.
fn millis(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Now, as [`GcOptions::now_ms`] wants it.
pub fn now_ms() -> u64 {
    millis(SystemTime::now())
}

/// Collect our files under `dir` (a user-data directory or a batch output directory) as
/// `options` say (see [`tool_offload_core::gc`]); `options.now_ms` of 0 means now.
///
/// ```no_run
/// use tool_offload::{gc_dir, GcOptions};
/// # async fn demo() -> Result<(), tool_offload::OffloadError> {
/// let week = 7 * 24 * 3600 * 1000;
/// let report = gc_dir("/var/lib/agent", &GcOptions { older_than_ms: Some(week), ..GcOptions::default() }).await?;
/// println!("removed {} files, {} bytes", report.removed.len(), report.bytes);
/// # Ok(()) }
/// ```
///
/// # Errors
/// `READ_FAILED` when the tree cannot be listed, `WRITE_FAILED` when a removal fails,
/// `INVALID_ARGUMENT` for a path that is not UTF-8.
pub async fn gc_dir(dir: impl AsRef<Path>, options: &GcOptions) -> Result<GcReport, OffloadError> {
    gc_dir_with(dir, options, &TokioFileWriter::new()).await
}

/// [`gc_dir`] through any IO.
///
/// # Errors
/// As [`gc_dir`].
pub async fn gc_dir_with<IO>(
    dir: impl AsRef<Path>,
    options: &GcOptions,
    io: &IO,
) -> Result<GcReport, OffloadError>
where
    IO: FileReader + FileWriter + FileLifecycle + ?Sized,
{
    let dir = utf8(dir.as_ref(), "directory")?;
    let mut options = options.clone();
    if options.now_ms == 0 {
        options.now_ms = now_ms();
    }
    gc::gc(dir, &options, io).await
}

impl Materializer {
    /// Collect under this materializer's user data (every conversation's artifacts) as
    /// `options` say; see [`gc_dir`].
    ///
    /// # Errors
    /// As [`gc_dir`].
    pub async fn gc(&self, options: &GcOptions) -> Result<GcReport, OffloadError> {
        gc_dir_with(&self.core().options().user_data, options, self.io()).await
    }
}
