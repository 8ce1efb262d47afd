//! The summary the model reads instead of a materialized output.

use super::text::{count, cut, Measure, MAX_PREVIEW_CHARS};
use super::types::{ArtifactKind, ToolOutputRef};
use crate::utf16_len;

/// Keywords that put a line in the summary's errors section (ASCII case-insensitive).
const ERROR_WORDS: [&str; 6] = [
    "error",
    "exception",
    "traceback",
    "panic",
    "fatal",
    "failed",
];
/// At most this many error lines are shown, each with one line of context around it.
const MAX_ERROR_LINES: usize = 5;

/// How a summary's first line (the pointer) begins.
pub const POINTER_PREFIX: &str = "[Output of ";

/// The ref named by a summary's pointer line, if `text` is a summary: lets
/// `materialize_messages` leave already-materialized content alone.
///
/// ```
/// use tool_offload_core::materialize::summary_ref;
/// let s = "[Output of bash (call c1) stored as ctx://conv/tool/c1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: …";
/// assert_eq!(summary_ref(s), Some("ctx://conv/tool/c1.txt"));
/// assert_eq!(summary_ref("[Output of lunch]"), None);
/// ```
pub fn summary_ref(text: &str) -> Option<&str> {
    let first = text.strip_prefix(POINTER_PREFIX)?.lines().next()?;
    let (_, rest) = crate::search::split_once(first, " stored as ")?;
    let (reference, _) = crate::search::split_once(rest, " and not shown in full: ")?;
    reference.starts_with("ctx://").then_some(reference)
}

/// What a summary describes.
#[derive(Debug, Clone, Copy)]
pub struct SummaryInput<'a> {
    /// The ref to read the artifact back with.
    pub reference: &'a str,
    /// The tool output: call id, tool, server, full text.
    pub output: ToolOutputRef<'a>,
    /// A tool call's output, or a terminal snippet (then `output.tool_call_id` is the
    /// snippet id).
    pub kind: ArtifactKind,
    /// Its sizes.
    pub measure: Measure,
    /// Whether it is JSON.
    pub is_json: bool,
    /// Lines of head and of tail to show at most.
    pub snippet_lines: usize,
    /// UTF-8 bytes of head and of tail to show at most (each line as shown, newline
    /// included), if a byte budget is set as well.
    pub snippet_bytes: Option<usize>,
    /// The summary stays strictly under this many UTF-16 units.
    pub max_chars: usize,
}

/// The summary of a materialized output: its first line is the pointer (outside the
/// data, so it is never mistaken for tool output); then the tool and call, sizes, head
/// and tail with the count of lines between, an errors section when lines mention
/// errors, and how to read more. Snippets shrink until the whole stays under
/// `max_chars`.
///
/// ```
/// use tool_offload_core::materialize::{summary, ArtifactKind, Measure, SummaryInput, ToolOutputRef};
/// let text = (1..=500).map(|i| format!("line {i}")).collect::<Vec<_>>().join("\n");
/// let output = ToolOutputRef { tool_call_id: "call_1", tool_name: "bash", server_name: None, text: &text, was_value: false };
/// let s = summary(&SummaryInput {
///     reference: "ctx://c1/tool/call_1.txt", output, kind: ArtifactKind::Tool, measure: Measure::of(&text), is_json: false,
///     snippet_lines: 40, snippet_bytes: None, max_chars: 4000,
/// });
/// assert!(s.starts_with("[Output of bash (call call_1) stored as ctx://c1/tool/call_1.txt"));
/// assert!(s.contains("--- 420 lines omitted ---"));
/// assert!(s.len() < 4000);
/// ```
pub fn summary(input: &SummaryInput<'_>) -> String {
    // Only the lines a summary can show are read out of a text of any size: the first
    // and last `snippet_lines`, and the first error lines with their neighbours.
    let (lines, errors) = Lines::of(input);
    summary_of(input, &lines, &errors)
}

/// [`summary`] from the lines it may show and the indices of the error lines.
fn summary_of(input: &SummaryInput<'_>, lines: &Lines<'_>, errors: &[usize]) -> String {
    let framed = |body: &str| {
        format!(
            "{}\n{body}If you need more: context_tail(\"{r}\", 200) or context_grep(\"{r}\", \"Error|Exception\").",
            pointer_line(input, &origin(input)),
            r = input.reference
        )
    };
    match fit(input, lines, errors, &framed) {
        Ok(text) => text,
        Err(text) => {
            // Even the bare frame is too long (a tiny limit). The pointer line stays,
            // whole: without it the model could not find the artifact. When it is too
            // long itself (long tool or server names), it names only the kind of
            // output instead of its origin.
            let full = text.lines().next().unwrap_or_default();
            let pointer = if utf16_len(full) < input.max_chars {
                full.to_owned()
            } else {
                pointer_line(input, input.kind.dir())
            };
            let rest = input.max_chars.saturating_sub(utf16_len(&pointer) + 1);
            let tail = cut(&text[full.len()..], rest.saturating_sub(40));
            if rest > 40 {
                format!("{pointer}{tail}")
            } else {
                pointer
            }
        }
    }
}

/// The summary's body (sizes, head and tail, error lines: every line ends with a
/// newline) put in a `frame` of the caller's: the workspace's `<knowledge_list>` frames
/// it as XML, where the Materializer's pointer and "if you need more" lines would not
/// belong. Snippets shrink until the framed whole stays under `input.max_chars`; when
/// even the frame around an empty body does not, that is what comes back.
pub(crate) fn framed_summary(input: &SummaryInput<'_>, frame: &dyn Fn(&str) -> String) -> String {
    let (lines, errors) = Lines::of(input);
    fit(input, &lines, &errors, frame).unwrap_or_else(|bare| bare)
}

/// The framed body with the most snippet and error lines that stays under
/// `input.max_chars`, halving both until it does; `Err` with the frame around the
/// emptiest body when nothing fits.
fn fit(
    input: &SummaryInput<'_>,
    lines: &Lines<'_>,
    errors: &[usize],
    frame: &dyn Fn(&str) -> String,
) -> Result<String, String> {
    let mut snippet = input.snippet_lines;
    let mut shown_errors = errors.len().min(MAX_ERROR_LINES);
    loop {
        let text = frame(&body(
            input,
            lines,
            snippet,
            &errors[..shown_errors],
            errors.len(),
        ));
        if utf16_len(&text) < input.max_chars {
            return Ok(text);
        }
        if snippet == 0 && shown_errors == 0 {
            return Err(text);
        }
        snippet /= 2;
        shown_errors /= 2;
    }
}

/// What produced the output, as the pointer line names it.
fn origin(input: &SummaryInput<'_>) -> String {
    let id = input.output.tool_call_id;
    match (input.kind, input.output.server_name) {
        (ArtifactKind::Terminal, _) => format!("terminal (snippet {id})"),
        (_, Some(server)) => format!("{server}/{} (call {id})", input.output.tool_name),
        (_, None) => format!("{} (call {id})", input.output.tool_name),
    }
}

fn body(
    input: &SummaryInput<'_>,
    lines: &Lines<'_>,
    snippet: usize,
    errors: &[usize],
    error_count: usize,
) -> String {
    let m = input.measure;
    let mut out = String::new();
    out += &format!(
        "Size: {}, {}, {}. JSON: {}.\n",
        count(m.bytes, "byte"),
        count(m.chars, "character"),
        count(m.lines, "line"),
        if input.is_json { "yes" } else { "no" }
    );
    let within_bytes = |shown: &mut dyn Iterator<Item = &&str>| match input.snippet_bytes {
        None => usize::MAX,
        Some(budget) => {
            let mut used = 0;
            shown
                .take_while(|line| {
                    used += cut(line, MAX_PREVIEW_CHARS).len() + 1;
                    used <= budget
                })
                .count()
        }
    };
    let head = snippet
        .min(lines.len())
        .min(within_bytes(&mut lines.first()));
    let tail = snippet
        .min(lines.len() - head)
        .min(within_bytes(&mut lines.last_down_to(head)));
    if head > 0 {
        out += &format!("--- first {} ---\n", count(head, "line"));
        push_lines(&mut out, lines, 0..head);
    }
    let omitted = lines.len() - head - tail;
    if omitted > 0 {
        out += &format!("--- {} omitted ---\n", count(omitted, "line"));
    }
    if tail > 0 {
        out += &format!("--- last {} ---\n", count(tail, "line"));
        push_lines(&mut out, lines, lines.len() - tail..lines.len());
    }
    if error_count > 0 {
        out += &format!(
            "--- errors: {} {} {}{} ---\n",
            count(error_count, "line"),
            if error_count == 1 {
                "mentions"
            } else {
                "mention"
            },
            ERROR_WORDS.join("/"),
            match errors.len() {
                0 => "; none shown, to stay short".to_owned(),
                n if n < error_count => format!("; the first {n}"),
                _ => String::new(),
            }
        );
        let mut last_shown = None;
        for &i in errors {
            let from = i
                .saturating_sub(1)
                .max(last_shown.map_or(0, |l: usize| l + 1));
            let to = (i + 2).min(lines.len());
            if from < to {
                if last_shown.is_some_and(|l| from > l + 1) {
                    out.push_str("...\n");
                }
                push_lines(&mut out, lines, from..to);
                last_shown = Some(to - 1);
            }
        }
    }
    out
}

/// The summary's first line, naming the output's `origin` and its ref.
fn pointer_line(input: &SummaryInput<'_>, origin: &str) -> String {
    format!(
        "{POINTER_PREFIX}{origin} stored as {} and not shown in full: read it with context_read, context_tail or context_grep.]",
        input.reference
    )
}

/// Lines `range` of `lines`, numbered (1-based), each cut to [`MAX_PREVIEW_CHARS`].
fn push_lines(out: &mut String, lines: &Lines<'_>, range: std::ops::Range<usize>) {
    for i in range {
        out.push_str(&format!(
            "{}| {}\n",
            i + 1,
            cut(lines.get(i), MAX_PREVIEW_CHARS)
        ));
    }
}

/// The lines of a text a summary may show, by index, and how many there are: read
/// without splitting the whole text into lines (megabytes of output have tens of
/// thousands).
struct Lines<'a> {
    total: usize,
    /// The first lines, in order.
    head: Vec<&'a str>,
    /// The last lines, the last one first.
    tail: Vec<&'a str>,
    /// Error lines and their neighbours, by index (a few dozen: searched in order).
    around: Vec<(usize, &'a str)>,
}

impl<'a> Lines<'a> {
    /// The first and last `snippet_lines` lines of `input`'s text, and its error lines
    /// (all of them counted; the first [`MAX_ERROR_LINES`] kept with a line either side).
    fn of(input: &SummaryInput<'a>) -> (Self, Vec<usize>) {
        let text = input.output.text;
        let total = input.measure.lines;
        let ends = input.snippet_lines.min(total);
        let head = text.lines().take(ends).collect();
        let tail = crate::search::lines_from_end(text).take(ends).collect();
        let bytes = text.as_bytes();
        let mut around = Vec::new();
        let (mut errors, mut from, mut line, mut counted) = (Vec::new(), 0, 0, 0);
        while let Some(at) = first_error(&bytes[from..]).map(|i| from + i) {
            let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
            line += memchr::memchr_iter(b'\n', &bytes[counted..start]).count();
            counted = start;
            let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
            if errors.len() < MAX_ERROR_LINES {
                around.push((line, line_at(text, start, end)));
                if line > 0 {
                    let before = memchr::memrchr(b'\n', &bytes[..start - 1]).map_or(0, |i| i + 1);
                    around.push((line - 1, line_at(text, before, start - 1)));
                }
                if line + 1 < total {
                    let after = memchr::memchr(b'\n', &bytes[end + 1..])
                        .map_or(bytes.len(), |i| end + 1 + i);
                    around.push((line + 1, line_at(text, end + 1, after)));
                }
            }
            errors.push(line);
            from = end;
        }
        let lines = Lines {
            total,
            head,
            tail,
            around,
        };
        (lines, errors)
    }

    fn len(&self) -> usize {
        self.total
    }

    /// Line `i`; only the lines [`Lines::of`] read are asked for.
    fn get(&self, i: usize) -> &'a str {
        if i < self.head.len() {
            return self.head[i];
        }
        if let Some(k) = self
            .total
            .checked_sub(i + 1)
            .filter(|&k| k < self.tail.len())
        {
            return self.tail[k];
        }
        self.around
            .iter()
            .find(|&&(at, _)| at == i)
            .map_or("", |&(_, line)| line)
    }

    /// The first lines, in order.
    fn first(&self) -> impl Iterator<Item = &&'a str> {
        self.head.iter()
    }

    /// The last lines, from the end, down to (not including) line `head`.
    fn last_down_to(&self, head: usize) -> impl Iterator<Item = &&'a str> {
        self.tail.iter().take(self.total - head)
    }
}

/// `text[start..end]` as `str::lines` yields it: without a final `\r`.
fn line_at(text: &str, start: usize, end: usize) -> &str {
    let line = &text[start..end];
    line.strip_suffix('\r').unwrap_or(line)
}

/// Whether `line` holds one of [`ERROR_WORDS`], ASCII case-insensitively: one pass,
/// no lowercase copy. Eight bytes at a time, a word is looked at closely only when one
/// of its bytes, lowercased with the two after it, starts a keyword (`err`, `exc`,
/// `tra`, `pan`, `fat`, `fai`); this is the summary's hot loop on megabytes of output.
#[cfg(test)]
fn mentions_error(line: &[u8]) -> bool {
    first_error(line).is_some()
}

/// Where the first of [`ERROR_WORDS`] in `text` starts, ASCII case-insensitively (see
/// [`mentions_error`] for how).
fn first_error(line: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return simd128::first_error(line);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    first_error_swar(line)
}

/// [`first_error`] eight bytes at a time in 64-bit words: what native builds (whose
/// compilers vectorise it) and a wasm without SIMD run.
#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code)
)]
fn first_error_swar(line: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    // Nonzero exactly when some byte of `v` is zero.
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let lanes = |x: u64, y: u64, z: u64, [a, b, c]: [u8; 3]| {
        has_zero(
            (x ^ (ONES * u64::from(a))) | (y ^ (ONES * u64::from(b))) | (z ^ (ONES * u64::from(c))),
        )
    };
    const CASE: u64 = ONES * 0x20;
    let mut i = 0;
    while i + 10 <= line.len() {
        let word: [u8; 8] = line[i..i + 8].try_into().unwrap_or_default();
        // Lowercased as far as ASCII letters go (`| 0x20`); lane k of x, y and z holds
        // the bytes i+k, i+k+1 and i+k+2.
        let x = u64::from_le_bytes(word) | CASE;
        let next = u64::from(line[i + 8] | 0x20) | (u64::from(line[i + 9] | 0x20) << 8);
        let (y, z) = ((x >> 8) | (next << 56), (x >> 16) | (next << 48));
        let candidate = lanes(x, y, z, *b"err")
            | lanes(x, y, z, *b"exc")
            | lanes(x, y, z, *b"tra")
            | lanes(x, y, z, *b"pan")
            | lanes(x, y, z, *b"fat")
            | lanes(x, y, z, *b"fai");
        if candidate != 0 {
            if let Some(j) = (i..i + 8).find(|&j| keyword_at(line, j)) {
                return Some(j);
            }
        }
        i += 8;
    }
    (i..line.len()).find(|&j| keyword_at(line, j))
}

/// [`first_error`] sixteen bytes at a time in wasm SIMD128 vectors. The shipped wasm is
/// built for size (opt-level `z`), where LLVM vectorises no loop, so the word-at-a-time
/// scan ran at ~1 ms per MB there and was the larger part of `materialize()` of a
/// megabyte; written with the intrinsics it runs in well under half that.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use core::arch::wasm32::{
        u8x16_bitmask, u8x16_eq, u8x16_splat, v128, v128_and, v128_any_true, v128_load, v128_or,
    };

    use super::keyword_at;

    /// `b` in every lane, built from a value the compiler cannot see: the vector stays in
    /// a local across the loop. (A `v128.const` inside the loop is rebuilt by V8 on
    /// every iteration, three instructions each: with 14 of them, most of the loop.)
    #[inline(always)]
    fn splat(b: u8) -> v128 {
        u8x16_splat(core::hint::black_box(b))
    }

    /// The 16 bytes of `line` from `at`, lowercased (`| lower`) as far as ASCII letters go.
    ///
    /// # Safety
    /// `at + 16 <= line.len()`.
    #[inline(always)]
    unsafe fn lower16(line: &[u8], at: usize, lower: v128) -> v128 {
        // SAFETY: in bounds by the caller's word; `v128_load` needs no alignment.
        v128_or(
            unsafe { v128_load(line.as_ptr().add(at).cast::<v128>()) },
            lower,
        )
    }

    pub(super) fn first_error(line: &[u8]) -> Option<usize> {
        let lower = splat(0x20);
        let (e, r, x, c) = (splat(b'e'), splat(b'r'), splat(b'x'), splat(b'c'));
        let (t, a, p, n) = (splat(b't'), splat(b'a'), splat(b'p'), splat(b'n'));
        let (f, i_) = (splat(b'f'), splat(b'i'));
        let mut i = 0;
        // 16 positions need their two bytes after them in the line. (Written out, not
        // with closures or `array::map`: at opt-level `z` those stay calls.)
        while i + 18 <= line.len() {
            // SAFETY: i + 2 + 16 <= line.len(), the loop's condition.
            let (x0, x1, x2) = unsafe {
                (
                    lower16(line, i, lower),
                    lower16(line, i + 1, lower),
                    lower16(line, i + 2, lower),
                )
            };
            // Lane k: do bytes i+k, i+k+1, i+k+2, lowercased, start a keyword?
            let y_r = u8x16_eq(x1, r);
            let err_exc = v128_and(
                u8x16_eq(x0, e),
                v128_or(
                    v128_and(y_r, u8x16_eq(x2, r)),
                    v128_and(u8x16_eq(x1, x), u8x16_eq(x2, c)),
                ),
            );
            let tra = v128_and(u8x16_eq(x0, t), v128_and(y_r, u8x16_eq(x2, a)));
            let pan = v128_and(u8x16_eq(x0, p), v128_and(u8x16_eq(x1, a), u8x16_eq(x2, n)));
            let fat_fai = v128_and(
                v128_and(u8x16_eq(x0, f), u8x16_eq(x1, a)),
                v128_or(u8x16_eq(x2, t), u8x16_eq(x2, i_)),
            );
            let starts = v128_or(v128_or(err_exc, tra), v128_or(pan, fat_fai));
            if v128_any_true(starts) {
                let mut lanes = u8x16_bitmask(starts);
                while lanes != 0 {
                    let j = i + lanes.trailing_zeros() as usize;
                    if keyword_at(line, j) {
                        return Some(j);
                    }
                    lanes &= lanes - 1;
                }
            }
            i += 16;
        }
        (i..line.len()).find(|&j| keyword_at(line, j))
    }
}

/// Whether one of [`ERROR_WORDS`] starts at `line[i]`, ASCII case-insensitively.
fn keyword_at(line: &[u8], i: usize) -> bool {
    let at = |word: &str| {
        line.get(i..i + word.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(word.as_bytes()))
    };
    match line[i] | 0x20 {
        b'e' => at("error") || at("exception"),
        b't' => at("traceback"),
        b'p' => at("panic"),
        b'f' => at("fatal") || at("failed"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary as it was made before [`Lines`]: every line split out, every line
    /// checked for errors. The sparse reading must give the same text.
    fn summary_reading_every_line(input: &SummaryInput<'_>) -> String {
        let all: Vec<&str> = input.output.text.lines().collect();
        let errors: Vec<usize> = (0..all.len())
            .filter(|&i| mentions_error(all[i].as_bytes()))
            .collect();
        let lines = Lines {
            total: all.len(),
            head: all.clone(),
            tail: all.iter().rev().copied().collect(),
            around: Vec::new(),
        };
        summary_of(input, &lines, &errors)
    }

    #[test]
    fn every_limit_is_kept_and_the_pointer_names_the_origin_whenever_it_fits() {
        let log = build_log();
        let tool = "t".repeat(900);
        for max_chars in 900..1200 {
            let mut i = input(&log, max_chars);
            i.output.tool_name = &tool;
            let s = summary(&i);
            assert!(utf16_len(&s) < max_chars, "{max_chars}: {}", utf16_len(&s));
            let origin = format!("ci/{tool} (call call_1)");
            let full = pointer_line(&i, &origin);
            let first = s.lines().next().unwrap_or_default();
            if utf16_len(&full) < max_chars {
                assert_eq!(first, full, "{max_chars}");
            } else {
                assert_eq!(first, pointer_line(&i, "tool"), "{max_chars}");
            }
            // Something after the pointer when there is room for more than the frame.
            let rest = max_chars.saturating_sub(utf16_len(first) + 1);
            assert_eq!(s.len() > first.len(), rest > 40, "{max_chars}");
        }
        // Every length a render of this log can have is some limit here: none is kept
        // at exactly the limit.
        for max_chars in 1000..6000 {
            let s = summary(&input(&log, max_chars));
            assert!(utf16_len(&s) < max_chars, "{max_chars}: {}", utf16_len(&s));
        }
    }

    #[test]
    fn reading_only_the_lines_shown_gives_the_summary_of_every_line() {
        let many = (0..300)
            .map(|i| match i % 37 {
                0 => format!("ERROR at step {i}\r"),
                5 => "panic: next to\r".to_owned(),
                6 => "failed right after".to_owned(),
                _ => format!("step {i} ok"),
            })
            .collect::<Vec<_>>()
            .join("\n");
        let texts = [
            "error on the first line\nsecond\nthird".to_owned(),
            "one\ntwo\nfatal on the last line".to_owned(),
            "one\ntwo\nfatal on the last line\n".to_owned(),
            "\n\nerror after empty lines\n\n".to_owned(),
            "Traceback\r\nexception\r\n".to_owned(),
            many.clone(),
            format!("{many}\n"),
            "x".repeat(5000),
            "error".to_owned(),
            // An error line just before the last lines shown, and one just after the first.
            (0..20)
                .map(|i| {
                    if i == 16 || i == 3 {
                        "error here"
                    } else {
                        "ok"
                    }
                })
                .collect::<Vec<_>>()
                .join("\n"),
        ];
        for text in &texts {
            for (snippet_lines, snippet_bytes, max_chars) in [
                (40, None, 4000),
                (3, None, 4000),
                (5, Some(60), 4000),
                (40, None, 700),
            ] {
                let mut i = input(text, max_chars);
                i.snippet_lines = snippet_lines;
                i.snippet_bytes = snippet_bytes;
                assert_eq!(
                    summary(&i),
                    summary_reading_every_line(&i),
                    "{text:?} {snippet_lines} {snippet_bytes:?} {max_chars}"
                );
            }
        }
    }

    fn build_log() -> String {
        let mut lines: Vec<String> = (1..=600)
            .map(|i| format!("   Compiling crate_{i} v0.1.{i}"))
            .collect();
        lines[299] = "error[E0308]: mismatched types --> src/main.rs:42:24".into();
        lines[449] = format!("warning: {} long line", "x".repeat(900));
        lines.push("error: could not compile `agent` due to 1 previous error".into());
        lines.join("\n")
    }

    fn input(text: &str, max_chars: usize) -> SummaryInput<'_> {
        SummaryInput {
            reference: "ctx://c1/tool/call_1.txt",
            output: ToolOutputRef {
                tool_call_id: "call_1",
                tool_name: "run_build",
                server_name: Some("ci"),
                text,
                was_value: false,
            },
            kind: ArtifactKind::Tool,
            measure: Measure::of(text),
            is_json: false,
            snippet_lines: 40,
            snippet_bytes: None,
            max_chars,
        }
    }

    #[test]
    fn shows_pointer_head_tail_errors_and_advice_within_the_limit() {
        let log = build_log();
        let s = summary(&input(&log, 4000));
        println!("{s}");
        let first = s.lines().next().unwrap();
        assert_eq!(first, "[Output of ci/run_build (call call_1) stored as ctx://c1/tool/call_1.txt and not shown in full: read it with context_read, context_tail or context_grep.]");
        assert!(
            s.contains("Size: 19,949 bytes, 19,949 characters, 601 lines. JSON: no."),
            "{s}"
        );
        assert!(s.contains("601 lines. JSON: no."));
        assert!(s.contains("300| error[E0308]"));
        assert!(
            s.contains("301|    Compiling crate_301 v0.1.301\n...\n600|"),
            "{s}"
        );
        assert!(s.contains(
            "--- errors: 2 lines mention error/exception/traceback/panic/fatal/failed ---"
        ));
        assert!(s.ends_with("context_grep(\"ctx://c1/tool/call_1.txt\", \"Error|Exception\")."));
        assert!(utf16_len(&s) < 4000);
        assert!(
            s.lines().all(|l| utf16_len(l) <= MAX_PREVIEW_CHARS + 40),
            "no preview line over 500 + marker"
        );
    }

    #[test]
    fn snippets_shrink_to_fit_and_never_exceed() {
        let log = build_log();
        for max in [300, 800, 1500, 4000, 20000] {
            let s = summary(&input(&log, max));
            assert!(utf16_len(&s) < max, "{max}: {}", utf16_len(&s));
        }
    }

    #[test]
    fn a_byte_budget_bounds_head_and_tail_too() {
        let text: String = (1..=100).map(|i| format!("{i:0>99}\n")).collect();
        let s = summary(&SummaryInput {
            snippet_bytes: Some(2048),
            ..input(&text, 20_000)
        });
        // 100 bytes a line with its newline: 20 lines fit in 2 KB, head and tail each.
        assert!(s.contains("--- first 20 lines ---\n1| "), "{s}");
        assert!(s.contains("--- 60 lines omitted ---\n--- last 20 lines ---\n81| "));
    }

    #[test]
    fn a_pointer_too_long_for_the_limit_names_only_the_kind() {
        // Found by `make fuzz` (summary_paging): a 2000-unit tool name made the
        // summary, pointer alone, twice the 1000-unit limit.
        let log = build_log();
        let name = "n".repeat(2000);
        let s = summary(&SummaryInput {
            output: ToolOutputRef {
                tool_name: &name,
                ..input(&log, 1000).output
            },
            ..input(&log, 1000)
        });
        assert!(utf16_len(&s) < 1000, "{}", utf16_len(&s));
        assert!(s.starts_with("[Output of tool stored as ctx://c1/tool/call_1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 19,949 bytes"), "{s}");
        assert_eq!(summary_ref(&s), Some("ctx://c1/tool/call_1.txt"));
    }

    #[test]
    fn error_keywords_match_in_any_ascii_case_anywhere() {
        let old = |line: &str| {
            let lower = line.to_ascii_lowercase();
            ERROR_WORDS.iter().any(|w| lower.contains(w))
        };
        for line in [
            "",
            "e",
            "err",
            "ERROR",
            "xErRoRx",
            "Exception:",
            "TRACEBACK (most",
            "panicked",
            "FaTaL",
            "build failed",
            "fail",
            "eRRO",
            "ɛrror",
            "ERR\u{130}R",
            "érror",
            "fatae",
            "tracebac",
            "Ｅrror",
            "a\u{212A}",
            "pani",
            "xxfaile",
            "failed!",
        ] {
            assert_eq!(mentions_error(line.as_bytes()), old(line), "{line:?}");
        }
        // Every keyword at every offset and case, around the eight-byte words and their
        // ninth byte, alone or among near misses; found where it starts.
        for word in ERROR_WORDS
            .iter()
            .chain(&["erro", "exceptio", "pa nic", "fatAl"])
        {
            for pad in 0..20 {
                for upper in [false, true] {
                    let w = if upper {
                        word.to_ascii_uppercase()
                    } else {
                        word.to_string()
                    };
                    for line in [
                        format!("{}{w}", "x".repeat(pad)),
                        format!("{}{w}{}", "é".repeat(pad / 2), "y".repeat(pad % 9)),
                        format!("{}{}", "Er".repeat(pad), &w[..w.len() - 1]),
                    ] {
                        assert_eq!(mentions_error(line.as_bytes()), old(&line), "{line:?}");
                        let lower = line.to_ascii_lowercase();
                        let at = ERROR_WORDS.iter().filter_map(|w| lower.find(w)).min();
                        assert_eq!(first_error(line.as_bytes()), at, "{line:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn short_outputs_show_every_line_once() {
        let s = summary(&input("a\nb\nc", 4000));
        assert!(s.contains("--- first 3 lines ---\n1| a\n2| b\n3| c\n"));
        assert!(!s.contains("omitted") && !s.contains("last"));
    }
}
