//! Where a Materializer, Workspace or offload keeps its files: the local file system, or
//! (feature `object-store`) an object store named by a URL, `s3://bucket/prefix`, whose
//! credentials, region and endpoint come from the standard `AWS_*` environment — the
//! CLI's `--user-data s3://…` (cli/src/location.rs), through the tokio host's
//! `ObjectStoreIo`. Given as the location itself (`Materializer("s3://b/p", …)`: the
//! prefix's root, `/`) or as `storage=` beside a path inside the store (as the npm
//! package's `userData` beside `writer: new S3Io(…)`).

use pyo3::prelude::*;
#[cfg(feature = "object-store")]
use tool_offload::ObjectStoreIo;
use tool_offload::{
    CreateOutcome, FileLifecycle, FileReader, FileStat, FileWriter, IoError, TokioFileWriter,
};

use crate::bridge::invalid;

/// The IO of a location.
#[derive(Clone)]
pub(crate) enum Storage {
    /// Files on this machine.
    Files(TokioFileWriter),
    /// Objects under a prefix of a store.
    #[cfg(feature = "object-store")]
    Objects(ObjectStoreIo),
}

/// A location resolved: its IO, when not local files, and the directory the library
/// sees through it.
pub(crate) struct Location {
    /// `None` for local files.
    #[cfg(feature = "object-store")]
    pub(crate) store: Option<ObjectStoreIo>,
    /// The directory: `path` itself, or `/` for a store's URL given as the location.
    pub(crate) dir: String,
    /// Whether it is in an object store.
    pub(crate) remote: bool,
}

impl Location {
    /// `path` (the argument `what`) in `storage` (a store's URL, or `None`): a `path`
    /// with a scheme (`s3://…`) names a store itself, its prefix's root being the
    /// directory.
    pub(crate) fn parse(
        py: Python<'_>,
        what: &str,
        path: &str,
        storage: Option<&str>,
    ) -> PyResult<Location> {
        let (url, dir) = match (path.contains("://"), storage) {
            (true, Some(_)) => {
                let message = format!("{what} {path:?} is a URL: give storage= or a URL, not both");
                return Err(invalid(py, &message));
            }
            (true, None) => (Some(path), "/"),
            (false, url) => (url, path),
        };
        let dir = dir.to_owned();
        match url {
            None => Ok(Location {
                #[cfg(feature = "object-store")]
                store: None,
                dir,
                remote: false,
            }),
            Some(url) => Self::store(py, what, url, dir),
        }
    }

    #[cfg(feature = "object-store")]
    fn store(py: Python<'_>, what: &str, url: &str, dir: String) -> PyResult<Location> {
        let io = ObjectStoreIo::from_url(url)
            .map_err(|e| invalid(py, &format!("{what} storage {url}: {e}")))?;
        Ok(Location {
            store: Some(io),
            dir,
            remote: true,
        })
    }

    #[cfg(not(feature = "object-store"))]
    fn store(py: Python<'_>, what: &str, url: &str, _dir: String) -> PyResult<Location> {
        let message = format!(
            "{what} storage {url}: object stores need the extension built with the feature \
             object-store (on by default)"
        );
        Err(invalid(py, &message))
    }

    /// The directory, a relative one in a store taken from the store's root (this
    /// process's working directory means nothing there).
    pub(crate) fn rooted(&self) -> String {
        match self.remote && !self.dir.starts_with('/') {
            true => format!("/{}", self.dir),
            false => self.dir.clone(),
        }
    }

    /// The working directory a relative path resolves against: `cwd` when given, else
    /// the store's root, or (`None`) this process's for local files.
    pub(crate) fn cwd(&self, cwd: Option<String>) -> Option<String> {
        cwd.or_else(|| self.remote.then(|| "/".to_owned()))
    }

    /// The IO: the store's, else local files.
    pub(crate) fn io(&self) -> Storage {
        #[cfg(feature = "object-store")]
        if let Some(io) = &self.store {
            return Storage::Objects(io.clone());
        }
        Storage::Files(TokioFileWriter::new())
    }
}

/// `match` on a two-storage enum (`$kind::Files` and, with the feature, `$kind::Objects`),
/// `$x` bound to the content in each arm.
macro_rules! each {
    ($kind:ident, $value:expr, $x:ident => $body:expr) => {
        match $value {
            $kind::Files($x) => $body,
            #[cfg(feature = "object-store")]
            $kind::Objects($x) => $body,
        }
    };
}
pub(crate) use each;

/// Each IO method of [`Storage`] forwards to the location's own IO.
macro_rules! forward {
    ($(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $out:ty;)*) => {$(
        async fn $name(&self $(, $arg: $ty)*) -> Result<$out, IoError> {
            each!(Storage, self, io => io.$name($($arg),*).await)
        }
    )*};
}

impl FileWriter for Storage {
    forward! {
        fn mkdir(&self, dir: &str) -> ();
        fn write_file(&self, path: &str, data: &str) -> ();
        fn create_file(&self, path: &str, data: &str) -> CreateOutcome;
        fn create_bytes(&self, path: &str, data: &[u8]) -> CreateOutcome;
    }
}

impl FileReader for Storage {
    forward! {
        fn read_file(&self, path: &str) -> Option<String>;
        fn list_dir(&self, dir: &str) -> Vec<String>;
        fn size(&self, path: &str) -> Option<u64>;
        fn read_range(&self, path: &str, start: u64, end: u64) -> Vec<u8>;
    }
}

impl FileLifecycle for Storage {
    forward! {
        fn stat(&self, path: &str) -> Option<FileStat>;
        fn remove(&self, path: &str) -> ();
    }
}
