//! The writer behind the extension's offloads: the tokio host's, optionally failing on
//! one path (`failOn`: the conformance vectors' `WRITE_FAILED` cases; `None` in use).

use tool_offload::{CreateOutcome, FileReader, FileWriter, IoError, TokioFileWriter};

/// A [`TokioFileWriter`] that fails with `injected failure` on `fail_on` (a file, or a
/// directory to create).
#[derive(Default)]
pub(crate) struct Writer {
    inner: TokioFileWriter,
    fail_on: Option<String>,
}

impl Writer {
    pub(crate) fn failing_on(fail_on: Option<String>) -> Self {
        Writer {
            inner: TokioFileWriter::new(),
            fail_on,
        }
    }

    fn check(&self, path: &str) -> Result<(), IoError> {
        match self.fail_on.as_deref() == Some(path) {
            true => Err(IoError::new("injected failure")),
            false => Ok(()),
        }
    }
}

impl FileWriter for Writer {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.check(dir)?;
        self.inner.mkdir(dir).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.check(path)?;
        self.inner.write_file(path, data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.check(path)?;
        self.inner.create_file(path, data).await
    }
    async fn create_bytes(&self, path: &str, data: &[u8]) -> Result<CreateOutcome, IoError> {
        self.check(path)?;
        self.inner.create_bytes(path, data).await
    }
}

impl FileReader for Writer {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.inner.read_file(path).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.inner.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.inner.size(path).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.inner.read_range(path, start, end).await
    }
}
