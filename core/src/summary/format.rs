//! Previews that know the format: a JSON document's shape and pretty-printed head, an
//! NDJSON stream's records, a CSV or TSV table's columns and rows, and binary data named
//! instead of shown.

use crate::json::{comma_list, pretty_head, synopsis};
use crate::text::measure::count;
use crate::text::thousands;

/// What the summary shows of the output's format: lines of its own (each without a
/// newline), head lines pretty-printed instead of the artifact's, and whether no line
/// of the artifact may be shown at all (binary data).
#[derive(Default)]
pub(super) struct Format {
    pub lines: Vec<String>,
    pub pretty: Vec<String>,
    pub binary: bool,
    /// A JSON path worth reading first (the largest array's first items), for the
    /// summary's hint: `context_read(ref, path="$.items[0:10]")`.
    pub read_path: Option<String>,
}

/// The format preview of `text` (`is_json`: a JSON document or a value's
/// `JSON.stringify`), with at most `head` pretty-printed lines.
pub(super) fn format(text: &str, is_json: bool, head: usize) -> Format {
    if let Some(kind) = binary(text) {
        return Format {
            lines: vec![format!(
                "--- binary data: {}{kind}; not shown ---",
                count(text.len(), "byte")
            )],
            pretty: Vec::new(),
            binary: true,
            read_path: None,
        };
    }
    if is_json {
        if let Some(bytes) = node_buffer(text) {
            let kind = magic(&bytes).map_or(String::new(), |k| format!(", {k}"));
            return Format {
                lines: vec![format!(
                    "--- binary data: a Buffer of {} as JSON{kind}; not shown ---",
                    count(buffer_len(text), "byte")
                )],
                pretty: Vec::new(),
                binary: true,
                read_path: None,
            };
        }
        return json(text, head);
    }
    if let Some(lines) = ndjson(text) {
        return Format {
            lines,
            ..Format::default()
        };
    }
    if let Some(line) = table(text) {
        return Format {
            lines: vec![line],
            ..Format::default()
        };
    }
    Format::default()
}

fn json(text: &str, head: usize) -> Format {
    let s = synopsis(text);
    let mut lines = vec![format!("--- JSON: {} ---", s.top)];
    for (key, desc) in &s.members {
        lines.push(format!("  {key}: {desc}"));
    }
    if s.more_members > 0 {
        lines.push(format!("  … {} more", count(s.more_members, "key")));
    }
    if let Some((path, len)) = &s.largest {
        lines.push(format!(
            "  largest array: {path}, {} items",
            thousands(*len)
        ));
    }
    // Pretty-printed head lines for JSON on long lines (minified, or one huge value),
    // where the artifact's own first lines would show a few hundred characters of one.
    let long_lines = text.lines().take(3).any(|l| l.len() > 200);
    Format {
        lines,
        pretty: if long_lines {
            pretty_head(text, head)
        } else {
            Vec::new()
        },
        binary: false,
        read_path: s.largest.as_ref().map(|(path, _)| format!("{path}[0:10]")),
    }
}

/// `--- NDJSON: 12,000 records; the first: object{ts, level, msg} ---` when the first
/// lines (up to five, two at least) are each a JSON object or array.
fn ndjson(text: &str) -> Option<Vec<String>> {
    let mut first = text.lines().filter(|l| !l.trim_ascii().is_empty());
    let sample: Vec<&str> = first.by_ref().take(5).collect();
    if sample.len() < 2 || !sample.iter().all(|l| crate::json::is_json_document(l)) {
        return None;
    }
    let records = crate::text::measure::line_count(text.as_bytes());
    let first = synopsis(sample[0]);
    let keys = comma_list(first.members.iter().map(|(k, _)| k.as_str()));
    Some(vec![if keys.is_empty() {
        format!(
            "--- NDJSON: {}; the first: {} ---",
            count(records, "record"),
            first.top
        )
    } else {
        format!(
            "--- NDJSON: {}; the first has keys {}{} ---",
            count(records, "record"),
            keys,
            if first.more_members > 0 { ", …" } else { "" }
        )
    }])
}

/// `--- CSV: 5 columns, 20,000 rows (a header and 19,999 records): id, name, … ---` when
/// the first lines (up to 20, five at least) have the same number of fields, two or
/// more, split on `,` or tabs outside quotes.
fn table(text: &str) -> Option<String> {
    let sample: Vec<&str> = text.lines().take(20).collect();
    if sample.len() < 5 {
        return None;
    }
    for (separator, name) in [(b'\t', "TSV"), (b',', "CSV")] {
        let fields = fields(sample[0], separator);
        if fields.len() < 2
            || !sample
                .iter()
                .all(|l| fields_count(l, separator) == fields.len())
        {
            continue;
        }
        let rows = crate::text::measure::line_count(text.as_bytes());
        let mut header = comma_list(fields.iter().take(12).map(|f| f.trim_matches('"')));
        if fields.len() > 12 {
            header.push_str(", …");
        }
        return Some(format!(
            "--- {name}: {}, {} (a header and {}): {} ---",
            count(fields.len(), "column"),
            count(rows, "row"),
            count(rows - 1, "record"),
            crate::text::measure::cut(&header, 300)
        ));
    }
    None
}

/// The fields of a CSV/TSV line, split on `separator` outside double quotes.
fn fields(line: &str, separator: u8) -> Vec<&str> {
    let (mut out, mut start, mut quoted) = (Vec::new(), 0, false);
    for (i, &b) in line.as_bytes().iter().enumerate() {
        if b == b'"' {
            quoted = !quoted;
        } else if b == separator && !quoted {
            out.push(&line[start..i]);
            start = i + 1;
        }
    }
    out.push(&line[start..]);
    out
}

fn fields_count(line: &str, separator: u8) -> usize {
    fields(line, separator).len()
}

/// `Some(", PNG image")`-like when the text's first KB looks binary: a NUL, or many
/// replacement characters (bytes that were not UTF-8).
fn binary(text: &str) -> Option<String> {
    let head = &text[..crate::text::byte_index_at(text, 1024)];
    let replaced = head.chars().filter(|&c| c == '\u{FFFD}').count();
    let chars = head.chars().count();
    if !(head.contains('\0') || (chars > 0 && replaced * 10 >= chars && replaced >= 4)) {
        return None;
    }
    // Bytes that were not UTF-8 arrive as U+FFFD: compare what survived.
    let bytes: Vec<u8> = head
        .chars()
        .take(16)
        .map(|c| if (c as u32) < 0x100 { c as u8 } else { 0xFF })
        .collect();
    Some(magic(&bytes).map_or(String::new(), |k| format!(", {k}")))
}

/// The kind of data whose first bytes are `bytes`, by magic number. (A byte that arrived
/// as U+FFFD is 0xFF here: only the ASCII parts of a signature are compared then.)
pub(crate) fn magic(bytes: &[u8]) -> Option<&'static str> {
    let at = |offset: usize, sig: &[u8]| {
        bytes.get(offset..offset + sig.len()).is_some_and(|b| {
            b.iter()
                .zip(sig)
                .all(|(&x, &y)| x == y || (x == 0xFF && !y.is_ascii()))
        })
    };
    const KINDS: [(usize, &[u8], &str); 11] = [
        (0, b"\x89PNG", "looks like a PNG image"),
        (0, b"\xFF\xD8\xFF", "looks like a JPEG image"),
        (0, b"GIF8", "looks like a GIF image"),
        (0, b"%PDF", "looks like a PDF document"),
        (0, b"PK\x03\x04", "looks like a ZIP archive"),
        (0, b"\x1F\x8B", "looks like gzip data"),
        (0, b"\x7FELF", "looks like an ELF executable"),
        (0, b"\0asm", "looks like WebAssembly"),
        (0, b"SQLite format 3", "looks like an SQLite database"),
        (8, b"WEBP", "looks like a WebP image"),
        (4, b"ftyp", "looks like an MP4/QuickTime video"),
    ];
    KINDS
        .iter()
        .find(|(offset, sig, _)| at(*offset, sig))
        .map(|k| k.2)
}

/// The first bytes of a Node `Buffer` as `JSON.stringify` writes it,
/// `{"type":"Buffer","data":[137,80,…]}`.
fn node_buffer(text: &str) -> Option<Vec<u8>> {
    let rest = text.strip_prefix("{\"type\":\"Buffer\",\"data\":[")?;
    // Digits by hand: `str::parse` would bring its own number parser into the wasm.
    let mut bytes = Vec::new();
    let mut value: u32 = 0;
    for b in rest.bytes() {
        match b {
            b'0'..=b'9' => value = value * 10 + u32::from(b - b'0'),
            b',' | b']' if value < 256 && bytes.len() < 16 => {
                bytes.push(value as u8);
                value = 0;
                if b == b']' {
                    break;
                }
            }
            _ => break,
        }
    }
    Some(bytes)
}

/// How many bytes a stringified `Buffer` holds: its commas, plus one.
fn buffer_len(text: &str) -> usize {
    match text.strip_prefix("{\"type\":\"Buffer\",\"data\":[") {
        Some("]}") | None => 0,
        Some(rest) => memchr::memchr_iter(b',', rest.as_bytes()).count() + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_documents_get_their_shape_and_a_pretty_head() {
        let items: Vec<String> = (0..5000)
            .map(|i| format!(r#"{{"id":{i},"sku":"S{i}","price":1.5,"tags":["a"]}}"#))
            .collect();
        let text = format!(r#"{{"items":[{}],"next":null}}"#, items.join(","));
        let f = format(&text, true, 6);
        assert_eq!(
            f.lines,
            [
                "--- JSON: object, 2 keys ---",
                "  items: array[5,000] of object{id, sku, price, tags}",
                "  next: null",
                "  largest array: $.items, 5,000 items",
            ]
        );
        assert_eq!(
            f.pretty,
            [
                "{",
                "  \"items\": [",
                "    {",
                "      \"id\": 0,",
                "      \"sku\": \"S0\",",
                "      \"price\": 1.5,"
            ]
        );
        // Already laid out on short lines: the artifact's own lines serve.
        assert!(format("{\n  \"a\": 1\n}", true, 6).pretty.is_empty());
    }

    #[test]
    fn tables_streams_and_binary() {
        let csv: String = std::iter::once("id,name,\"city, state\"\n".to_owned())
            .chain((1..=20_000).map(|i| format!("{i},n{i},\"X, Y\"\n")))
            .collect();
        assert_eq!(
            format(&csv, false, 40).lines,
            ["--- CSV: 3 columns, 20,001 rows (a header and 20,000 records): id, name, city, state ---"]
        );
        let ndjson = "{\"ts\":1,\"level\":\"info\"}\n{\"ts\":2,\"level\":\"warn\"}\n";
        assert_eq!(
            format(ndjson, false, 40).lines,
            ["--- NDJSON: 2 records; the first has keys ts, level ---"]
        );
        let png = "\u{FFFD}PNG\r\n\u{1A}\n\0\0\0\rIHDR\0\0\u{FFFD}\u{FFFD}";
        let f = format(png, false, 40);
        assert!(f.binary);
        assert_eq!(
            f.lines,
            ["--- binary data: 26 bytes, looks like a PNG image; not shown ---"]
        );
        let buffer = r#"{"type":"Buffer","data":[37,80,68,70,45,49]}"#;
        assert_eq!(
            format(buffer, true, 40).lines,
            ["--- binary data: a Buffer of 6 bytes as JSON, looks like a PDF document; not shown ---"]
        );
        assert!(format("plain\ntext\n", false, 40).lines.is_empty());
        assert!(format("a,b\nc\nd,e\nf,g\nh,i\n", false, 40)
            .lines
            .is_empty());
    }
}
