//! The options of method calls (`read`, `grep`, `gc`, `budget`, a registry's `offload`):
//! read from a [`Given`] in the words every host uses.

use super::given::Given;
use super::leaves::{count, id, invalid, string};
use super::redaction::redaction;
use crate::error::OffloadError;
use crate::gc::GcOptions;
use crate::materialize::{
    BudgetOptions, Within, DEFAULT_CONTEXT, DEFAULT_LINES, DEFAULT_MAX_MATCHES,
};
use crate::option_keys::{check_keys, BUDGET_KEYS};
use crate::text::{count_in_range, MAX_COUNT};
use crate::tools::ResultOffload;

/// A call's `options`: an object, or not given (`undefined` or `null`).
///
/// # Errors
/// `INVALID_ARGUMENT` for anything else.
pub fn call_options(options: &Given) -> Result<(), OffloadError> {
    if options.is_absent() || options.is_object() {
        return Ok(());
    }
    Err(invalid(format!(
        "options must be an object when given, got {}",
        options.type_of()
    )))
}

/// A position or a count of a page (a line, a part, an offset, matches, context rows):
/// `default` when not given, else a non-negative integer of at most
/// [`MAX_COUNT`], the same range on every host.
///
/// ```
/// use tool_offload_core::options::{page, Given};
/// assert_eq!(page(&Given::Undefined, "options.limit", 200).unwrap(), 200);
/// let err = page(&Given::Number(f64::NAN), "options.limit", 200).unwrap_err();
/// assert_eq!(err.to_string(), "invalid argument: options.limit must be a non-negative integer, got NaN");
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` for anything else.
pub fn page(value: &Given, name: &str, default: usize) -> Result<usize, OffloadError> {
    let n = match value {
        Given::Undefined => return Ok(default),
        Given::Number(n) => *n,
        _ => f64::NAN,
    };
    count_in_range(n).map_err(|beyond| match beyond {
        true => invalid(format!(
            "{name} must be at most {MAX_COUNT}, got {}",
            value.shown()
        )),
        false => invalid(format!(
            "{name} must be a non-negative integer, got {}",
            value.shown()
        )),
    })
}

/// An optional boolean named `name` (`undefined`: `None`).
///
/// # Errors
/// `INVALID_ARGUMENT` for anything but a boolean or `undefined`.
pub fn flag(value: &Given, name: &str) -> Result<Option<bool>, OffloadError> {
    match value {
        Given::Undefined => Ok(None),
        Given::Bool(b) => Ok(Some(*b)),
        other => Err(invalid(format!(
            "{name} must be a boolean, got {}",
            other.shown()
        ))),
    }
}

/// A non-negative safe integer that may pass 2^32 (bytes, milliseconds), when given.
fn large_count(value: &Given, name: &str) -> Result<Option<u64>, OffloadError> {
    let n = match value {
        Given::Undefined => return Ok(None),
        Given::Number(n) => crate::text::safe_count(*n),
        _ => None,
    };
    n.map(Some).ok_or_else(|| {
        invalid(format!(
            "{name} must be a non-negative integer, got {}",
            value.shown()
        ))
    })
}

/// `read`'s options, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadArgs {
    /// `path`: a JSON path into a `.json` artifact.
    pub path: Option<String>,
    /// `offset`: the first line (0-based).
    pub offset: usize,
    /// `part` (1-based) or `char` (which wins): where in a long line.
    pub within: Within,
    /// `limit`: lines at most.
    pub limit: usize,
}

/// `read(ref, { offset?, limit?, part?, char?, path? })`'s options.
///
/// ```
/// use tool_offload_core::options::{read_args, Given};
/// let args = read_args(&Given::Undefined).unwrap();
/// assert_eq!((args.offset, args.limit), (0, 200));
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` naming the first option that is wrong.
pub fn read_args(options: &Given) -> Result<ReadArgs, OffloadError> {
    call_options(options)?;
    let field = |key: &str| options.field(key);
    let offset = page(field("offset"), "options.offset", 0)?;
    let within = match field("char") {
        Given::Undefined => Within::Part(page(field("part"), "options.part", 1)?),
        at => Within::Char(page(at, "options.char", 0)?),
    };
    let path = field("path");
    Ok(ReadArgs {
        path: super::leaves::optional_string(path, "options.path")?,
        offset,
        within,
        limit: page(field("limit"), "options.limit", DEFAULT_LINES)?,
    })
}

/// `grep`'s options, checked (the pattern is compiled by the caller).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrepArgs {
    /// `context`: lines around each match.
    pub context: usize,
    /// `maxMatches`: matches at most.
    pub max_matches: usize,
    /// `ignoreCase`
    pub ignore_case: bool,
}

/// `grep(ref, pattern, { context?, maxMatches?, ignoreCase? })`'s options.
///
/// ```
/// use tool_offload_core::options::{grep_args, Given};
/// let args = grep_args(&Given::Undefined).unwrap();
/// assert_eq!((args.context, args.max_matches, args.ignore_case), (2, 50, false));
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT` naming the first option that is wrong.
pub fn grep_args(options: &Given) -> Result<GrepArgs, OffloadError> {
    call_options(options)?;
    let field = |key: &str| options.field(key);
    Ok(GrepArgs {
        context: page(field("context"), "options.context", DEFAULT_CONTEXT)?,
        max_matches: page(
            field("maxMatches"),
            "options.maxMatches",
            DEFAULT_MAX_MATCHES,
        )?,
        ignore_case: flag(field("ignoreCase"), "options.ignoreCase")? == Some(true),
    })
}

/// `gc`'s options but `keep` (the host reads its messages): `olderThanMs`, `maxBytes`
/// (at least one), `dryRun`; `now_ms` the host's clock.
///
/// # Errors
/// `INVALID_ARGUMENT` naming the first option that is wrong, or saying what to give.
pub fn gc_options(options: &Given, now_ms: u64) -> Result<GcOptions, OffloadError> {
    call_options(options)?;
    let field = |key: &str| options.field(key);
    let parsed = GcOptions {
        older_than_ms: large_count(field("olderThanMs"), "options.olderThanMs")?,
        max_bytes: large_count(field("maxBytes"), "options.maxBytes")?,
        now_ms,
        ..GcOptions::default()
    };
    if parsed.older_than_ms.is_none() && parsed.max_bytes.is_none() {
        return Err(invalid(
            "say what to remove: options.olderThanMs and/or options.maxBytes".into(),
        ));
    }
    Ok(GcOptions {
        dry_run: flag(field("dryRun"), "options.dryRun")?.unwrap_or(false),
        ..parsed
    })
}

/// `budget`'s options (`{ triggerTokens, keepLast?, clearAtLeastTokens?, excludeTools? }`;
/// `messageTokens`, `countTokens` and `signal` are the host's).
///
/// # Errors
/// `INVALID_ARGUMENT` naming the first option that is wrong.
pub fn budget_options(options: &Given) -> Result<BudgetOptions, OffloadError> {
    call_options(options)?;
    check_keys("options", "budget option", &options.keys(), BUDGET_KEYS)?;
    let field = |key: &str| options.field(key);
    let trigger = field("triggerTokens");
    if trigger.is_undefined() {
        return Err(invalid("budget: triggerTokens is required".into()));
    }
    let mut parsed = BudgetOptions::new(count(trigger, "triggerTokens", 0)?);
    parsed.keep_last = count(field("keepLast"), "keepLast", parsed.keep_last)?;
    parsed.clear_at_least_tokens = count(
        field("clearAtLeastTokens"),
        "clearAtLeastTokens",
        parsed.clear_at_least_tokens,
    )?;
    parsed.exclude_tools = match field("excludeTools") {
        Given::Undefined => Vec::new(),
        value => strings(value).ok_or_else(|| {
            invalid(format!(
                "excludeTools must be an array of strings, got {}",
                value.shown()
            ))
        })?,
    };
    Ok(parsed)
}

/// The strings of an array of strings.
fn strings(value: &Given) -> Option<Vec<String>> {
    let Given::List(items) = value else {
        return None;
    };
    items
        .iter()
        .map(|s| s.as_str().map(str::to_owned))
        .collect()
}

/// A registry's `offload` (`{ outputDir, sessionId, thresholdChars?, cwd?, redact? }`;
/// `writer` is the host's): the middleware, checked. `cwd` is the working directory
/// for the output directory.
///
/// # Errors
/// `INVALID_ARGUMENT` (`INVALID_ID` for the session id) naming the first option that
/// is wrong.
pub fn result_offload<E: From<OffloadError>>(
    offload: &Given,
    cwd: impl FnOnce(&str) -> Result<String, E>,
) -> Result<ResultOffload, E> {
    let field = |key: &str| offload.field(key);
    let output_dir = string(field("outputDir"), "offload.outputDir")?;
    let session_id = match field("sessionId") {
        Given::Text { .. } => id(field("sessionId"), "sessionId")?,
        other => string(other, "offload.sessionId")?,
    };
    let cwd = cwd(&output_dir)?;
    Ok(offload_fields(
        offload,
        ResultOffload::new(output_dir, session_id, cwd),
    )?)
}

fn offload_fields(
    offload: &Given,
    mut middleware: ResultOffload,
) -> Result<ResultOffload, OffloadError> {
    let field = |key: &str| offload.field(key);
    middleware.threshold_chars = count(
        field("thresholdChars"),
        "offload.thresholdChars",
        middleware.threshold_chars,
    )?;
    middleware.redact = redaction(field("redact"), "offload.redact")?;
    middleware.validate()?;
    Ok(middleware)
}
