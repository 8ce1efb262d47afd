//! The outline of a document or a source file — its map: headings, definitions (in a
//! source file, and in a document's code blocks) and import blocks, each with the
//! lines it spans, so a model sees the shape of a file it was not
//! shown and can read the part it needs by line.

use super::definitions::{definition, import};
use crate::summary::detect::gutter;

/// The depth of a definition found in a document's code block: after every heading.
pub(super) const IN_CODE_BLOCK: u8 = 7;

/// One outline entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry<'a> {
    /// Its first line (0-based).
    pub line: usize,
    /// Its last line (0-based): the line before the next entry as deep or shallower
    /// (before the end of its code block, for one in a document's code block), blank
    /// lines left out.
    pub end: usize,
    /// The line's text, without a file read's gutter.
    pub text: &'a str,
    /// Its first and last lines as the file numbers them (a file read's gutter: a
    /// partial read's start at line 282, a header line before them), else as `line`
    /// and `end` numbered from 1.
    pub numbers: (usize, usize),
    /// A heading's level; 1 for a top-level definition, 2 for an indented one or an
    /// import block (its first line), [`IN_CODE_BLOCK`] for a definition in a
    /// document's code block.
    pub depth: u8,
}

/// An outline: its entries in order, and how many of each kind.
#[derive(Default)]
pub(super) struct Outline<'a> {
    pub entries: Vec<Entry<'a>>,
    /// Markdown headings among them.
    pub headings: usize,
    /// Definitions among them (import blocks not counted).
    pub definitions: usize,
    /// Whether it is a source file's (definitions outside code blocks) rather than a
    /// document's.
    pub code: bool,
}

/// Whether `text` is a file read: every one of its first (non-empty) lines, up to five,
/// has a gutter (`   146→text`, `cat -n`'s `   146\ttext`), or all but a first line
/// saying what was read (OpenHands' `Here's the result of running `cat -n` on PATH:`).
pub(super) fn is_file_read(text: &str) -> bool {
    let mut first = text.lines().filter(|l| !l.is_empty()).take(6);
    let Some(head) = first.next() else {
        return false;
    };
    let rest: Vec<bool> = first.map(|l| gutter(l).is_some()).collect();
    let numbered = rest.iter().filter(|&&g| g).count();
    if gutter(head).is_some() {
        rest.iter().take(4).all(|&g| g)
    } else {
        numbered >= 2 && rest.iter().all(|&g| g)
    }
}

/// The number a file read's gutter gives `line`, if it has one.
fn gutter_number(line: &str) -> Option<usize> {
    gutter(line)?;
    line.trim_start()
        .bytes()
        .take_while(u8::is_ascii_digit)
        .try_fold(0usize, |n, d| {
            n.checked_mul(10)?.checked_add(usize::from(d - b'0'))
        })
}

/// What one scan found: definitions outside code blocks (a source file's), and
/// headings with the definitions inside code blocks (a document's).
#[derive(Default)]
struct Scan<'a> {
    code: Vec<Entry<'a>>,
    document: Vec<Entry<'a>>,
    /// For each entry of `code` and `document`: the last non-blank line before it.
    code_before: Vec<usize>,
    document_before: Vec<usize>,
    /// Each code block's entries (indices into `document`) end at most here.
    block_limits: Vec<(usize, usize)>,
}

/// The outline of `text`, when it is a file read (every one of its first lines has a
/// gutter) or a Markdown document (two headings or more): a source file's definitions
/// and import blocks when it has definitions outside code blocks, else its Markdown
/// headings (outside code blocks) and the definitions in its code blocks. Empty for
/// anything else.
pub(super) fn outline(text: &str) -> Outline<'_> {
    let file_read = is_file_read(text);
    if !file_read
        && memchr::memmem::find_iter(text.as_bytes(), b"\n#")
            .take(2)
            .count()
            < 2
    {
        return Outline::default();
    }
    let mut scan = Scan::default();
    let mut fence: Option<usize> = None;
    let mut last_nonblank = 0;
    let mut last = 0;
    // The file's number of a line minus its own (from the first numbered line).
    let mut delta: Option<isize> = None;
    for (i, line) in text.lines().enumerate() {
        last = i;
        if file_read && delta.is_none() {
            delta = gutter_number(line).map(|n| n as isize - (i as isize + 1));
        }
        let content = if file_read {
            &line[gutter(line).unwrap_or(0)..]
        } else {
            line
        };
        let indent = content.bytes().take_while(|&b| b == b' ').count();
        let rest = &content[indent..];
        if rest.starts_with("```") || rest.starts_with("~~~") {
            match fence {
                Some(opened) => {
                    scan.block_limits.push((opened, last_nonblank));
                    fence = None;
                }
                None => fence = Some(scan.document.len()),
            }
            last_nonblank = i;
            continue;
        }
        if rest.trim_end().is_empty() {
            continue;
        }
        if fence.is_some() {
            in_code_block(&mut scan, i, content, indent, last_nonblank);
        } else {
            outside_code_blocks(&mut scan, i, content, indent, last_nonblank);
        }
        last_nonblank = i;
    }
    if let Some(opened) = fence {
        scan.block_limits.push((opened, last_nonblank));
    }
    finish(scan, last, delta.unwrap_or(0))
}

/// A line inside a document's code block: a definition (`class A:`, `Record:` opening
/// a block of keys) at the block's own indentation.
fn in_code_block<'a>(
    scan: &mut Scan<'a>,
    i: usize,
    content: &'a str,
    indent: usize,
    before: usize,
) {
    if indent == 0 && (definition(content) || yaml_key_block(content)) {
        scan.document.push(Entry {
            line: i,
            end: i,
            text: content.trim_end(),
            numbers: (0, 0),
            depth: IN_CODE_BLOCK,
        });
        scan.document_before.push(before);
    }
}

/// A line outside code blocks: a Markdown heading, a definition, an import.
fn outside_code_blocks<'a>(
    scan: &mut Scan<'a>,
    i: usize,
    content: &'a str,
    indent: usize,
    before: usize,
) {
    let hashes = content.bytes().take_while(|&b| b == b'#').count();
    if (1..=6).contains(&hashes) && content[hashes..].starts_with(' ') {
        scan.document.push(Entry {
            line: i,
            end: i,
            text: content.trim_end(),
            numbers: (0, 0),
            depth: hashes as u8,
        });
        scan.document_before.push(before);
        return;
    }
    if indent <= 4 && definition(&content[indent..]) {
        scan.code.push(Entry {
            line: i,
            end: i,
            text: content.trim_end(),
            numbers: (0, 0),
            depth: if indent == 0 { 1 } else { 2 },
        });
        scan.code_before.push(before);
        return;
    }
    if indent == 0 && import(content) {
        // Consecutive imports (blank lines between them too) are one entry.
        if let Some(last) = scan.code.last_mut() {
            if last.depth == 2 && import(last.text) && last.end == before {
                last.end = i;
                return;
            }
        }
        scan.code.push(Entry {
            line: i,
            end: i,
            text: content.trim_end(),
            numbers: (0, 0),
            depth: 2,
        });
        scan.code_before.push(before);
    }
}

/// Whether `line` opens a block of keys: `Name:` alone (a comment may follow), a
/// schema's record, a YAML mapping.
fn yaml_key_block(line: &str) -> bool {
    let end = line
        .bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-')
        .count();
    if end == 0 || !line.as_bytes()[0].is_ascii_alphabetic() {
        return false;
    }
    let Some(after) = line[end..].strip_prefix(':') else {
        return false;
    };
    let after = after.trim_start();
    // A block statement of code (`try:`, `else:`) is no record.
    let statement = [
        "try", "else", "finally", "except", "do", "default", "case", "with", "then", "begin",
        "loop",
    ]
    .contains(&&line[..end]);
    !statement && (after.is_empty() || after.starts_with('#'))
}

/// The entries `scan` found, each given its end: a source file's when it has
/// definitions outside code blocks, else a document's. Entries still open at the end
/// end at the text's `last` line: the first heading's part is the whole document.
fn finish(scan: Scan<'_>, last: usize, delta: isize) -> Outline<'_> {
    // A source file's comments may look like headings (`# setup`), a document's prose
    // like a definition (`class names are…`): the kind with more entries decides.
    let definitions = scan.code.iter().filter(|e| !import(e.text)).count();
    let headings = scan
        .document
        .iter()
        .filter(|e| e.depth < IN_CODE_BLOCK)
        .count();
    let (mut entries, before, code) = if definitions > 0 && definitions * 2 > headings {
        (scan.code, scan.code_before, true)
    } else {
        (scan.document, scan.document_before, false)
    };
    // Each entry ends where the next one as deep or shallower starts: a stack of the
    // open ones.
    let mut open: Vec<usize> = Vec::new();
    // An import block ends at its last import.
    let imports = |e: &Entry<'_>| code && e.depth == 2 && import(e.text);
    for k in 0..entries.len() {
        while let Some(&top) = open.last() {
            if entries[top].depth < entries[k].depth {
                break;
            }
            if !imports(&entries[top]) {
                entries[top].end = entries[top].end.max(before[k]);
            }
            open.pop();
        }
        open.push(k);
    }
    for k in open {
        if !imports(&entries[k]) {
            entries[k].end = entries[k].end.max(last);
        }
    }
    if !code {
        for &(first, limit) in &scan.block_limits {
            for e in entries.iter_mut().skip(first) {
                if e.line > limit {
                    break;
                }
                if e.depth == IN_CODE_BLOCK {
                    e.end = e.end.min(limit).max(e.line);
                }
            }
        }
    }
    let number = |line: usize| (line as isize + 1 + delta).max(1) as usize;
    for e in &mut entries {
        e.numbers = (number(e.line), number(e.end));
    }
    let headings = entries
        .iter()
        .filter(|e| e.depth < IN_CODE_BLOCK && !code)
        .count();
    let definitions = entries
        .iter()
        .filter(|e| (code && !import(e.text)) || e.depth == IN_CODE_BLOCK)
        .count();
    Outline {
        entries,
        headings,
        definitions,
        code,
    }
}

#[cfg(test)]
#[path = "outline_tests.rs"]
mod tests;
