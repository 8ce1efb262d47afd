//! Where artifacts live: a directory (`--out DIR`, `--user-data DIR`) or an object store
//! named by a URL (`s3://bucket/prefix`; credentials, region and endpoint from the
//! standard `AWS_*` environment), through one IO the commands hand to the library.

use std::path::Path;

use tool_offload::{
    CreateOutcome, FileReader, FileWriter, IoError, ObjectStoreIo, TokioFileWriter,
};

use crate::error::CliError;

/// The IO of a location.
#[derive(Debug, Clone)]
pub enum LocationIo {
    /// Files on this machine.
    Files(TokioFileWriter),
    /// Objects under a prefix of a store.
    Objects(ObjectStoreIo),
}

/// A location resolved: its IO and the directory the library writes under through it.
pub struct Location {
    /// The IO.
    pub io: LocationIo,
    /// The directory as the library sees it: `DIR` itself, or `/` for a store (the
    /// prefix's root).
    pub dir: String,
    /// Whether it is an object store.
    pub remote: bool,
}

impl Location {
    /// `arg` (the value of `flag`) as a location: a URL with a scheme names a store.
    pub fn parse(flag: &str, arg: &Path) -> Result<Location, CliError> {
        let text = arg.to_str().ok_or_else(|| {
            CliError::bad_input(format!("{flag} {}: not valid UTF-8", arg.display()))
        })?;
        if !text.contains("://") {
            return Ok(Location {
                io: LocationIo::Files(TokioFileWriter::new()),
                dir: text.to_owned(),
                remote: false,
            });
        }
        let io = ObjectStoreIo::from_url(text)
            .map_err(|e| CliError::bad_input(format!("{flag} {text}: {e}")))?;
        Ok(Location {
            io: LocationIo::Objects(io),
            dir: "/".to_owned(),
            remote: true,
        })
    }
}

impl FileWriter for LocationIo {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        match self {
            LocationIo::Files(io) => io.mkdir(dir).await,
            LocationIo::Objects(io) => io.mkdir(dir).await,
        }
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        match self {
            LocationIo::Files(io) => io.write_file(path, data).await,
            LocationIo::Objects(io) => io.write_file(path, data).await,
        }
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        match self {
            LocationIo::Files(io) => io.create_file(path, data).await,
            LocationIo::Objects(io) => io.create_file(path, data).await,
        }
    }
}

impl FileReader for LocationIo {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        match self {
            LocationIo::Files(io) => io.read_file(path).await,
            LocationIo::Objects(io) => io.read_file(path).await,
        }
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        match self {
            LocationIo::Files(io) => io.list_dir(dir).await,
            LocationIo::Objects(io) => io.list_dir(dir).await,
        }
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        match self {
            LocationIo::Files(io) => io.size(path).await,
            LocationIo::Objects(io) => io.size(path).await,
        }
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        match self {
            LocationIo::Files(io) => io.read_range(path, start, end).await,
            LocationIo::Objects(io) => io.read_range(path, start, end).await,
        }
    }
}
