//! Virtual absolute paths (`/context/c1/artifacts/a.txt`) as object keys under a prefix.
//!
//! The core hands every IO call an absolute `/`-separated path. Object stores have no
//! directories and no `..`, so a path is mapped segment by segment: empty segments
//! (`//`, a trailing `/`) are skipped as a file system would, and `.` or `..` is refused
//! before any request is made, so no key outside the prefix can ever be formed. Each
//! segment is encoded as `object_store`'s `PathPart` encodes it (percent-encoding of
//! control characters, `%` and the characters S3 and GCS advise against), so every name
//! the core can write has a key, and listing decodes it back.

use object_store::path::{Path, PathPart};

/// What an [`ObjectStoreIo`](super::ObjectStoreIo) refuses or reports, wrapped in the
/// [`IoError`](tool_offload_core::IoError) every IO method returns (its `source`).
///
/// ```
/// use tool_offload::ObjectStoreIoError;
/// let err = ObjectStoreIoError::OutsidePrefix("/a/../../etc".into());
/// assert_eq!(err.to_string(), "path leaves the object store prefix: /a/../../etc");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ObjectStoreIoError {
    /// The path has a `.` or `..` segment: it could name a key outside the prefix.
    #[error("path leaves the object store prefix: {0}")]
    OutsidePrefix(String),
    /// The path is not absolute or cannot be an object key.
    #[error("not a valid object store path: {0}")]
    InvalidPath(String),
    /// The location could not be parsed or configured (`s3://bucket/prefix`, …).
    #[error("invalid object store location {location}: {reason}")]
    InvalidLocation {
        /// The location as given.
        location: String,
        /// Why it was refused.
        reason: String,
    },
    /// The store refused or failed a request (network, credentials, throttling after
    /// the store's retries, a missing object where one is required).
    #[error("object store: {0}")]
    Store(#[from] object_store::Error),
    /// A file read whole (`read_file`) is not UTF-8.
    #[error("{path} is not valid UTF-8")]
    NotUtf8 {
        /// The virtual path read.
        path: String,
    },
}

/// The key of `path` (absolute, `/`-separated) under `prefix`.
pub(crate) fn key_for(prefix: &Path, path: &str) -> Result<Path, ObjectStoreIoError> {
    // "" is the root too: "/" with its trailing separator cut, as directory walks do.
    let rest = match path.strip_prefix('/') {
        Some(rest) => rest,
        None if path.is_empty() => "",
        None => return Err(ObjectStoreIoError::InvalidPath(path.to_owned())),
    };
    let mut parts: Vec<PathPart<'_>> = prefix.parts().collect();
    for segment in rest.split('/').filter(|s| !s.is_empty()) {
        if segment == "." || segment == ".." {
            return Err(ObjectStoreIoError::OutsidePrefix(path.to_owned()));
        }
        parts.push(PathPart::from(segment));
    }
    Ok(Path::from_iter(parts))
}

/// The name a key's last segment stands for (the inverse of its encoding).
pub(crate) fn decoded_name(part: &str) -> String {
    percent_encoding::percent_decode_str(part)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_under_the_prefix() {
        let prefix = Path::parse("team/agents").unwrap();
        let key = |p| key_for(&prefix, p).map(|k| k.to_string());
        assert_eq!(key("/a/b.txt").unwrap(), "team/agents/a/b.txt");
        assert_eq!(key("/a//b/").unwrap(), "team/agents/a/b");
        assert_eq!(key("/").unwrap(), "team/agents");
        let root = Path::default();
        assert_eq!(key_for(&root, "/x").unwrap().to_string(), "x");
        assert_eq!(key_for(&root, "/").unwrap().to_string(), "");
        let odd = key_for(&root, "/a 50%/tab\there").unwrap();
        assert_eq!(odd.to_string(), "a 50%25/tab%09here");
        assert_eq!(decoded_name(odd.filename().unwrap()), "tab\there");
    }

    #[test]
    fn nothing_outside_the_prefix() {
        let prefix = Path::parse("p").unwrap();
        for bad in ["/../x", "/a/../../x", "/a/./b", "/.."] {
            assert!(matches!(
                key_for(&prefix, bad),
                Err(ObjectStoreIoError::OutsidePrefix(_))
            ));
        }
        assert_eq!(key_for(&prefix, "").unwrap().to_string(), "p");
        for bad in ["relative/x", "a/../../x"] {
            assert!(matches!(
                key_for(&prefix, bad),
                Err(ObjectStoreIoError::InvalidPath(_))
            ));
        }
    }
}
