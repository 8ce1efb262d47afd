//! Secrets never written: well-known credentials in a tool output — and whatever the
//! user's own patterns match — replaced by `[REDACTED:<kind>]` (or the user's
//! replacement) before it is stored (the `redact` option). The built-in shapes are
//! gitleaks' (`rules`); every pattern runs on core's linear-time engine, so no pattern
//! can run away on any output.

#[cfg(test)]
mod generated_cases;
#[cfg(test)]
mod generated_tests;
#[cfg(test)]
mod lookalike_tests;
#[cfg(test)]
mod lookalikes;
mod rules;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::sync::Arc;

use crate::error::OffloadError;
use crate::grep::pattern::{compile_pattern, Pattern};

/// A secret found: its byte range, and the index of its kind (the built-in rules first,
/// then the user's patterns).
type Span = (usize, usize, usize);

/// The kind index of a span a redaction left, kept as it is.
const LEFT: usize = usize::MAX;

/// Longest kind a user's pattern may name, in bytes.
const MAX_KIND_BYTES: usize = 64;

/// What [`Redaction::apply`] did: the text, and how many secrets of each kind it replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted<'a> {
    /// The text with each secret replaced.
    pub text: Cow<'a, str>,
    /// Kinds replaced, with their counts: the built-in rules' in rule order, then the
    /// user's in the order given.
    pub counts: Vec<(String, usize)>,
}

/// One pattern of the user's, beside the built-in rules: what its matches are called
/// (`[REDACTED:<kind>]`, `"custom"` unless named) and the pattern, in `context_grep`'s
/// syntax (matched within one line; with a capture group, only the group is replaced).
///
/// ```
/// use tool_offload_core::redact::RedactPattern;
/// let p = RedactPattern::new(r"employee-\d{6}").named("employee-id");
/// assert_eq!((p.kind.as_str(), p.ignore_case), ("employee-id", false));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedactPattern {
    /// The kind its matches are counted and marked as.
    pub kind: String,
    /// The pattern.
    pub pattern: String,
    /// Whether ASCII letters match either case (as `(?i)` does).
    pub ignore_case: bool,
}

impl RedactPattern {
    /// `pattern`, of kind `"custom"`, case-sensitive.
    pub fn new(pattern: impl Into<String>) -> Self {
        RedactPattern {
            kind: "custom".into(),
            pattern: pattern.into(),
            ignore_case: false,
        }
    }

    /// The same pattern, of kind `kind`.
    pub fn named(self, kind: impl Into<String>) -> Self {
        RedactPattern {
            kind: kind.into(),
            ..self
        }
    }
}

/// What the `redact` option replaces, and by what: off, the built-in rules, or the
/// built-in rules with the user's patterns and replacement beside them.
///
/// ```
/// use tool_offload_core::redact::{RedactPattern, Redaction};
/// let r = Redaction::with_patterns(vec![RedactPattern::new(r"ACME-[0-9]{8}").named("acme-id")], None).unwrap();
/// let out = r.apply("id ACME-12345678 key AKIAIOSFODNN7EXAMPLE");
/// assert_eq!(out.text, "id [REDACTED:acme-id] key [REDACTED:aws-access-key]");
/// assert_eq!(out.counts, [("aws-access-key".to_owned(), 1), ("acme-id".to_owned(), 1)]);
/// let masked = Redaction::with_patterns(vec![], Some("***".into())).unwrap();
/// assert_eq!(masked.apply("password=hunter22").text, "password=***");
/// assert!(!Redaction::off().is_on() && Redaction::from(true).is_on());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Redaction {
    on: bool,
    /// Shared: options are cloned per call, the compiled patterns need not be.
    patterns: Arc<[(RedactPattern, Pattern)]>,
    replace: Option<String>,
}

impl PartialEq for Redaction {
    fn eq(&self, other: &Self) -> bool {
        self.on == other.on
            && self.replace == other.replace
            && self
                .patterns
                .iter()
                .map(|p| &p.0)
                .eq(other.patterns.iter().map(|p| &p.0))
    }
}

impl Eq for Redaction {}

impl From<bool> for Redaction {
    /// `true`: the built-in rules; `false`: off.
    fn from(on: bool) -> Self {
        match on {
            true => Redaction::builtin(),
            false => Redaction::off(),
        }
    }
}

impl Redaction {
    /// Nothing is redacted (the default).
    pub fn off() -> Self {
        Redaction::default()
    }

    /// The built-in rules, each secret replaced by `[REDACTED:<kind>]`.
    pub fn builtin() -> Self {
        Redaction {
            on: true,
            ..Redaction::default()
        }
    }

    /// The built-in rules and `patterns` after them (a secret an earlier rule or pattern
    /// replaced is not matched again), each secret replaced by `replace` when given,
    /// else by `[REDACTED:<kind>]`.
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` for a kind that is not 1 to 64 ASCII letters, digits, `-`, `_`
    /// or `.`; `INVALID_PATTERN` for a pattern `context_grep` would refuse (bad syntax,
    /// look-around, over 1,000 characters).
    ///
    /// ```
    /// use tool_offload_core::redact::{RedactPattern, Redaction};
    /// let err = Redaction::with_patterns(vec![RedactPattern::new("(?=x)")], None).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid pattern \"(?=x)\": look-around is not supported");
    /// let err = Redaction::with_patterns(vec![RedactPattern::new("x").named("a b")], None).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid argument: redact.patterns[0].kind must be 1 to 64 ASCII letters, digits, '-', '_' or '.', got \"a b\"");
    /// ```
    pub fn with_patterns(
        patterns: Vec<RedactPattern>,
        replace: Option<String>,
    ) -> Result<Self, OffloadError> {
        let mut compiled = Vec::with_capacity(patterns.len());
        for (i, pattern) in patterns.into_iter().enumerate() {
            let kind = &pattern.kind;
            let kind_ok =
                (1..=MAX_KIND_BYTES).contains(&kind.len()) && kind.bytes().all(is_kind_byte);
            if !kind_ok {
                return Err(OffloadError::InvalidArgument(format!(
                    "redact.patterns[{i}].kind must be 1 to 64 ASCII letters, digits, '-', '_' or '.', got {kind:?}"
                )));
            }
            let engine = compile_pattern(&pattern.pattern, pattern.ignore_case)?;
            compiled.push((pattern, engine));
        }
        Ok(Redaction {
            on: true,
            patterns: compiled.into(),
            replace,
        })
    }

    /// Whether anything is redacted.
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// The user's patterns, in order.
    pub fn patterns(&self) -> impl Iterator<Item = &RedactPattern> {
        self.patterns.iter().map(|p| &p.0)
    }

    /// What every secret is replaced by, when not `[REDACTED:<kind>]`.
    pub fn replacement(&self) -> Option<&str> {
        self.replace.as_deref()
    }

    /// Where `kind` comes in [`Redacted::counts`]: the built-in rules first, then the
    /// user's patterns; a kind of neither last.
    pub fn kind_order(&self, kind: &str) -> usize {
        self.kinds().position(|k| k == kind).unwrap_or(usize::MAX)
    }

    fn kinds<'a>(&'a self) -> impl Iterator<Item = &'a str> + 'a {
        let builtin = rules::kinds().map(|kind| -> &'a str { kind });
        builtin.chain(self.patterns().map(|p| p.kind.as_str()))
    }

    /// `text` with its secrets replaced; borrowed when it holds none (or when off).
    pub fn apply<'t>(&self, text: &'t str) -> Redacted<'t> {
        let none = || Redacted {
            text: Cow::Borrowed(text),
            counts: Vec::new(),
        };
        if !self.on {
            return none();
        }
        // What redaction already left (markers, the replacement) is never matched again,
        // whatever a user's pattern says: redacting twice is redacting once.
        let mut found = self.left_by_redaction(text);
        // Masks and references (`****`, `${DB_PASSWORD}`) are no secret to the built-in
        // rules; a user's pattern says for itself what it matches.
        rules::find(text, &mut found, &rules::stands_for_one);
        let first = rules::kinds().count();
        for (i, (_, pattern)) in self.patterns.iter().enumerate() {
            let new = user_matches(text, pattern, &found, first + i);
            merge(&mut found, new);
        }
        if found.iter().all(|&(_, _, index)| index == LEFT) {
            return none();
        }
        let kinds: Vec<&str> = self.kinds().collect();
        let mut out = String::with_capacity(text.len());
        let mut per_kind = vec![0usize; kinds.len()];
        let mut last = 0;
        for &(start, end, index) in &found {
            out.push_str(&text[last..start]);
            last = end;
            if index == LEFT {
                out.push_str(&text[start..end]);
                continue;
            }
            match &self.replace {
                Some(replace) => out.push_str(replace),
                None => {
                    out.push_str("[REDACTED:");
                    out.push_str(kinds[index]);
                    out.push(']');
                }
            }
            per_kind[index] += 1;
        }
        out.push_str(&text[last..]);
        let mut counts: Vec<(String, usize)> = Vec::new();
        for (kind, n) in kinds.iter().zip(per_kind).filter(|&(_, n)| n > 0) {
            add_count(&mut counts, kind, n);
        }
        Redacted {
            text: Cow::Owned(out),
            counts,
        }
    }

    /// The spans of `text` a redaction left: `[REDACTED:<kind>]` markers and, with a
    /// replacement, its occurrences; marked [`LEFT`], sorted, none overlapping.
    fn left_by_redaction(&self, text: &str) -> Vec<Span> {
        let bytes = text.as_bytes();
        let mut left: Vec<Span> = Vec::new();
        for at in memchr::memmem::find_iter(bytes, b"[REDACTED:") {
            let kind = &bytes[at + "[REDACTED:".len()..];
            let len = kind
                .iter()
                .take(MAX_KIND_BYTES + 1)
                .position(|&b| !is_kind_byte(b));
            if let Some(len) = len.filter(|&len| len > 0 && kind[len] == b']') {
                left.push((at, at + "[REDACTED:".len() + len + 1, LEFT));
            }
        }
        if let Some(replace) = self.replace.as_deref().filter(|r| !r.is_empty()) {
            let mut more = Vec::new();
            for at in memchr::memmem::find_iter(bytes, replace.as_bytes()) {
                let span = (at, at + replace.len());
                let after_last = more.last().is_none_or(|&(_, end, _)| end <= at);
                if after_last && !overlaps(&left, span) {
                    more.push((span.0, span.1, LEFT));
                }
            }
            merge(&mut left, more);
        }
        left
    }
}

/// `text` with the built-in rules' secrets replaced by `[REDACTED:<kind>]`; borrowed
/// when it holds none.
///
/// ```
/// use tool_offload_core::redact::redact;
/// let r = redact("export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nDATABASE_URL=postgres://app:s3cr3t-pw@db:5432/app");
/// assert_eq!(r.text, "export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]\nDATABASE_URL=postgres://app:[REDACTED:connection-string-password]@db:5432/app");
/// assert_eq!(r.counts, [("aws-access-key".to_owned(), 1), ("connection-string-password".to_owned(), 1)]);
/// assert!(matches!(redact("nothing to hide").text, std::borrow::Cow::Borrowed(_)));
/// ```
pub fn redact(text: &str) -> Redacted<'_> {
    Redaction::builtin().apply(text)
}

/// Whether `b` may be in a kind's name: an ASCII letter or digit, `-`, `_` or `.`.
fn is_kind_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')
}

/// `more` added to `counts`, kind by kind.
pub(crate) fn add_counts(counts: &mut Vec<(String, usize)>, more: Vec<(String, usize)>) {
    for (kind, n) in more {
        add_count(counts, &kind, n);
    }
}

/// Add `n` secrets of `kind` to `counts`, keeping the order kinds first came in.
fn add_count(counts: &mut Vec<(String, usize)>, kind: &str, n: usize) {
    match counts.iter_mut().find(|(k, _)| k == kind) {
        Some((_, total)) => *total += n,
        None => counts.push((kind.to_owned(), n)),
    }
}

/// The matches of a user's `pattern` in `text`, line by line (the engine's row test
/// rules out lines without one first), that overlap none of `found`; empty matches are
/// none.
fn user_matches(text: &str, pattern: &Pattern, found: &[Span], index: usize) -> Vec<Span> {
    let mut new = Vec::new();
    let mut line_start = 0;
    while line_start < text.len() {
        let line_end = memchr::memchr(b'\n', &text.as_bytes()[line_start..])
            .map_or(text.len(), |i| line_start + i);
        let line = &text[line_start..line_end];
        if pattern.is_match(line) {
            for caps in pattern.regex().captures_iter(line) {
                let Some(secret) = caps.get(1).or_else(|| caps.get(0)) else {
                    continue;
                };
                let span = (line_start + secret.start(), line_start + secret.end());
                if span.0 < span.1 && !overlaps(found, span) {
                    new.push((span.0, span.1, index));
                }
            }
        }
        line_start = line_end + 1;
    }
    new
}

/// Whether `span` overlaps one of `found` (sorted by start, not overlapping).
fn overlaps(found: &[Span], span: (usize, usize)) -> bool {
    let after = found.partition_point(|&(start, _, _)| start < span.1);
    // Only the last secret starting before `span` ends can reach into it.
    after > 0 && found[after - 1].1 > span.0
}

/// Add one rule's `new` secrets (none overlapping `found` or each other) to `found`,
/// kept sorted by start.
fn merge(found: &mut Vec<Span>, new: Vec<Span>) {
    if !new.is_empty() {
        found.extend(new);
        crate::sort::sort_by(found, |a, b| a.0.cmp(&b.0));
    }
}
