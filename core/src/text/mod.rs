//! Character counting in JavaScript terms.

pub(crate) mod measure;
pub(crate) mod plain;

/// Length of `s` in UTF-16 code units: what JavaScript's `string.length` reports.
///
/// Characters outside the Basic Multilingual Plane (emoji, for instance) count 2,
/// everything else 1, so the count differs from both `str::len` (bytes) and
/// `chars().count()` (code points).
///
/// ```
/// use tool_offload_core::utf16_len;
/// assert_eq!(utf16_len("abc"), 3);
/// assert_eq!(utf16_len("é"), 1); // 2 UTF-8 bytes
/// assert_eq!(utf16_len("😀"), 2); // 1 code point, 4 bytes
/// ```
pub fn utf16_len(s: &str) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { utf16_len_avx2(s.as_bytes()) };
    }
    count_units::<32>(s.as_bytes())
}

/// [`count_units`] compiled for AVX2: twice the bytes per instruction of the baseline
/// SSE2 build (the corpus benchmark spends most of its time here).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn utf16_len_avx2(bytes: &[u8]) -> usize {
    count_units::<64>(bytes)
}

/// UTF-16 units of UTF-8 `bytes`, `LANES` bytes at a time.
#[inline(always)]
fn count_units<const LANES: usize>(bytes: &[u8]) -> usize {
    // Every byte counts one unit except continuation bytes (0b10xx_xxxx, i.e. below -64
    // as i8), and each four-byte sequence (lead byte 0xF0..) needs a surrogate pair: one
    // more. Counts of 0..=2 per byte are summed lane-wise into `LANES` u8 counters over
    // whole `LANES`-byte blocks (at most 127 blocks before a counter could overflow), so
    // LLVM vectorises every block; only the last < `LANES` bytes are counted one by one.
    // (Uneven 127-byte blocks left a 15-byte scalar tail in each.)
    let unit = |b: u8| u8::from((b as i8) >= -0x40) + u8::from(b >= 0xF0);
    let (whole, tail) = bytes.split_at(bytes.len() - bytes.len() % LANES);
    let mut total = 0usize;
    for group in whole.chunks(127 * LANES) {
        let mut counts = [0u8; LANES];
        for block in group.chunks_exact(LANES) {
            for (count, &b) in counts.iter_mut().zip(block.iter()) {
                *count += unit(b);
            }
        }
        total += counts.iter().map(|&n| usize::from(n)).sum::<usize>();
    }
    total + tail.iter().map(|&b| usize::from(unit(b))).sum::<usize>()
}

/// `s` without what JavaScript's `String.prototype.trim` removes at both ends:
/// ECMAScript WhiteSpace and LineTerminator characters. (Rust's `str::trim` differs: it
/// keeps U+FEFF and removes U+0085.)
///
/// ```
/// use tool_offload_core::js_trim;
/// assert_eq!(js_trim("\u{FEFF} a \u{3000}"), "a");
/// assert_eq!(js_trim("\u{85}a"), "\u{85}a");
/// ```
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(|c| {
        matches!(
            c,
            '\t' | '\n' | '\u{B}' | '\u{C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
                ..='\u{200A}'
                    | '\u{2028}'
                    | '\u{2029}'
                    | '\u{202F}'
                    | '\u{205F}'
                    | '\u{3000}'
                    | '\u{FEFF}'
        )
    })
}

/// The largest count (of lines, matches, parts, rows) a caller or a model may pass: the
/// same on every host, so a 32-bit wasm never wraps `4294967297` round to line 1 and a
/// 64-bit host never reads it as something else.
pub const MAX_COUNT: u64 = u32::MAX as u64;

/// `n` as a count for paging (lines, parts, matches, limits): `Err(true)` when it is a
/// safe integer over [`MAX_COUNT`], `Err(false)` when it is no non-negative safe
/// integer at all.
///
/// ```
/// use tool_offload_core::{count_in_range, MAX_COUNT};
/// assert_eq!(count_in_range(7.0), Ok(7));
/// assert_eq!(count_in_range(4_294_967_297.0), Err(true));
/// assert_eq!(count_in_range(-1.0), Err(false));
/// assert_eq!(count_in_range(MAX_COUNT as f64), Ok(u32::MAX as usize));
/// ```
pub fn count_in_range(n: f64) -> Result<usize, bool> {
    match safe_count(n) {
        Some(n) if n <= MAX_COUNT => usize::try_from(n).map_err(|_| true),
        Some(_) => Err(true),
        None => Err(false),
    }
}

/// `n` as a count, when it is one: a non-negative integer that a JavaScript number
/// holds exactly (at most `Number.MAX_SAFE_INTEGER`). Every count a host reads from
/// JavaScript or JSON (thresholds, limits, sizes, times) is checked by this one rule.
///
/// ```
/// use tool_offload_core::safe_count;
/// assert_eq!(safe_count(200.0), Some(200));
/// assert_eq!(safe_count(9_007_199_254_740_991.0), Some(9_007_199_254_740_991));
/// assert_eq!(safe_count(9_007_199_254_740_992.0), None);
/// assert_eq!((safe_count(-1.0), safe_count(1.5), safe_count(f64::NAN)), (None, None, None));
/// ```
pub fn safe_count(n: f64) -> Option<u64> {
    const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;
    (n >= 0.0 && n.fract() == 0.0 && n <= MAX_SAFE_INTEGER).then_some(n as u64)
}

/// The byte index after at most `units` UTF-16 code units of `s`, on a char boundary
/// (a surrogate pair is never split).
pub fn byte_index_at(s: &str, units: usize) -> usize {
    let mut count = 0;
    for (i, c) in s.char_indices() {
        count += c.len_utf16();
        if count > units {
            return i;
        }
    }
    s.len()
}

/// `1234567` as `1,234,567`, for sizes the model reads.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A count [`thousands`] wrote, read back: digits with commas between groups.
pub(crate) fn parse_thousands(text: &str) -> Option<usize> {
    let mut n: usize = 0;
    let mut digits = 0;
    for b in text.bytes() {
        match b {
            b'0'..=b'9' => {
                n = n.checked_mul(10)?.checked_add(usize::from(b - b'0'))?;
                digits += 1;
            }
            b',' => {}
            _ => return None,
        }
    }
    (digits > 0).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::utf16_len;

    #[test]
    fn matches_encode_utf16_on_mixed_text() {
        let samples = [
            "",
            "a",
            "ß",
            "€",
            "😀",
            "a😀b€ß\u{10FFFF}\u{FFFF}",
            "\u{7F}\u{80}",
        ];
        for s in samples {
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s:?}");
        }
    }

    #[test]
    fn matches_encode_utf16_at_every_alignment() {
        // Pseudo-random mixes of 1- to 4-byte characters, cut at every offset, so every
        // character straddles every chunk boundary at some point.
        let alphabet = [
            'a',
            '~',
            'é',
            'ß',
            '€',
            '中',
            '\u{FFFF}',
            '😀',
            '\u{10FFFF}',
            '\u{80}',
        ];
        let mut seed = 7u32;
        let text: String = (0..600)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                alphabet[(seed >> 16) as usize % alphabet.len()]
            })
            .collect();
        for (start, _) in text.char_indices().take(40) {
            let s = &text[start..];
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "from byte {start}");
        }
    }

    #[test]
    fn both_block_widths_count_the_same() {
        let text = "é€a😀x".repeat(3000);
        for cut in [0, 1, 5, 63, 64, 65, 8128, 8129] {
            let Some(s) = text.get(cut..) else { continue };
            let want = s.encode_utf16().count();
            assert_eq!(
                super::count_units::<32>(s.as_bytes()),
                want,
                "32 from byte {cut}"
            );
            assert_eq!(
                super::count_units::<64>(s.as_bytes()),
                want,
                "64 from byte {cut}"
            );
        }
    }

    #[test]
    fn utf16_len_counts_past_a_full_group_of_blocks() {
        // More than 127 blocks of 32 bytes, where a lane's u8 counter would overflow if
        // it were not emptied; four-byte characters give the largest counts.
        for text in ["😀".repeat(5000), "é€a😀".repeat(2000), "x".repeat(10_000)] {
            for cut in [0, 1, 2, 3, 4, 31, 32, 33, 4064, 4065] {
                let Some(s) = text.get(cut..) else { continue };
                assert_eq!(utf16_len(s), s.encode_utf16().count(), "from byte {cut}");
            }
        }
    }
}
