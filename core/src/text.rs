//! Character counting in JavaScript terms.

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
    // Every code point starts with a non-continuation byte; those that need a surrogate
    // pair in UTF-16 are exactly the ones encoded in four UTF-8 bytes (lead byte 0xF0..).
    // Branch-free so the loop vectorises.
    s.as_bytes()
        .iter()
        .map(|&b| usize::from((b & 0xC0) != 0x80) + usize::from(b >= 0xF0))
        .sum()
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
}
