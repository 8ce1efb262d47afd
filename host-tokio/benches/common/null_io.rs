//! [`NullIo`], shared by the benchmarks that measure compute without file-system cost.

use tool_offload::{CreateOutcome, FileReader, FileWriter, IoError};

/// IO that keeps nothing and finds no file: the core's own work only, without
/// `MemoryWriter`'s copy of every byte. Written data is `black_box`ed so its production
/// is not optimised away.
pub struct NullIo;

impl FileWriter for NullIo {
    async fn mkdir(&self, _: &str) -> Result<(), IoError> {
        Ok(())
    }
    async fn write_file(&self, _: &str, data: &str) -> Result<(), IoError> {
        std::hint::black_box(data);
        Ok(())
    }
    async fn create_file(&self, _: &str, data: &str) -> Result<CreateOutcome, IoError> {
        std::hint::black_box(data);
        Ok(CreateOutcome::Created)
    }
}

impl FileReader for NullIo {
    async fn read_file(&self, _: &str) -> Result<Option<String>, IoError> {
        Ok(None)
    }
    async fn list_dir(&self, _: &str) -> Result<Vec<String>, IoError> {
        Ok(Vec::new())
    }
    async fn size(&self, _: &str) -> Result<Option<u64>, IoError> {
        Ok(None)
    }
    async fn read_range(&self, path: &str, _: u64, _: u64) -> Result<Vec<u8>, IoError> {
        Err(IoError::new(format!("no such file: {path}")))
    }
}

/// IO that records each written file's path and byte length, not its content: what the
/// plain-JS baseline's in-memory writer (`Map.set(path, data)`, which keeps a reference
/// to the string, never a copy) does. Finds no file, so every create succeeds.
#[allow(dead_code)] // only the batch benchmark uses it
#[derive(Default)]
pub struct SizesIo {
    /// Path → byte length of the last write.
    pub files: std::sync::Mutex<std::collections::HashMap<String, usize>>,
}

#[allow(dead_code)]
impl SizesIo {
    fn record(&self, path: &str, data: &str) {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        files.insert(path.to_owned(), data.len());
    }
}

impl FileWriter for SizesIo {
    async fn mkdir(&self, _: &str) -> Result<(), IoError> {
        Ok(())
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.record(path, data);
        Ok(())
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.record(path, data);
        Ok(CreateOutcome::Created)
    }
}

impl FileReader for SizesIo {
    async fn read_file(&self, _: &str) -> Result<Option<String>, IoError> {
        Ok(None)
    }
    async fn list_dir(&self, _: &str) -> Result<Vec<String>, IoError> {
        Ok(Vec::new())
    }
    async fn size(&self, _: &str) -> Result<Option<u64>, IoError> {
        Ok(None)
    }
    async fn read_range(&self, path: &str, _: u64, _: u64) -> Result<Vec<u8>, IoError> {
        Err(IoError::new(format!("no such file: {path}")))
    }
}
