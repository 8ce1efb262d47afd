//! A line as a terminal would show it: ANSI escape sequences (colours, cursor moves,
//! hyperlinks) left out, and of a line a progress bar redrew with `\r`, the last
//! drawing. Summaries and pages show lines this way; artifacts keep the bytes.

use std::borrow::Cow;

/// `line` without escape sequences, and only what follows its last `\r` (one at the
/// very end is no redraw and is dropped too).
///
/// ```
/// use tool_offload_core::materialize::plain;
/// assert_eq!(plain("\x1b[1m\x1b[31merror\x1b[0m: boom"), "error: boom");
/// assert_eq!(plain("10%\r55%\r100% done"), "100% done");
/// assert_eq!(plain("\x1b]8;;https://x.dev\x07link\x1b]8;;\x07"), "link");
/// assert_eq!(plain("as is"), "as is");
/// ```
pub fn plain(line: &str) -> Cow<'_, str> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let line = match memchr::memrchr(b'\r', line.as_bytes()) {
        Some(i) => &line[i + 1..],
        None => line,
    };
    if memchr::memchr(0x1b, line.as_bytes()).is_none() {
        return Cow::Borrowed(line);
    }
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let (mut i, mut kept) = (0, 0);
    while let Some(at) = memchr::memchr(0x1b, &bytes[i..]).map(|k| i + k) {
        out.push_str(&line[kept..at]);
        i = escape_end(bytes, at);
        kept = i;
    }
    out.push_str(&line[kept..]);
    Cow::Owned(out)
}

/// Where the escape sequence starting at `bytes[at]` (an ESC) ends: CSI
/// (`ESC [` parameters, intermediates, a final byte), OSC (`ESC ]` … BEL or `ESC \`),
/// or ESC with intermediates and one final byte. Always on a char boundary: every byte
/// it steps over is ASCII, and it stops before any other.
fn escape_end(bytes: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    match bytes.get(i) {
        Some(b'[') => {
            i += 1;
            while i < bytes.len() && (0x20..0x40).contains(&bytes[i]) {
                i += 1;
            }
            if i < bytes.len() && (0x40..0x7f).contains(&bytes[i]) {
                i += 1;
            }
            i
        }
        Some(b']') => {
            i += 1;
            while i < bytes.len() {
                match bytes[i] {
                    0x07 => return i + 1,
                    0x1b if bytes.get(i + 1) == Some(&b'\\') => return i + 2,
                    _ => i += 1,
                }
            }
            // Unterminated: dropped to the end, on a char boundary (the line's end).
            bytes.len()
        }
        _ => {
            while i < bytes.len() && (0x20..0x30).contains(&bytes[i]) {
                i += 1;
            }
            if i < bytes.len() && (0x30..0x7f).contains(&bytes[i]) {
                i += 1;
            }
            i
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_sequence_goes_and_text_stays() {
        for (raw, shown) in [
            ("\x1b[0m", ""),
            ("a\x1b[38;5;196mb\x1b[0mc", "abc"),
            ("\x1b[2K\x1b[1Gx", "x"),
            ("\x1b(Bx", "x"),
            ("\x1b7x\x1b8", "x"),
            ("\x1b]0;title\x1b\\x", "x"),
            ("é\x1b[1mé", "éé"),
            ("\x1b", ""),
            ("a\x1b[", "a"),
            ("\x1b[31", ""),
            ("\x1b]8;;é", ""),
            ("x\r", "x"),
            ("a\rb\r", "b"),
        ] {
            assert_eq!(plain(raw), shown, "{raw:?}");
        }
    }
}
