//! The working directory a path resolves against, and paths as UTF-8.

use std::path::Path;

use tool_offload_core::OffloadError;

/// The directory `path` resolves against: the process's working directory, read only
/// when `path` is relative (so a deleted working directory does not break absolute
/// paths). Pass it as the `cwd` of core's functions.
///
/// ```
/// assert_eq!(tool_offload::working_dir_for("/var/out").unwrap(), "/");
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` when the working directory cannot be read or is not UTF-8.
pub fn working_dir_for(path: &str) -> Result<String, OffloadError> {
    if path.starts_with('/') {
        return Ok("/".into());
    }
    let cwd = std::env::current_dir().map_err(|e| {
        OffloadError::InvalidArgument(format!("cannot read the working directory: {e}"))
    })?;
    utf8(&cwd, "working directory").map(str::to_owned)
}

/// An empty `cwd` in core's options (their `at` constructors) filled with the directory
/// `path` resolves against.
pub(crate) fn fill_cwd(cwd: &mut String, path: &str) -> Result<(), OffloadError> {
    if cwd.is_empty() {
        *cwd = working_dir_for(path)?;
    }
    Ok(())
}

pub(crate) fn utf8<'a>(path: &'a Path, what: &str) -> Result<&'a str, OffloadError> {
    path.to_str().ok_or_else(|| {
        OffloadError::InvalidArgument(format!("{what} is not valid UTF-8: {}", path.display()))
    })
}
