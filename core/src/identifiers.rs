//! Identifier-like strings: what a summary's names list shows and what the replay's
//! preview sufficiency counts. One tokenizer: at each
//! position the kinds are tried in the order of [`Kind`], so every span of text is one
//! identifier of one kind at most (a path is not also counted as its file name, its
//! numbers or its snake_case segments). It is the JavaScript regular expression
//! `bench/replay-reference.mjs` spells out, written as a scanner: `\w` is ASCII
//! `[A-Za-z0-9_]`, and every other character, non-ASCII included, is a separator.

use std::collections::HashSet;

use crate::search::find;

/// What an identifier looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A run of `[\w.-]`, a `/`, then `[\w./-]` (at least one), holding a letter or
    /// digit; a final `.` dropped (sentence ends): `src/main.rs`, `/tmp/x`.
    Path,
    /// A name with a known extension, `name(.part)*.ext`, not a call (`console.log(`):
    /// `main.rs`, `index.d.ts`.
    File,
    /// An uppercase run then digits (`E0308`, `TS2322`), an errno name (`ENOENT`), or
    /// all-caps with an underscore (`INVALID_ID`), 4 characters or more.
    Code,
    /// Three digits or more, standing alone.
    Number,
    /// A word of 4 characters or more holding `_` (snake_case) or an inner capital
    /// (camelCase: a lowercase letter or digit followed by a capital).
    Identifier,
}

impl Kind {
    /// The kind's name in reports: `path`, `file`, `code`, `number`, `identifier`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Path => "path",
            Kind::File => "file",
            Kind::Code => "code",
            Kind::Number => "number",
            Kind::Identifier => "identifier",
        }
    }
}

/// The file extensions a [`Kind::File`] ends with, in the order they are tried.
const FILE_EXTENSIONS: &[&str] = &[
    "md", "markdown", "txt", "rst", "rs", "toml", "lock", "json", "jsonl", "yaml", "yml", "js",
    "mjs", "cjs", "ts", "tsx", "jsx", "py", "rb", "go", "java", "kt", "c", "h", "cc", "cpp", "hpp",
    "cs", "swift", "pony", "sh", "bash", "html", "css", "scss", "xml", "csv", "tsv", "sql", "log",
    "ini", "cfg", "conf", "wasm", "patch", "diff", "zip", "gz", "tar", "png", "svg", "pdf",
];

/// The errno names a [`Kind::Code`] may be after its `E`.
const ERRNO_NAMES: &[&str] = &[
    "NOENT",
    "ACCES",
    "EXIST",
    "PERM",
    "INVAL",
    "NOTDIR",
    "ISDIR",
    "NOTEMPTY",
    "ADDRINUSE",
    "CONNREFUSED",
    "CONNRESET",
    "TIMEDOUT",
    "PIPE",
    "AGAIN",
    "BADF",
    "MFILE",
    "NOSPC",
    "ROFS",
    "XDEV",
    "LOOP",
    "NAMETOOLONG",
    "NOTFOUND",
    "NOTSUP",
    "BUSY",
];

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
fn is_word_at(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(|&b| is_word(b))
}
fn is_name(b: u8) -> bool {
    is_word(b) || b == b'-'
}
fn is_path_head(b: u8) -> bool {
    is_word(b) || b == b'.' || b == b'-'
}
fn is_path_tail(b: u8) -> bool {
    is_path_head(b) || b == b'/'
}
/// The end of the run of bytes `keep` accepts from `at`.
fn run(s: &[u8], at: usize, keep: impl Fn(u8) -> bool) -> usize {
    at + s[at..].iter().take_while(|&&b| keep(b)).count()
}

/// The identifiers of `text`, each once, in order of first occurrence, with the kind of
/// that occurrence.
///
/// ```
/// use tool_offload_core::identifiers::{identifiers, Kind};
/// let ids = identifiers("error[E0308] in src/main.rs:42 (parse_args, line 1234; see lib.rs)");
/// let names: Vec<&str> = ids.iter().map(|(id, _)| id.as_str()).collect();
/// assert_eq!(names, ["E0308", "src/main.rs", "parse_args", "1234", "lib.rs"]);
/// assert_eq!(ids[1].1, Kind::Path);
/// ```
pub fn identifiers(text: &str) -> Vec<(String, Kind)> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (range, kind) in spans(text) {
        let id = &text[range];
        if seen.insert(id) {
            out.push((id.to_owned(), kind));
        }
    }
    out
}

/// Every identifier of `text` where it occurs: its byte range and kind, in order (each
/// span of text is one identifier at most).
///
/// ```
/// use tool_offload_core::identifiers::{spans, Kind};
/// let text = "see src/a.rs. then parse_args(src/a.rs)";
/// let found: Vec<_> = spans(text).map(|(r, kind)| (&text[r], kind)).collect();
/// assert_eq!(found, [("src/a.rs", Kind::Path), ("parse_args", Kind::Identifier), ("src/a.rs", Kind::Path)]);
/// ```
pub fn spans(text: &str) -> impl Iterator<Item = (std::ops::Range<usize>, Kind)> + '_ {
    let s = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < s.len() {
            let Some((kind, end)) = match_at(s, at) else {
                at += 1;
                continue;
            };
            let start = at;
            at = end;
            let id = &s[start..end];
            let (keep, end) = match kind {
                Kind::Path => {
                    let end = end - id.iter().rev().take_while(|&&b| b == b'.').count();
                    let id = &s[start..end];
                    (
                        id.iter().any(u8::is_ascii_alphanumeric) && id.contains(&b'/'),
                        end,
                    )
                }
                Kind::Code => (id.len() >= 4, end),
                Kind::Identifier => (
                    id.len() >= 4 && (id.contains(&b'_') || has_inner_capital(id)),
                    end,
                ),
                Kind::File | Kind::Number => (true, end),
            };
            if keep {
                return Some((start..end, kind));
            }
        }
        None
    })
}

fn has_inner_capital(id: &[u8]) -> bool {
    id.windows(2)
        .any(|w| (w[0].is_ascii_lowercase() || w[0].is_ascii_digit()) && w[1].is_ascii_uppercase())
}

/// The first kind matching at `at`, and where its match ends.
fn match_at(s: &[u8], at: usize) -> Option<(Kind, usize)> {
    let after_path_head = at == 0 || !is_path_head(s[at - 1]);
    if after_path_head {
        if let Some(end) = path_at(s, at) {
            return Some((Kind::Path, end));
        }
        if let Some(end) = file_at(s, at) {
            return Some((Kind::File, end));
        }
    }
    // The other kinds start at a word boundary, on a word character.
    if !is_word(s[at]) || (at > 0 && is_word(s[at - 1])) {
        return None;
    }
    let word_end = run(s, at, is_word);
    if let Some(end) = code_at(s, at) {
        return Some((Kind::Code, end));
    }
    let digits = run(s, at, |b| b.is_ascii_digit());
    if digits - at >= 3 && digits == word_end {
        return Some((Kind::Number, digits));
    }
    if s[at].is_ascii_alphabetic() || s[at] == b'_' {
        return Some((Kind::Identifier, word_end));
    }
    None
}

/// `[\w.-]*\/[\w./-]+`
fn path_at(s: &[u8], at: usize) -> Option<usize> {
    let slash = run(s, at, is_path_head);
    (s.get(slash) == Some(&b'/') && s.get(slash + 1).is_some_and(|&b| is_path_tail(b)))
        .then(|| run(s, slash + 1, is_path_tail))
}

/// `[\w-]+(?:\.[\w-]+)*\.(?:ext…)\b(?![(\w-])`: the longest dotted name from `at` whose
/// last segment is a known extension followed by neither `(`, a word character nor `-`.
fn file_at(s: &[u8], at: usize) -> Option<usize> {
    let mut end = run(s, at, is_name);
    if end == at {
        return None;
    }
    let mut best = None;
    while s.get(end) == Some(&b'.') {
        let segment_end = run(s, end + 1, is_name);
        if segment_end == end + 1 {
            break;
        }
        let segment = &s[end + 1..segment_end];
        let next = s.get(segment_end).copied();
        if FILE_EXTENSIONS.iter().any(|e| e.as_bytes() == segment)
            && !next.is_some_and(|b| b == b'(' || is_name(b))
        {
            best = Some(segment_end);
        }
        end = segment_end;
    }
    best
}

/// `\b([A-Z]+[0-9]+|E(?:errno…)|[A-Z][A-Z0-9]*_[A-Z0-9_]+)\b`, the boundary before
/// already checked.
fn code_at(s: &[u8], at: usize) -> Option<usize> {
    let upper = run(s, at, |b| b.is_ascii_uppercase());
    if upper == at {
        return None;
    }
    let digits = run(s, upper, |b| b.is_ascii_digit());
    if digits > upper && !is_word_at(s, digits) {
        return Some(digits);
    }
    if s[at] == b'E' {
        for name in ERRNO_NAMES {
            let end = at + 1 + name.len();
            if s[at + 1..].starts_with(name.as_bytes()) && !is_word_at(s, end) {
                return Some(end);
            }
        }
    }
    let caps = run(s, at + 1, |b| b.is_ascii_uppercase() || b.is_ascii_digit());
    if s.get(caps) == Some(&b'_') {
        let end = run(s, caps + 1, |b| {
            b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'
        });
        if end > caps + 1 && !is_word_at(s, end) {
            return Some(end);
        }
    }
    None
}

/// The word runs (`[A-Za-z0-9_]+`) of a text: what [`occurs`] checks first.
///
/// ```
/// use tool_offload_core::identifiers::{occurs, Words};
/// let text = "panicked at src/lib.rs:51234";
/// let words = Words::of(text);
/// assert!(occurs(text, &words, "src/lib.rs"));
/// assert!(!occurs(text, &words, "123"));
/// ```
#[derive(Debug, Default)]
pub struct Words<'a>(HashSet<&'a str>);

impl<'a> Words<'a> {
    /// The word runs of `text`.
    pub fn of(text: &'a str) -> Self {
        Words(word_runs(text).collect())
    }
}

fn word_runs(text: &str) -> impl Iterator<Item = &str> {
    // Split on bytes: every separator is ASCII or part of a non-ASCII character, so the
    // runs are whole ASCII words.
    text.as_bytes()
        .split(|&b| !is_word(b))
        .filter(|w| !w.is_empty())
        .map(|w| std::str::from_utf8(w).unwrap_or_default())
}

/// Whether `id` occurs in `text` as a whole: a substring whose neighbours are not
/// `[A-Za-z0-9_]` (so `123` is not in `51234`, nor `/src/a.rs` in `crate_1/src/a.rs`, but
/// `src/a.rs` is in `/work/src/a.rs:42`). `words` are `text`'s [`Words`].
pub fn occurs(text: &str, words: &Words<'_>, id: &str) -> bool {
    !id.is_empty() && word_runs(id).all(|w| words.0.contains(w)) && occurs_whole(text, id)
}

/// Whether `id` occurs in `text` as a whole, as [`occurs`] says, without the word runs
/// that make many lookups in one long text fast.
///
/// ```
/// use tool_offload_core::identifiers::occurs_whole;
/// assert!(occurs_whole("see /work/src/a.rs:42", "src/a.rs"));
/// assert!(!occurs_whole("crate_1/src/a.rs", "/src/a.rs"));
/// ```
pub fn occurs_whole(text: &str, id: &str) -> bool {
    if id.is_empty() {
        return false;
    }
    let (s, n) = (text.as_bytes(), id.len());
    let mut from = 0;
    while let Some(found) = find(&text[from..], id) {
        let at = from + found;
        let word_before = at > 0 && is_word(s[at - 1]);
        if !word_before && !is_word_at(s, at + n) {
            return true;
        }
        // Every occurrence starts on a character boundary: step past this one's first.
        from = at + text[at..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

#[cfg(test)]
#[path = "identifiers_tests.rs"]
mod tests;
