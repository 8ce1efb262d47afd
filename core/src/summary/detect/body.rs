//! The part of a line the rules read: without the prefixes tools and runners put
//! before a message (a file read's gutter, a timestamp, a box border, a build step).

/// The part of a (plain) line the rules' starts are read from: without a pytest `E`
/// gutter, leading blanks, a box-drawing border (terraform's `│`), an ISO 8601
/// timestamp (CI runners, log files) or a BuildKit step prefix (`#8 0.523`).
///
/// ```
/// use tool_offload_core::materialize::detect::body;
/// assert_eq!(body("2024-05-01T10:00:00.1234567Z ##[error]Process completed"), "##[error]Process completed");
/// assert_eq!(body("#8 0.523 npm ERR! code E404"), "npm ERR! code E404");
/// assert_eq!(body("│ Error: Invalid reference"), "Error: Invalid reference");
/// assert_eq!(body("E       ValueError: bad"), "ValueError: bad");
/// assert_eq!(body("2024-05-01 10:00:00,123 ERROR db down"), "ERROR db down");
/// ```
pub fn body(line: &str) -> &str {
    // A file read's gutter (`    12→`, `cat -n`): a log read from a file reads the same.
    let line = match gutter(line) {
        Some(width) => &line[width..],
        None => line,
    };
    let mut s = match line.strip_prefix('E') {
        Some(rest) if rest.starts_with("   ") => rest,
        _ => line,
    };
    s = s.trim_ascii_start();
    for border in ["│", "┃", "╷", "╵"] {
        if let Some(rest) = s.strip_prefix(border) {
            s = rest.trim_ascii_start();
        }
    }
    if let Some(rest) = after_timestamp(s) {
        s = rest.trim_ascii_start();
    }
    if let Some(rest) = after_buildkit_step(s) {
        s = rest.trim_ascii_start();
    }
    s
}

/// The width of a file-read gutter at the start of `line`: Claude Code's `    12→` or
/// `cat -n`'s `    12\t`.
pub(crate) fn gutter(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let spaces = b.iter().take_while(|&&c| c == b' ').count();
    let digits = b[spaces..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    let rest = &line[spaces + digits..];
    if rest.starts_with('\t') {
        Some(spaces + digits + 1)
    } else if rest.starts_with('→') {
        Some(spaces + digits + '→'.len_utf8())
    } else {
        None
    }
}

/// `s` after a leading `2024-05-01T10:00:00[.fff][Z|+01:00]` (or a space for the `T`).
fn after_timestamp(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        b.get(range)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let dash = b.get(4).filter(|&&c| c == b'-' || c == b'/');
    let shape = digits(0..4)
        && dash.is_some()
        && digits(5..7)
        && b.get(7) == dash
        && digits(8..10)
        && matches!(b.get(10), Some(b'T' | b' '))
        && digits(11..13)
        && b.get(13) == Some(&b':')
        && digits(14..16);
    if !shape {
        return None;
    }
    let mut i = 16;
    while i < b.len() && (b[i].is_ascii_digit() || matches!(b[i], b':' | b'.' | b',')) {
        i += 1;
    }
    if b.get(i) == Some(&b'Z') {
        i += 1;
    } else if matches!(b.get(i), Some(b'+' | b'-')) && digits(i + 1..i + 3) {
        i += 3;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b':') {
            i += 1;
        }
    }
    (i == b.len() || b[i] == b' ').then(|| &s[i..])
}

/// `s` after BuildKit's `#8 0.523 ` (step number, seconds).
fn after_buildkit_step(s: &str) -> Option<&str> {
    let rest = s.strip_prefix('#')?;
    let n = rest.bytes().take_while(u8::is_ascii_digit).count();
    let rest = rest[n..].strip_prefix(' ').filter(|_| n > 0)?;
    let t = rest
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b'.')
        .count();
    let after = rest[t..].strip_prefix(' ')?;
    (t > 0 && rest[..t].contains('.')).then_some(after)
}
