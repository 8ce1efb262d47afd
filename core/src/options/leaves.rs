//! One option value each: counts, strings, ids and lists of names, refused in the
//! words every host uses (`options.maxInlineBytes must be a non-negative integer, got
//! 1.5`).

use super::given::Given;
use crate::error::OffloadError;
use crate::path::LONE_SURROGATE;
use crate::text::safe_count;

pub(crate) fn invalid(message: String) -> OffloadError {
    OffloadError::InvalidArgument(message)
}

/// A count named `name`: `default` when not given (`undefined`), else a non-negative
/// safe integer; one beyond `usize` means "no limit" (`usize::MAX`).
///
/// ```
/// use tool_offload_core::options::{count, Given};
/// assert_eq!(count(&Given::Undefined, "options.n", 7).unwrap(), 7);
/// assert_eq!(count(&Given::Number(3.0), "options.n", 7).unwrap(), 3);
/// let err = count(&Given::Number(1.5), "options.n", 7).unwrap_err();
/// assert_eq!(err.to_string(), "invalid argument: options.n must be a non-negative integer, got 1.5");
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` for anything but a non-negative safe integer (`null` included).
pub fn count(value: &Given, name: &str, default: usize) -> Result<usize, OffloadError> {
    Ok(optional_count(value, name)?.unwrap_or(default))
}

/// Each `(key, slot)`: `options.<key>` read as a [`count`] over the slot's value, in
/// order (the first wrong one is the error).
///
/// ```
/// use tool_offload_core::options::{counts, Given};
/// let options = Given::Object(vec![("b".into(), Given::Number(3.0))]);
/// let (mut a, mut b) = (1, 2);
/// counts(&options, &mut [("a", &mut a), ("b", &mut b)]).unwrap();
/// assert_eq!((a, b), (1, 3));
/// ```
///
/// # Errors
/// As [`count`], naming `options.<key>`.
pub fn counts(options: &Given, slots: &mut [(&str, &mut usize)]) -> Result<(), OffloadError> {
    for (key, slot) in slots {
        **slot = count(options.field(key), &format!("options.{key}"), **slot)?;
    }
    Ok(())
}

/// [`count`] with no default: `None` when not given.
///
/// # Errors
/// As [`count`].
pub fn optional_count(value: &Given, name: &str) -> Result<Option<usize>, OffloadError> {
    if value.is_undefined() {
        return Ok(None);
    }
    match value {
        Given::Number(n) => safe_count(*n),
        _ => None,
    }
    // Saturating, not `as`: that would wrap 2^32 + 1 round to 1 on wasm32.
    .map(|n| Some(usize::try_from(n).unwrap_or(usize::MAX)))
    .ok_or_else(|| {
        invalid(format!(
            "{name} must be a non-negative integer, got {}",
            value.shown()
        ))
    })
}

/// A required string named `name` (`options.root must be a string, got number`).
///
/// # Errors
/// `INVALID_ARGUMENT` for anything but a string.
pub fn string(value: &Given, name: &str) -> Result<String, OffloadError> {
    value
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| invalid(format!("{name} must be a string, got {}", value.type_of())))
}

/// An optional string named `name`: `None` when `undefined` or `null`.
///
/// # Errors
/// `INVALID_ARGUMENT` for anything but a string, `undefined` or `null`.
pub fn optional_string(value: &Given, name: &str) -> Result<Option<String>, OffloadError> {
    if value.is_absent() {
        return Ok(None);
    }
    value.as_str().map(|s| Some(s.to_owned())).ok_or_else(|| {
        invalid(format!(
            "{name} must be a string when given, got {}",
            value.type_of()
        ))
    })
}

/// An id (`conversationId`, `namespace`): a string without a lone surrogate, else
/// `INVALID_ID` naming `field`. Whether it can name a file is the product's check.
///
/// # Errors
/// `INVALID_ID`: missing, not a string, or holding a lone UTF-16 surrogate.
pub fn id(value: &Given, field: &str) -> Result<String, OffloadError> {
    let reason = match value {
        Given::Text {
            text,
            well_formed: true,
        } => return Ok(text.clone()),
        Given::Text { .. } => LONE_SURROGATE,
        Given::Undefined => "is missing",
        _ => "must be a string",
    };
    Err(OffloadError::InvalidId {
        field: field.into(),
        value: None,
        reason,
    })
}

/// The working directory relative paths resolve against: `options.cwd`, else `/` for
/// an absolute `dir`, else the host's (`host_cwd`: Node's `process.cwd()`; `None` where
/// there is none, a browser, which is `/` too).
///
/// ```
/// use tool_offload_core::options::{working_dir, Given};
/// use tool_offload_core::OffloadError;
/// let host = || Ok::<_, OffloadError>(Some("/home".to_owned()));
/// assert_eq!(working_dir(&Given::Undefined, "out", host).unwrap(), "/home");
/// assert_eq!(working_dir(&Given::Undefined, "/out", host).unwrap(), "/");
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` when `options.cwd` is given and not a string; what `host_cwd`
/// returns.
pub fn working_dir<E: From<OffloadError>>(
    options: &Given,
    dir: &str,
    host_cwd: impl FnOnce() -> Result<Option<String>, E>,
) -> Result<String, E> {
    let cwd = options.field("cwd");
    if !cwd.is_undefined() {
        return Ok(string(cwd, "options.cwd")?);
    }
    if dir.starts_with('/') {
        return Ok("/".into());
    }
    Ok(host_cwd()?.unwrap_or_else(|| "/".into()))
}

/// Refuses an options object (not an object, or a key no reader knows) before any
/// field is read: `what` names the object's shape in the first message.
pub(crate) fn object_with(
    options: &Given,
    shape: &str,
    what: &str,
    known: &[&str],
) -> Result<(), OffloadError> {
    if !options.is_object() {
        return Err(invalid(format!(
            "options must be an object with {shape}, got {}",
            options.type_of()
        )));
    }
    crate::option_keys::check_keys("options", what, &options.keys(), known)
}
