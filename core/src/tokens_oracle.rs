//! The estimate as it was first written, a byte at a time through `is_ascii_*` tests:
//! the reference the table-driven [`super::estimate_tokens`] is compared with.

/// See [`super::estimate_tokens`].
pub fn estimate_tokens(text: &str) -> usize {
    // Bytes, not UTF-16 units: every class but `wide` is ASCII, so each UTF-8 sequence
    // of a wide character is counted once, as its one or two UTF-16 units.
    let s = text.as_bytes();
    let n = s.len();
    let mut eighths = 0usize;
    let mut i = 0;
    while i < n {
        let b = s[i];
        if b.is_ascii_alphabetic() {
            let spaced = i > 0 && s[i - 1] == b' ';
            let (mut start, mut first) = (i, true);
            i += 1;
            loop {
                let more = i < n && s[i].is_ascii_alphabetic();
                if !more || (s[i].is_ascii_uppercase() && s[i - 1].is_ascii_lowercase()) {
                    let len = i - start;
                    eighths += if first && spaced {
                        8 * len.div_ceil(10)
                    } else {
                        11 * len.div_ceil(5)
                    };
                    if !more {
                        break;
                    }
                    (start, first) = (i, false);
                }
                i += 1;
            }
        } else if b.is_ascii_digit() {
            let end = run(s, i, |b| b.is_ascii_digit());
            eighths += 12 * (end - i).div_ceil(3);
            i = end;
        } else if b == b' ' || b == b'\t' || b == b'\n' || b == b'\r' {
            let (mut end, mut after_newline) = (i, None);
            while end < n && matches!(s[end], b' ' | b'\t' | b'\n' | b'\r') {
                if matches!(s[end], b'\n' | b'\r') {
                    after_newline = Some(end + 1);
                }
                end += 1;
            }
            if after_newline.is_some() {
                eighths += 8;
            }
            let blanks = after_newline.unwrap_or(i);
            if end > blanks {
                if end == n {
                    eighths += 5;
                } else {
                    if end - blanks >= 2 || s[blanks] == b'\t' {
                        eighths += 5;
                    }
                    if s[end].is_ascii_digit() {
                        eighths += 5;
                    }
                }
            }
            i = end;
        } else if b.is_ascii() {
            let end = run(s, i, is_symbol);
            if !(end - i == 1 && end < n && s[end].is_ascii_alphabetic()) {
                eighths += 5;
            }
            i = end;
        } else {
            // A leading byte: one UTF-16 unit, two for a four-byte sequence; continuation
            // bytes cost nothing.
            eighths += match b {
                0xF0.. => 16,
                0xC0.. => 8,
                _ => 0,
            };
            i += 1;
        }
    }
    eighths.div_ceil(8)
}

fn is_symbol(b: u8) -> bool {
    b.is_ascii() && !b.is_ascii_alphanumeric() && !matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn run(s: &[u8], at: usize, keep: impl Fn(u8) -> bool) -> usize {
    at + s[at..].iter().take_while(|&&b| keep(b)).count()
}
