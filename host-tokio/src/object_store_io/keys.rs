//! Virtual absolute paths (`/context/c1/artifacts/a.txt`) as object keys under a prefix.
//!
//! The mapping is the core's ([`tool_offload_core::object_key`], the one the npm
//! package's `S3Io` uses too): empty segments skipped, `.` and `..` refused before any
//! request, each segment percent-encoded as `object_store`'s `PathPart` encodes it. Here
//! its key only becomes an `object_store` [`Path`], verbatim (never encoded twice).

use object_store::path::Path;
use tool_offload_core::object_key::{self, ObjectKeyError};

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

impl From<ObjectKeyError> for ObjectStoreIoError {
    fn from(err: ObjectKeyError) -> Self {
        match err {
            ObjectKeyError::OutsidePrefix(path) => ObjectStoreIoError::OutsidePrefix(path),
            ObjectKeyError::InvalidPrefix { prefix, reason } => {
                ObjectStoreIoError::InvalidLocation {
                    location: prefix,
                    reason,
                }
            }
            ObjectKeyError::InvalidPath(path) => ObjectStoreIoError::InvalidPath(path),
            other => ObjectStoreIoError::InvalidPath(other.to_string()),
        }
    }
}

/// `prefix` (as [`object_key::parse_key_prefix`] checks it) as a [`Path`].
pub(crate) fn parse_prefix(prefix: &str) -> Result<Path, ObjectStoreIoError> {
    verbatim(object_key::parse_key_prefix(prefix)?)
}

/// The key of `path` (absolute, `/`-separated) under `prefix`.
pub(crate) fn key_for(prefix: &Path, path: &str) -> Result<Path, ObjectStoreIoError> {
    verbatim(&object_key::object_key(prefix.as_ref(), path)?)
}

/// A key already encoded as a [`Path`], as it is: `Path::parse` keeps its text and only
/// checks it (no empty, `.` or `..` part, no control character), which every key the
/// core forms passes. (`Path::from` would encode each part a second time.)
fn verbatim(key: &str) -> Result<Path, ObjectStoreIoError> {
    Path::parse(key).map_err(|_| ObjectStoreIoError::InvalidPath(key.to_owned()))
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
        assert_eq!(
            object_key::decode_key_segment(odd.filename().unwrap()),
            "tab\there"
        );
    }

    /// The core encodes a segment as this `object_store` version's `PathPart` does,
    /// byte for byte, so keys written before the core owned the mapping still match.
    #[test]
    fn the_core_encodes_as_path_part_does() {
        use object_store::path::PathPart;
        let mut names: Vec<String> = (1u8..=0x7f).map(|b| String::from(char::from(b))).collect();
        names.extend(["é", "😀 50%", "a b?c#d", "\u{80}\u{FFFF}", "%41", "..."].map(String::from));
        // ("." and ".." never reach the encoding: paths with them are refused.)
        for name in names.into_iter().filter(|n| n != ".") {
            let ours = object_key::encode_key_segment(&name);
            assert_eq!(ours, PathPart::from(name.as_str()).as_ref(), "{name:?}");
            assert_eq!(object_key::decode_key_segment(&ours), name);
        }
    }

    #[test]
    fn prefixes_are_the_cores() {
        assert_eq!(
            parse_prefix("/team/agents/").unwrap().as_ref(),
            "team/agents"
        );
        assert_eq!(parse_prefix("a 50%").unwrap().as_ref(), "a 50%");
        assert_eq!(
            parse_prefix("a//b").unwrap_err().to_string(),
            r#"invalid object store location a//b: bad segment """#
        );
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
