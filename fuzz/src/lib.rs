//! Helpers shared by the fuzz targets. Every call into tool-offload-core's API that is
//! likely to change (the ref format, the grep matcher) lives here in one small
//! function, so adapting the targets to an API change touches one place.

use std::future::Future;

use tool_offload_core::materialize::{
    compile_pattern, Materializer, MaterializerOptions, MAX_PATTERN_CHARS,
};
use tool_offload_core::{utf16_len, MemoryWriter, OffloadError};

/// Core's futures over a [`MemoryWriter`] never wait; run one to completion.
pub fn block_on<F: Future>(future: F) -> F::Output {
    futures_executor::block_on(future)
}

/// The ref core gives artifact `file` of `kind` (`tool` or `terminal`) in conversation
/// `conversation`: both ids percent-encoded outside `A–Z a–z 0–9 - . _ ~ :` (an oracle
/// written from the README's rule, not core's code).
pub fn make_ref(conversation: &str, kind: &str, file: &str) -> String {
    format!("ctx://{}/{kind}/{}", encode(conversation), encode(file))
}

fn encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~:".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A materializer for `conversation` under `user_data` (resolved against `/`).
pub fn materializer(
    user_data: &str,
    conversation: &str,
    max_inline_chars: usize,
    max_inline_bytes: usize,
    snippet_lines: usize,
    snippet_bytes: Option<usize>,
) -> Result<Materializer, OffloadError> {
    let mut options = MaterializerOptions::new(user_data, conversation, "/");
    options.max_inline_chars = max_inline_chars;
    options.max_inline_bytes = max_inline_bytes;
    options.snippet_lines = snippet_lines;
    options.snippet_bytes = snippet_bytes;
    Materializer::new(options)
}

/// `context_read(reference, offset, part, limit)`.
pub fn read(
    m: &Materializer,
    reference: &str,
    offset: usize,
    part: usize,
    limit: usize,
    io: &MemoryWriter,
) -> Result<String, OffloadError> {
    block_on(m.read_from(reference, offset, part, limit, io))
}

/// `context_tail(reference, lines)`.
pub fn tail(
    m: &Materializer,
    reference: &str,
    lines: usize,
    io: &MemoryWriter,
) -> Result<String, OffloadError> {
    block_on(m.tail(reference, lines, io))
}

/// `context_grep` for rows containing `needle` (escaped into a literal pattern; a needle
/// over the pattern limit is cut to fit).
pub fn grep(
    m: &Materializer,
    reference: &str,
    needle: &str,
    context: usize,
    max_matches: usize,
    io: &MemoryWriter,
) -> Result<String, OffloadError> {
    let mut literal = String::new();
    for c in needle.chars() {
        if utf16_len(&literal) + 2 * c.len_utf16() > MAX_PATTERN_CHARS {
            break;
        }
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            literal.push('\\');
        }
        literal.push(c);
    }
    let pattern = compile_pattern(&literal, false)?;
    block_on(m.grep(reference, &pattern, context, max_matches, io))
}

/// Whether `text` is within `chars` UTF-16 units and `bytes` UTF-8 bytes.
pub fn within(text: &str, chars: usize, bytes: usize) -> bool {
    utf16_len(text) <= chars && text.len() <= bytes
}

/// One numbered row of a page: `57| text` or `57.2| text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRow<'a> {
    /// 1-based line.
    pub line: usize,
    /// 1-based part of a split line.
    pub part: Option<usize>,
    /// The row's text.
    pub text: &'a str,
}

/// What a read or tail page's header says comes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// `, the end.]`.
    End,
    /// `More: context_read("<ref>", offset[, part=p])`.
    More { offset: usize, part: usize },
    /// `empty`, `past the end`, `nothing to show`: no rows.
    Nothing,
}

/// Split a read or tail page of `reference` into what its header says comes next and
/// its rows. `Err` describes how the page breaks the format.
pub fn parse_page<'a>(page: &'a str, reference: &str) -> Result<(Next, Vec<PageRow<'a>>), String> {
    // A header names the ref, or (when the ref is too long for the page) this artifact.
    let full = page
        .strip_prefix('[')
        .and_then(|r| r.strip_prefix(reference))
        .and_then(|r| r.strip_prefix(": "));
    let (rest, arg) = match full {
        Some(rest) => (rest, format!("\"{reference}\"")),
        None => (
            page.strip_prefix("[this artifact: ")
                .ok_or("header does not start with the ref")?,
            "<the same ref>".to_owned(),
        ),
    };
    let Some(rest) = rest.strip_prefix("lines ") else {
        let bare = rest
            .strip_suffix(".]")
            .ok_or("no-row header is not the whole page")?;
        return if bare == "empty"
            || bare == "nothing to show"
            || (bare.starts_with("offset ") && bare.contains(" is past the end: "))
        {
            Ok((Next::Nothing, Vec::new()))
        } else {
            Err(format!("unknown header {bare:?}"))
        };
    };
    // `A-B of N`.
    let label_end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .ok_or("truncated header")?;
    let rest = rest[label_end..]
        .strip_prefix(" of ")
        .ok_or("no \" of \" in header")?;
    // `1,234`: commas only between digits (`, the end` follows).
    let bytes = rest.as_bytes();
    let mut end = 0;
    while end < bytes.len()
        && (bytes[end].is_ascii_digit()
            || (bytes[end] == b',' && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)))
    {
        end += 1;
    }
    let rest = &rest[end..];
    let (next, rest) = if let Some(rest) = rest.strip_prefix(", the end.]") {
        (Next::End, rest)
    } else {
        let more = format!(". More: context_read({arg}, ");
        let rest = rest
            .strip_prefix(&more)
            .ok_or("no end and no More: in header")?;
        let (offset, rest) = number(rest)?;
        let (part, rest) = match rest.strip_prefix(", part=") {
            Some(rest) => number(rest)?,
            None => (1, rest),
        };
        let rest = rest.strip_prefix(")]").ok_or("More: not closed")?;
        (Next::More { offset, part }, rest)
    };
    let body = match rest.strip_prefix('\n') {
        Some(body) => body,
        None if rest.is_empty() => return Err("a page with lines has no rows".into()),
        None => return Err(format!("text after the header: {rest:?}")),
    };
    let rows = body.split('\n').map(parse_row).collect::<Result<_, _>>()?;
    Ok((next, rows))
}

/// `57| text` or `57.2| text`.
pub fn parse_row(row: &str) -> Result<PageRow<'_>, String> {
    let (label, text) = row
        .split_once("| ")
        .ok_or_else(|| format!("row without label: {row:?}"))?;
    let (line, part) = match label.split_once('.') {
        Some((line, part)) => (line, Some(part)),
        None => (label, None),
    };
    let parse = |n: &str| {
        n.parse::<usize>()
            .map_err(|_| format!("bad label {label:?}"))
    };
    Ok(PageRow {
        line: parse(line)?,
        part: part.map(parse).transpose()?,
        text,
    })
}

fn number(s: &str) -> Result<(usize, &str), String> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let n = s[..end]
        .parse()
        .map_err(|_| format!("bad number in {s:?}"))?;
    Ok((n, &s[end..]))
}
