//! Path handling without IO: POSIX `path.resolve` semantics and file-name validation,
//! so that every host computes the same absolute paths and refuses the same names.

use crate::error::OffloadError;

/// The longest file name (in UTF-8 bytes) that common file systems accept.
pub const MAX_FILE_NAME_BYTES: usize = 255;

/// Resolve `path` against the absolute directory `cwd`, like Node's
/// `path.posix.resolve(cwd, path)`: `.` and empty segments vanish, `..` climbs (never
/// above `/`), and no trailing slash remains.
///
/// ```
/// use tool_offload_core::path::resolve;
/// assert_eq!(resolve("/work", "out").unwrap(), "/work/out");
/// assert_eq!(resolve("/work", "./a/../b/").unwrap(), "/work/b");
/// assert_eq!(resolve("/work", "/tmp//x").unwrap(), "/tmp/x");
/// assert_eq!(resolve("/work", "").unwrap(), "/work");
/// assert_eq!(resolve("/", "../..").unwrap(), "/");
/// assert!(resolve("work", "out").is_err()); // cwd must be absolute
/// ```
pub fn resolve(cwd: &str, path: &str) -> Result<String, OffloadError> {
    if !cwd.starts_with('/') {
        return Err(OffloadError::InvalidArgument(format!(
            "working directory must be an absolute path, got {cwd:?}"
        )));
    }
    if path.contains('\0') || cwd.contains('\0') {
        return Err(OffloadError::InvalidArgument(
            "a path must not contain a NUL character".into(),
        ));
    }
    let start = if path.starts_with('/') { "" } else { cwd };
    let mut parts: Vec<&str> = Vec::new();
    for segment in start.split('/').chain(path.split('/')) {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    let mut out = String::with_capacity(start.len() + path.len() + 1);
    for part in &parts {
        out.push('/');
        out.push_str(part);
    }
    if out.is_empty() {
        out.push('/');
    }
    Ok(out)
}

/// `dir/name`, for an absolute normalised `dir` and a validated `name`.
///
/// ```
/// use tool_offload_core::path::join;
/// assert_eq!(join("/out", "a.md"), "/out/a.md");
/// assert_eq!(join("/", "a.md"), "/a.md");
/// ```
pub fn join(dir: &str, name: &str) -> String {
    let separator = if dir.ends_with('/') { "" } else { "/" };
    // One allocation of the exact size (`format!` estimates, then regrows).
    [dir, separator, name].concat()
}

/// Why an id holding a lone UTF-16 surrogate is refused (`INVALID_ID`): no file name
/// can hold one, and writing it as U+FFFD would give two different ids one file.
/// Only host strings (JavaScript) can hold one; the CLI reads escaped ones from JSON.
///
/// ```
/// assert_eq!(tool_offload_core::path::LONE_SURROGATE, "contains a lone UTF-16 surrogate");
/// ```
pub const LONE_SURROGATE: &str = "contains a lone UTF-16 surrogate";

/// Why `value` cannot be used as one path component of a file name in which
/// `name_bytes` more bytes surround it; `None` when it is safe. Safe values are used
/// unchanged.
///
/// ```
/// use tool_offload_core::path::unsafe_component;
/// assert_eq!(unsafe_component("toolu_01A", 3), None);
/// assert_eq!(unsafe_component("..", 3), Some("is a relative path component (\".\" or \"..\")"));
/// assert_eq!(unsafe_component("a/b", 3), Some("contains \"/\""));
/// ```
pub fn unsafe_component(value: &str, name_bytes: usize) -> Option<&'static str> {
    if value.is_empty() {
        Some("is empty")
    } else if value == "." || value == ".." {
        Some("is a relative path component (\".\" or \"..\")")
    } else if value.contains('/') {
        Some("contains \"/\"")
    } else if value.contains('\\') {
        Some("contains \"\\\"")
    } else if value.contains('\0') {
        Some("contains a NUL character")
    } else if value.len() + name_bytes > MAX_FILE_NAME_BYTES {
        Some("makes a file name longer than 255 bytes")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_matches_node_posix_resolve() {
        // Expected values are what Node's path.posix.resolve returns.
        let cases = [
            ("/a/b", "c", "/a/b/c"),
            ("/a/b", "../../../c", "/c"),
            ("/a/b/", "./", "/a/b"),
            ("/a/b", "/", "/"),
            ("/a/b", "c/./d/../e", "/a/b/c/e"),
            ("/", "", "/"),
            ("/a", "...", "/a/..."),
        ];
        for (cwd, path, want) in cases {
            assert_eq!(resolve(cwd, path).unwrap(), want, "{cwd} + {path}");
        }
    }

    #[test]
    fn file_name_limit_counts_utf8_bytes_with_suffix() {
        let at_limit = "a".repeat(252);
        assert_eq!(unsafe_component(&at_limit, 3), None);
        let over = "a".repeat(253);
        assert!(unsafe_component(&over, 3).is_some());
        // 84 × "é" is 168 bytes but 84 characters: bytes are what file systems count.
        let multibyte = "é".repeat(127); // 254 bytes
        assert!(unsafe_component(&multibyte, 3).is_some());
        assert_eq!(unsafe_component(&multibyte, 0), None);
    }

    #[test]
    fn nul_and_backslash_are_refused() {
        assert!(unsafe_component("a\0b", 0).is_some());
        assert!(unsafe_component("a\\b", 0).is_some());
        assert!(resolve("/w", "a\0").is_err());
    }
}
