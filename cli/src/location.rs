//! Where artifacts live: a directory (`--out DIR`, `--user-data DIR`) or an object store
//! named by a URL (`s3://bucket/prefix`; credentials, region and endpoint from the
//! standard `AWS_*` environment), through one IO the commands hand to the library.

use std::path::Path;

#[cfg(feature = "s3")]
use tool_offload::ObjectStoreIo;
use tool_offload::{
    CreateOutcome, FileLifecycle, FileReader, FileStat, FileWriter, IoError, TokioFileWriter,
};

use crate::error::CliError;

/// The IO of a location.
#[derive(Debug, Clone)]
pub enum LocationIo {
    /// Files on this machine.
    Files(TokioFileWriter),
    /// Objects under a prefix of a store.
    #[cfg(feature = "s3")]
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
        Self::store(flag, text)
    }

    #[cfg(feature = "s3")]
    fn store(flag: &str, text: &str) -> Result<Location, CliError> {
        let io = ObjectStoreIo::from_url(text)
            .map_err(|e| CliError::bad_input(format!("{flag} {text}: {e}")))?;
        Ok(Location {
            io: LocationIo::Objects(io),
            dir: "/".to_owned(),
            remote: true,
        })
    }

    #[cfg(not(feature = "s3"))]
    fn store(flag: &str, text: &str) -> Result<Location, CliError> {
        Err(CliError::bad_input(format!(
            "{flag} {text}: object stores need the CLI built with the feature s3 (on by default)"
        )))
    }
}

/// Each IO method of [`LocationIo`] forwards to the location's own IO.
macro_rules! forward {
    ($(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $out:ty;)*) => {$(
        async fn $name(&self $(, $arg: $ty)*) -> Result<$out, IoError> {
            match self {
                LocationIo::Files(io) => io.$name($($arg),*).await,
                #[cfg(feature = "s3")]
                LocationIo::Objects(io) => io.$name($($arg),*).await,
            }
        }
    )*};
}

impl FileWriter for LocationIo {
    forward! {
        fn mkdir(&self, dir: &str) -> ();
        fn write_file(&self, path: &str, data: &str) -> ();
        fn create_file(&self, path: &str, data: &str) -> CreateOutcome;
        fn create_bytes(&self, path: &str, data: &[u8]) -> CreateOutcome;
    }
}

impl FileReader for LocationIo {
    forward! {
        fn read_file(&self, path: &str) -> Option<String>;
        fn list_dir(&self, dir: &str) -> Vec<String>;
        fn size(&self, path: &str) -> Option<u64>;
        fn read_range(&self, path: &str, start: u64, end: u64) -> Vec<u8>;
    }
}

impl FileLifecycle for LocationIo {
    forward! {
        fn stat(&self, path: &str) -> Option<FileStat>;
        fn remove(&self, path: &str) -> ();
    }
}
