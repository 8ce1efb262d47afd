//! Virtual absolute paths (`/context/c1/artifacts/a.txt`) as object-store keys under a
//! prefix: the one mapping every host uses (the `tool-offload` crate's `ObjectStoreIo`,
//! the npm package's `S3Io` through wasm), so workers of either read each other's
//! artifacts. `tests/object-store/keys.json` holds the cases.
//!
//! Object stores have no directories and no `..`, so a path is mapped segment by
//! segment: empty segments (`//`, a trailing `/`) are skipped as a file system would,
//! and `.` or `..` is refused before any request is made, so no key outside the prefix
//! can ever be formed. Each segment is percent-encoded exactly as the `object_store`
//! crate's `PathPart` encodes it (control characters, bytes over 0x7F, `%`, the `/`
//! delimiter and the characters S3 and GCS advise against), so every name the core can
//! write has a key, and [`decode_key_segment`] turns a listed key back into the name.
//!
//! ```
//! use tool_offload_core::object_key::{decode_key_segment, object_key, parse_key_prefix};
//!
//! let prefix = parse_key_prefix("/team/agents/").unwrap();
//! assert_eq!(object_key(prefix, "/a 50%/é.txt").unwrap(), "team/agents/a 50%25/%C3%A9.txt");
//! assert_eq!(decode_key_segment("%C3%A9.txt"), "é.txt");
//! ```

/// Why a prefix or a path has no object key. Every one is an `INVALID_ARGUMENT`
/// ([`ObjectKeyError::code`]).
///
/// ```
/// use tool_offload_core::object_key::{object_key, ObjectKeyError};
/// let err = object_key("p", "/a/../../etc").unwrap_err();
/// assert_eq!(err, ObjectKeyError::OutsidePrefix("/a/../../etc".into()));
/// assert_eq!(err.to_string(), "path leaves the object store prefix: /a/../../etc");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ObjectKeyError {
    /// The path has a `.` or `..` segment: it could name a key outside the prefix.
    #[error("path leaves the object store prefix: {0}")]
    OutsidePrefix(String),
    /// The path is neither absolute nor `""` (the root).
    #[error("not a valid object store path: {0}")]
    InvalidPath(String),
    /// The prefix has an empty, `.` or `..` segment, or a control character.
    #[error("invalid object store location {prefix}: {reason}")]
    InvalidPrefix {
        /// The prefix as given.
        prefix: String,
        /// Why it was refused (`bad segment ".."`).
        reason: String,
    },
}

impl ObjectKeyError {
    /// The stable code: always [`ErrorCode::InvalidArgument`](crate::error::ErrorCode::InvalidArgument).
    ///
    /// ```
    /// use tool_offload_core::{object_key::object_key, ErrorCode};
    /// assert_eq!(object_key("", "x").unwrap_err().code(), ErrorCode::InvalidArgument);
    /// ```
    pub fn code(&self) -> crate::error::ErrorCode {
        crate::error::ErrorCode::InvalidArgument
    }
}

/// Whether `object_store`'s `PathPart` percent-encodes `byte`: its `INVALID` set, which
/// is `percent_encoding`'s `CONTROLS` (0x00–0x1F, 0x7F; every byte over 0x7F is always
/// encoded) with `/` and ``\{^}%`]">[~<#|`` (S3's advice) and `*?` (GCS's) added.
fn encoded(byte: u8) -> bool {
    !(0x20..0x7f).contains(&byte) || b"/\\{^}%`]\">[~<#|*?".contains(&byte)
}

/// One path segment as an object key segment: the bytes of its UTF-8 that `object_store`'s
/// `PathPart` encodes become `%XX` (upper-case hex), the rest stay as they are.
///
/// ```
/// use tool_offload_core::object_key::encode_key_segment;
/// assert_eq!(encode_key_segment("a 50%"), "a 50%25");
/// assert_eq!(encode_key_segment("é?"), "%C3%A9%3F");
/// ```
pub fn encode_key_segment(segment: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(segment.len());
    for &byte in segment.as_bytes() {
        if encoded(byte) {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        } else {
            out.push(char::from(byte));
        }
    }
    out
}

/// The name a key segment stands for, the inverse of [`encode_key_segment`]: each `%XX`
/// (either case) is that byte, anything else stays, and bytes that are not UTF-8 read as
/// U+FFFD (one per maximal invalid subpart, as `TextDecoder` and `from_utf8_lossy` read
/// them).
///
/// ```
/// use tool_offload_core::object_key::decode_key_segment;
/// assert_eq!(decode_key_segment("tab%09here"), "tab\there");
/// assert_eq!(decode_key_segment("100%"), "100%");
/// assert_eq!(decode_key_segment("%FF"), "\u{FFFD}");
/// ```
pub fn decode_key_segment(part: &str) -> String {
    let bytes = part.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i..i + 3) {
            Some([b'%', hi, lo]) => hex(*hi).zip(hex(*lo)).map(|(hi, lo)| hi << 4 | lo),
            _ => None,
        };
        if let Some(byte) = escaped {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out)
        .unwrap_or_else(|invalid| String::from_utf8_lossy(invalid.as_bytes()).into_owned())
}

fn hex(digit: u8) -> Option<u8> {
    char::from(digit)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

/// A key prefix as given (`/team/agents/`) with the slashes around it trimmed. It is kept
/// verbatim, not encoded (as `object_store`'s `Path::parse` keeps it), so it must already
/// be a valid key path: no empty, `.` or `..` segment, no control character. `""` is the
/// whole bucket.
///
/// ```
/// use tool_offload_core::object_key::parse_key_prefix;
/// assert_eq!(parse_key_prefix("/team/agents/").unwrap(), "team/agents");
/// assert_eq!(parse_key_prefix("//").unwrap(), "");
/// assert_eq!(
///     parse_key_prefix("a/../b").unwrap_err().to_string(),
///     r#"invalid object store location a/../b: bad segment "..""#,
/// );
/// ```
///
/// # Errors
/// [`ObjectKeyError::InvalidPrefix`] naming the first bad segment.
pub fn parse_key_prefix(prefix: &str) -> Result<&str, ObjectKeyError> {
    let trimmed = prefix.trim_matches('/');
    if trimmed.is_empty() {
        return Ok("");
    }
    let bad = trimmed.split('/').find(|segment| {
        segment.is_empty()
            || *segment == "."
            || *segment == ".."
            || segment.chars().any(|c| c.is_ascii_control())
    });
    match bad {
        Some(segment) => Err(ObjectKeyError::InvalidPrefix {
            prefix: prefix.to_owned(),
            reason: format!("bad segment \"{segment}\""),
        }),
        None => Ok(trimmed),
    }
}

/// The object key of the virtual absolute path `path` under `prefix` (one
/// [`parse_key_prefix`] returned, joined verbatim): empty segments are skipped, each
/// other segment is encoded by [`encode_key_segment`]. `""` and `"/"` are the prefix
/// itself.
///
/// ```
/// use tool_offload_core::object_key::object_key;
/// assert_eq!(object_key("team/agents", "/a//b.txt").unwrap(), "team/agents/a/b.txt");
/// assert_eq!(object_key("", "/q?a=1").unwrap(), "q%3Fa=1");
/// assert!(object_key("p", "/../x").is_err());
/// ```
///
/// # Errors
/// [`ObjectKeyError::OutsidePrefix`] for a `.` or `..` segment,
/// [`ObjectKeyError::InvalidPath`] for a path that is neither absolute nor `""`.
pub fn object_key(prefix: &str, path: &str) -> Result<String, ObjectKeyError> {
    // "" is the root too: "/" with its trailing separator cut, as directory walks do.
    let rest = match path.strip_prefix('/') {
        Some(rest) => rest,
        None if path.is_empty() => "",
        None => return Err(ObjectKeyError::InvalidPath(path.to_owned())),
    };
    let mut key = String::with_capacity(prefix.len() + path.len());
    key.push_str(prefix);
    for segment in rest.split('/').filter(|s| !s.is_empty()) {
        if segment == "." || segment == ".." {
            return Err(ObjectKeyError::OutsidePrefix(path.to_owned()));
        }
        if !key.is_empty() {
            key.push('/');
        }
        key.push_str(&encode_key_segment(segment));
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_under_the_prefix() {
        let key = |p| object_key("team/agents", p);
        assert_eq!(key("/a/b.txt").unwrap(), "team/agents/a/b.txt");
        assert_eq!(key("/a//b/").unwrap(), "team/agents/a/b");
        assert_eq!(key("/").unwrap(), "team/agents");
        assert_eq!(key("").unwrap(), "team/agents");
        assert_eq!(object_key("", "/x").unwrap(), "x");
        assert_eq!(object_key("", "/").unwrap(), "");
        assert_eq!(object_key("", "//a").unwrap(), "a");
        assert_eq!(
            object_key("", "/a 50%/tab\there").unwrap(),
            "a 50%25/tab%09here"
        );
    }

    #[test]
    fn nothing_outside_the_prefix() {
        for bad in ["/../x", "/a/../../x", "/a/./b", "/..", "/a/.", "//.."] {
            assert_eq!(
                object_key("p", bad),
                Err(ObjectKeyError::OutsidePrefix(bad.into()))
            );
        }
        for bad in ["relative/x", "a/../../x", ".", " /a"] {
            assert_eq!(
                object_key("p", bad),
                Err(ObjectKeyError::InvalidPath(bad.into()))
            );
        }
        // Names that only look like `.` or `..` are names.
        assert_eq!(object_key("p", "/.../..a/.b").unwrap(), "p/.../..a/.b");
    }

    #[test]
    fn every_byte_encodes_as_object_store_encodes_it() {
        // object_store's PathPart: CONTROLS plus these; every byte over 0x7F.
        let special = b"/\\{^}%`]\">[~<#|*?";
        for byte in 0u8..=0x7f {
            let want = byte < 0x20 || byte == 0x7f || special.contains(&byte);
            let segment = String::from(char::from(byte));
            let got = encode_key_segment(&segment);
            if want {
                assert_eq!(got, format!("%{byte:02X}"), "{byte:#x}");
            } else {
                assert_eq!(got, segment, "{byte:#x}");
            }
            assert_eq!(decode_key_segment(&got), segment, "{byte:#x}");
        }
        assert_eq!(encode_key_segment("😀"), "%F0%9F%98%80");
        assert_eq!(encode_key_segment("\u{80}"), "%C2%80");
    }

    #[test]
    fn decoding_reads_what_encoding_wrote_and_tolerates_the_rest() {
        for name in ["café/😀 50%", "%41", "a%2", "", "\u{FEFF}x"] {
            assert_eq!(decode_key_segment(&encode_key_segment(name)), name);
        }
        assert_eq!(decode_key_segment("%41%6a%6A"), "Ajj");
        assert_eq!(decode_key_segment("%4"), "%4");
        assert_eq!(decode_key_segment("%zz%"), "%zz%");
        assert_eq!(decode_key_segment("é%"), "é%");
        // Invalid UTF-8: one U+FFFD per maximal invalid subpart.
        assert_eq!(decode_key_segment("a%FFb"), "a\u{FFFD}b");
        assert_eq!(decode_key_segment("%F0%9F%98"), "\u{FFFD}");
        assert_eq!(decode_key_segment("%C3%28"), "\u{FFFD}(");
    }

    #[test]
    fn prefixes_are_checked_and_kept_verbatim() {
        assert_eq!(parse_key_prefix("").unwrap(), "");
        assert_eq!(parse_key_prefix("/").unwrap(), "");
        assert_eq!(parse_key_prefix("//a/b//").unwrap(), "a/b");
        assert_eq!(parse_key_prefix("a 50%/é").unwrap(), "a 50%/é");
        assert_eq!(parse_key_prefix("...").unwrap(), "...");
        for (bad, segment) in [
            ("a//b", ""),
            ("a/./b", "."),
            ("/../", ".."),
            ("a/b\tc", "b\tc"),
            ("x\u{7f}", "x\u{7f}"),
        ] {
            assert_eq!(
                parse_key_prefix(bad),
                Err(ObjectKeyError::InvalidPrefix {
                    prefix: bad.into(),
                    reason: format!("bad segment \"{segment}\""),
                })
            );
        }
    }
}
