//! Materialize arbitrary text under arbitrary limits, then page through it.
//!
//! Never panics; an output within both limits stays inline, one over either is written
//! whole; the summary and every read/tail/grep page are within both limits (UTF-16 units
//! and UTF-8 bytes) whenever `page_chars()` is at least `MIN_PAGE_CHARS`, and within
//! `MIN_PAGE_CHARS` units otherwise; each read page's "More:" pointer moves forward, and
//! following them from the start shows every row of the text once, in order.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tool_offload_core::materialize::{Materialized, Materializer, ToolOutputRef, MIN_PAGE_CHARS};
use tool_offload_core::{utf16_len, MemoryWriter};
use tool_offload_fuzz::{
    block_on, grep, materializer, parse_page, read, tail, within, Next, PageRow,
};

/// The text is repeated up to this many times, and cut to this many bytes.
const MAX_REPEAT: usize = 32;
const MAX_TEXT_BYTES: usize = 64 * 1024;
/// Pages followed from the start of the artifact at most.
const MAX_WALK_PAGES: usize = 32;

#[derive(Arbitrary, Debug)]
struct Input {
    limits: Limits,
    snippet_lines: Count,
    snippet_bytes: Option<Count>,
    conversation: Long,
    call_id: Long,
    tool_name: Long,
    server_name: Option<Long>,
    was_value: bool,
    terminal: bool,
    repeat: u8,
    ops: Vec<Op>,
    text: String,
}

/// The inline limits: anything, or near the smallest for which pages are promised to
/// be within them (where headers and pointers are most likely not to fit).
#[derive(Arbitrary, Debug)]
enum Limits {
    Raw { chars: u16, bytes: u16 },
    NearMin { chars: u8, bytes: u8 },
}

impl Limits {
    fn get(&self) -> (usize, usize) {
        match *self {
            Limits::Raw { chars, bytes } => (chars.into(), bytes.into()),
            Limits::NearMin { chars, bytes } => (
                MIN_PAGE_CHARS + 4 * usize::from(chars),
                3 * MIN_PAGE_CHARS + 12 * usize::from(bytes),
            ),
        }
    }
}

/// A string repeated, so that names near the 255-byte limit are easy to reach.
#[derive(Arbitrary, Debug)]
struct Long {
    text: String,
    repeat: u8,
}

impl Long {
    fn get(&self) -> String {
        self.text.repeat(usize::from(self.repeat) + 1)
    }
}

/// A count as the model or a host might pass it: mostly small, sometimes absurd.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Count {
    Small(u8),
    Medium(u16),
    Huge(u64),
}

impl Count {
    fn get(self) -> usize {
        match self {
            Count::Small(n) => n.into(),
            Count::Medium(n) => n.into(),
            Count::Huge(n) => usize::try_from(n).unwrap_or(usize::MAX),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Op {
    Read {
        offset: Count,
        part: Count,
        limit: Count,
    },
    Tail {
        lines: Count,
    },
    Grep {
        needle: String,
        context: Count,
        max_matches: Count,
    },
    Walk {
        limit: Count,
    },
}

fuzz_target!(|input: Input| {
    let mut text = input
        .text
        .repeat(usize::from(input.repeat) % MAX_REPEAT + 1);
    if text.len() > MAX_TEXT_BYTES {
        let mut end = MAX_TEXT_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    let (conversation, call_id, tool_name) = (
        input.conversation.get(),
        input.call_id.get(),
        input.tool_name.get(),
    );
    let server_name = input.server_name.as_ref().map(Long::get);
    let Ok(m) = materializer(
        "/data",
        &conversation,
        input.limits.get().0,
        input.limits.get().1,
        input.snippet_lines.get(),
        input.snippet_bytes.map(Count::get),
    ) else {
        return;
    };
    let io = MemoryWriter::new();
    let output = ToolOutputRef {
        tool_call_id: &call_id,
        tool_name: &tool_name,
        server_name: server_name.as_deref(),
        text: &text,
        was_value: input.was_value,
    };
    let done = if input.terminal {
        block_on(m.materialize_terminal(&call_id, &text, &io))
    } else {
        block_on(m.materialize(&output, &io))
    };
    let Ok(done) = done else { return };
    let options = m.options();
    let (chars, bytes) = (options.max_inline_chars, options.max_inline_bytes);
    let Materialized::Artifact {
        summary,
        reference,
        path,
    } = done
    else {
        assert!(within(&text, chars, bytes), "over the limits but inline");
        assert!(io.files().is_empty());
        return;
    };
    assert!(
        !within(&text, chars, bytes),
        "within the limits but materialized"
    );
    assert_eq!(io.read(&path).as_deref(), Some(text.as_str()));
    assert_eq!(
        m.resolve_ref(&reference.id).ok().as_deref(),
        Some(path.as_str())
    );
    let guaranteed = m.page_chars() >= MIN_PAGE_CHARS;
    if guaranteed {
        assert!(
            within(&summary, chars, bytes),
            "summary of {} units, {} bytes over limits {chars}/{bytes}",
            utf16_len(&summary),
            summary.len()
        );
    }
    let page_max = m.page_chars().max(MIN_PAGE_CHARS);
    let check_page = |what: &str, page: &str| {
        assert!(
            within(page, page_max, 3 * page_max),
            "{what} page of {} units over {page_max}",
            utf16_len(page)
        );
        if guaranteed {
            assert!(
                within(page, chars, bytes),
                "{what} page of {} units, {} bytes over limits {chars}/{bytes}",
                utf16_len(page),
                page.len()
            );
        }
    };
    let r = reference.id.as_str();
    for op in input.ops.iter().take(8) {
        match *op {
            Op::Read {
                offset,
                part,
                limit,
            } => {
                let (offset, part) = (offset.get(), part.get());
                let page = read(&m, r, offset, part, limit.get(), &io).unwrap();
                check_page("read", &page);
                let (next, _) = parsed(&page, r);
                if let Next::More { offset: o, part: p } = next {
                    assert!(
                        (o, p) > (offset, part.max(1)),
                        "read({offset}, {part}) points back at ({o}, {p})"
                    );
                }
            }
            Op::Tail { lines } => {
                let page = tail(&m, r, lines.get(), &io).unwrap();
                check_page("tail", &page);
                let (next, rows) = parsed(&page, r);
                assert!(
                    matches!(next, Next::End | Next::Nothing),
                    "tail does not reach the end"
                );
                assert_eq!(rows.is_empty(), text.lines().next().is_none());
            }
            Op::Grep {
                ref needle,
                context,
                max_matches,
            } => {
                let page = grep(&m, r, needle, context.get(), max_matches.get(), &io).unwrap();
                check_page("grep", &page);
            }
            Op::Walk { limit } => walk(&m, r, &text, limit.get(), &io, &check_page),
        }
    }
});

/// Follow "More:" from the start: every row of `text` once, in order, parts joined back
/// into the original lines.
fn walk(
    m: &Materializer,
    r: &str,
    text: &str,
    limit: usize,
    io: &MemoryWriter,
    check_page: &dyn Fn(&str, &str),
) {
    let lines: Vec<&str> = text.lines().collect();
    let (mut offset, mut part) = (0, 1);
    // The line being rebuilt from its parts: (line, next part, text so far).
    let mut current: Option<(usize, usize, String)> = None;
    let mut done_lines = 0;
    for _ in 0..MAX_WALK_PAGES {
        let page = read(m, r, offset, part, limit, io).unwrap();
        check_page("walk", &page);
        let (next, rows) = parsed(&page, r);
        for row in rows {
            match (&mut current, row.part) {
                (Some((line, next_part, so_far)), Some(p)) if *line == row.line => {
                    assert_eq!(p, *next_part, "part skipped in line {line}");
                    *next_part += 1;
                    so_far.push_str(row.text);
                }
                _ => {
                    if let Some((line, _, so_far)) = current.take() {
                        assert_eq!(so_far, lines[line - 1], "line {line} rebuilt wrong");
                        done_lines = line;
                    }
                    assert_eq!(row.line, done_lines + 1, "line skipped or repeated");
                    assert!(
                        matches!(row.part, None | Some(1)),
                        "line starts at a later part"
                    );
                    current = Some((row.line, 2, row.text.to_owned()));
                }
            }
        }
        match next {
            Next::More { offset: o, part: p } => (offset, part) = (o, p),
            Next::End => {
                let (line, _, so_far) = current.take().expect("the end of no rows");
                assert_eq!(so_far, lines[line - 1], "line {line} rebuilt wrong");
                assert_eq!(line, lines.len(), "the end before the last line");
                return;
            }
            Next::Nothing => {
                assert!(
                    lines.is_empty() && current.is_none(),
                    "nothing to show mid-text"
                );
                return;
            }
        }
    }
}

fn parsed<'a>(page: &'a str, r: &str) -> (Next, Vec<PageRow<'a>>) {
    parse_page(page, r).unwrap_or_else(|e| panic!("{e}: {page:?}"))
}
