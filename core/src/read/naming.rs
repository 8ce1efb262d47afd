//! How a page names what it shows: a `ctx://` ref, a knowledge id, or a JSON path's
//! selection; how its header continues (`More: context_read(…)`); and the room that
//! leaves for rows, so a part label names the same characters on every page.

use crate::text::measure::MAX_ROW_CHARS;
use crate::text::utf16_len;

/// Room kept for a page's header besides the refs it names.
const HEADER_ROOM: usize = 200;
/// Room kept for a row's label (`123456.78| `).
const LABEL_ROOM: usize = 24;
/// A header names the ref only when that leaves rows at least this long.
const MIN_ROW_CHARS: usize = 100;

/// What a page is of, as its caller names it: a `ctx://` ref (the Materializer's
/// tools), or a workspace knowledge id (whose pages continue with
/// `get_knowledge_by_lines`, `lines` at a time).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Naming<'a> {
    /// A `ctx://` ref.
    Ref(&'a str),
    /// A knowledge artifact id, read `lines` lines per page.
    Knowledge {
        /// The id.
        id: &'a str,
        /// Lines asked for per page.
        lines: usize,
    },
    /// What a JSON path selects in the artifact a `ctx://` ref names, pretty-printed.
    Path {
        /// The ref.
        reference: &'a str,
        /// The path as [`JsonPath`](crate::json::JsonPath) displays it.
        path: &'a str,
    },
}

impl<'a> From<&'a str> for Naming<'a> {
    fn from(reference: &'a str) -> Self {
        Naming::Ref(reference)
    }
}

/// How a page's header names its artifact: by its ref (or id), or, when naming it
/// `times` times would leave rows under [`MIN_ROW_CHARS`] (ids near the 255-byte limit
/// under a limit near `MIN_PAGE_CHARS`), as "this artifact": the page must stay within
/// `max_chars`, and the model knows which ref it asked for.
pub(crate) struct Named<'a> {
    /// Starts the header: `[<title>: …]`.
    pub(crate) title: &'a str,
    /// The ref argument in `More: context_read(<arg>, …)`.
    pub(crate) arg: String,
    /// Room kept for the header.
    pub(crate) room: usize,
    /// Lines per page for `get_knowledge_by_lines`; `None`: `context_read`.
    knowledge_lines: Option<usize>,
    /// The JSON path a page shows, quoted as a JSON string: `"$.items"`.
    path: Option<String>,
}

impl<'a> Named<'a> {
    pub(crate) fn new(naming: impl Into<Naming<'a>>, times: usize, max_chars: usize) -> Self {
        let (reference, knowledge_lines, path) = match naming.into() {
            Naming::Ref(reference) => (reference, None, None),
            Naming::Knowledge { id, lines } => (id, Some(lines.max(1)), None),
            Naming::Path { reference, path } => (
                reference,
                None,
                Some(crate::json::stringify(&serde_json::Value::from(path))),
            ),
        };
        // A path is named as often as the ref: after the lines, and in the call.
        let path_room = path.as_ref().map_or(0, |p| times * utf16_len(p));
        let room = HEADER_ROOM + times * reference.len() + path_room;
        if room + LABEL_ROOM + MIN_ROW_CHARS <= max_chars {
            Named {
                title: reference,
                arg: format!("\"{reference}\""),
                room,
                knowledge_lines,
                path,
            }
        } else {
            Named {
                title: "this artifact",
                arg: "<the same ref>".into(),
                room: HEADER_ROOM,
                knowledge_lines,
                path: path.map(|_| "<the same path>".into()),
            }
        }
    }

    /// ` at $.items` after a page's lines when it shows a JSON path's selection.
    pub(crate) fn at(&self) -> String {
        match &self.path {
            Some(p) if p.starts_with('"') => format!(" at {}", &p[1..p.len() - 1]),
            Some(_) => " at the same path".into(),
            None => String::new(),
        }
    }

    /// The call that shows the page starting at row (`line`, `part`), 1-based.
    pub(crate) fn more(&self, line: usize, part: Option<usize>) -> String {
        let arg = &self.arg;
        let part = match part {
            Some(p) if p > 1 => format!(", part={p}"),
            _ => String::new(),
        };
        let path = self
            .path
            .as_ref()
            .map_or(String::new(), |p| format!(", path={p}"));
        match self.knowledge_lines {
            None => format!("context_read({arg}, {}{part}{path})", line - 1),
            Some(lines) => format!(
                "get_knowledge_by_lines({arg}, {}, {}{part})",
                line,
                line.saturating_add(lines - 1)
            ),
        }
    }
}

/// Where a page continues, read from its header's `More: context_read(…)` call, so that a
/// reader other than the model (the command line) can name its own command instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Continuation {
    /// The byte range of the `context_read(…)` call in the page.
    pub call: std::ops::Range<usize>,
    /// The 0-based line the next page starts at.
    pub offset: usize,
    /// The part of that line it starts at, when not the first.
    pub part: Option<usize>,
    /// The JSON path the page shows, when it shows one (`<the same path>` when the page
    /// had no room to name it).
    pub path: Option<String>,
}

/// The continuation of `page` (a page of `read`), or `None` when it is the last.
///
/// ```
/// use tool_offload_core::materialize::continuation;
/// let page = "[ctx://c/tool/t1.txt: lines 1-60 of 601. More: context_read(\"ctx://c/tool/t1.txt\", 60, part=2)]\n1| a";
/// let c = continuation(page).unwrap();
/// assert_eq!((c.offset, c.part, c.path), (60, Some(2), None));
/// assert_eq!(&page[c.call], "context_read(\"ctx://c/tool/t1.txt\", 60, part=2)");
/// assert_eq!(continuation("[ctx://c/tool/t1.txt: lines 1-9 of 9, the end.]\n1| a"), None);
/// ```
pub fn continuation(page: &str) -> Option<Continuation> {
    const MORE: &str = "More: ";
    // `[<title>: <shown>. More: context_read(<ref>, <offset>[, part=<p>][, path=<json>])]`
    let header = &page[..memchr::memchr(b'\n', page.as_bytes()).unwrap_or(page.len())];
    let inner = header.strip_suffix(")]")?;
    let start = crate::search::rfind(inner, "More: context_read(")? + MORE.len();
    let args = &inner[start + "context_read(".len()..];
    let (args, path) = match crate::search::split_once(args, ", path=") {
        // A JSON string, or `<the same path>` when the page named the ref "this artifact".
        Some((rest, path)) => {
            let decoded = crate::json::parse(path).ok();
            let text = decoded.as_ref().and_then(|p| p.as_str()).unwrap_or(path);
            (rest, Some(text.to_owned()))
        }
        None => (args, None),
    };
    // `<ref>, <offset>` or `<ref>, <offset>, part=<p>`: the last one or two pieces.
    let (rest, last) = last_piece(args)?;
    let (offset, part) = match last.strip_prefix("part=") {
        Some(part) => (last_piece(rest)?.1, Some(part.parse().ok()?)),
        None => (last, None),
    };
    Some(Continuation {
        call: start..inner.len() + 1,
        offset: offset.parse().ok()?,
        part,
        path,
    })
}

/// `s` split around its last `, `.
fn last_piece(s: &str) -> Option<(&str, &str)> {
    crate::search::rfind(s, ", ").map(|at| (&s[..at], &s[at + 2..]))
}

/// Longest row for a page within `max_chars`: [`MAX_ROW_CHARS`], or less under a small
/// limit so that one numbered row (label included) always fits.
pub(crate) fn row_chars(max_chars: usize, header_room: usize) -> usize {
    MAX_ROW_CHARS.min(max_chars.saturating_sub(header_room + LABEL_ROOM))
}

/// The width of the parts a long line is split into, the same for `read`, `tail` and
/// `grep` pages of one artifact at one limit, so a label (`57.3`) names the same
/// characters in all three: the room of a header naming the artifact twice (a `read`
/// page's own and its `More:` call), whether or not the page does.
pub(crate) fn part_chars<'a>(naming: impl Into<Naming<'a>>, max_chars: usize) -> usize {
    row_chars(max_chars, Named::new(naming, 2, max_chars).room)
}

#[cfg(test)]
mod continuation_tests {
    use super::*;

    #[test]
    fn every_more_call_reads_back_as_it_was_written() {
        for (named, line, part) in [
            (Named::new("ctx://c/tool/a.txt", 2, 4000), 61, None),
            (Named::new("ctx://c/tool/a.txt", 2, 4000), 8, Some(3)),
            (
                Named::new(
                    Naming::Path {
                        reference: "ctx://c/tool/a.json",
                        path: "$.items[\"a, b\"]",
                    },
                    2,
                    4000,
                ),
                12,
                None,
            ),
            (Named::new("ctx://c/tool/a.txt", 2, 150), 3, Some(2)),
        ] {
            let call = named.more(line, part);
            let page = format!("[x: lines 1-2 of 9. More: {call}]\n1| a");
            let c = continuation(&page).unwrap_or_else(|| panic!("{page}"));
            assert_eq!(&page[c.call.clone()], call);
            assert_eq!(c.offset, line - 1);
            assert_eq!(c.part, part.filter(|&p| p > 1));
            assert_eq!(c.path.is_some(), call.contains("path="));
        }
    }
}
