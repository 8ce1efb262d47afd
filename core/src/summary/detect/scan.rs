//! The scan that finds the lines worth classifying: one pass over the text, looking for
//! the trigger words every rule's lines hold ([`TRIGGERS`]), ASCII case-insensitively,
//! with no lowercase copy. This is the summary's hot loop on megabytes of output.

/// Words at least one of which every line a rule matches holds, ASCII
/// case-insensitively (`tests::every_rule_holds_a_trigger` keeps the rules to it). A
/// candidate position is found by its first three bytes, lowercased; the word is then
/// checked in full.
pub const TRIGGERS: [&str; 10] = [
    "error",
    "err!",
    "err_pnpm",
    "exception",
    "traceback",
    "panic",
    "fatal",
    "fail",
    "denied",
    ".go:",
];

/// Rarer markers, matched exactly (case included), each found by its own `memmem`
/// pass: a linker's `undefined reference to`, git's `[rejected]`, kubectl's
/// `OOMKilled`/`CrashLoopBackOff`, an HTTP status line, and the words of a run's
/// success. Kept out of the eight-byte scan,
/// whose cost grows with every trigram.
pub const EXACT_TRIGGERS: [&str; 11] = [
    // jest's failed test (its run prints `FAIL` too).
    "●",
    "undefined reference",
    "rejected]",
    "OOMKilled",
    "CrashLoopBackOff",
    "HTTP/",
    // A run's success, for [`super::rules::Level::Passed`].
    "ok  \t",
    "PASS",
    "BUILD SUCCESS",
    "test result: ok",
    " passed",
];

/// The positions where some trigger starts, in order (at least one per line holding
/// one; [`first_trigger`] and the exact markers merged).
pub struct Candidates<'a> {
    text: &'a [u8],
    /// The next start of each exact marker at or after `from`, if any.
    exact: [Option<usize>; EXACT_TRIGGERS.len()],
    /// The next position of the main scan at or after `from`, if known.
    main: Option<Option<usize>>,
    from: usize,
}

impl<'a> Candidates<'a> {
    /// Candidates of `text`: the trigger words', and the exact markers' when `exact`.
    pub fn new(text: &'a [u8], exact: bool) -> Self {
        let mut c = Candidates {
            text,
            exact: [None; EXACT_TRIGGERS.len()],
            main: None,
            from: 0,
        };
        for k in (0..EXACT_TRIGGERS.len()).filter(|_| exact) {
            c.exact[k] = c.find_exact(k, 0);
        }
        c
    }

    fn find_exact(&self, k: usize, from: usize) -> Option<usize> {
        memchr::memmem::find(&self.text[from..], EXACT_TRIGGERS[k].as_bytes()).map(|i| from + i)
    }

    /// The first candidate at or after `from` (which only grows).
    pub fn next_from(&mut self, from: usize) -> Option<usize> {
        if from > self.from {
            self.from = from;
            if self.main.is_some_and(|m| m.is_some_and(|at| at < from)) {
                self.main = None;
            }
            for k in 0..EXACT_TRIGGERS.len() {
                if self.exact[k].is_some_and(|at| at < from) {
                    self.exact[k] = self.find_exact(k, from);
                }
            }
        }
        let main = *self
            .main
            .get_or_insert_with(|| first_trigger(&self.text[self.from..]).map(|i| self.from + i));
        self.exact.iter().copied().flatten().chain(main).min()
    }
}

/// Where the first trigger word in `text` starts.
pub fn first_trigger(text: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return simd128::first_trigger(text);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    first_trigger_swar(text)
}

/// Each trigger's first three bytes as the scan compares them: `| 0x20`, which
/// lowercases ASCII letters and leaves `.` as it is.
const TRIGRAMS: [[u8; 3]; 8] = [
    *b"err", *b"exc", *b"tra", *b"pan", *b"fat", *b"fai", *b"den", *b".go",
];

/// [`first_trigger`] eight bytes at a time in 64-bit words: what native builds (whose
/// compilers vectorise it) and a wasm without SIMD run.
#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code)
)]
pub(super) fn first_trigger_swar(text: &[u8]) -> Option<usize> {
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
    while i + 10 <= text.len() {
        let word: [u8; 8] = text[i..i + 8].try_into().unwrap_or_default();
        // Lowercased as far as ASCII letters go (`| 0x20`); lane k of x, y and z holds
        // the bytes i+k, i+k+1 and i+k+2.
        let x = u64::from_le_bytes(word) | CASE;
        let next = u64::from(text[i + 8] | 0x20) | (u64::from(text[i + 9] | 0x20) << 8);
        let (y, z) = ((x >> 8) | (next << 56), (x >> 16) | (next << 48));
        let mut candidate = 0;
        for trigram in TRIGRAMS {
            candidate |= lanes(x, y, z, trigram);
        }
        if candidate != 0 {
            if let Some(j) = (i..i + 8).find(|&j| trigger_at(text, j)) {
                return Some(j);
            }
        }
        i += 8;
    }
    (i..text.len()).find(|&j| trigger_at(text, j))
}

/// [`first_trigger`] sixteen bytes at a time in wasm SIMD128 vectors. The shipped wasm
/// is built for size (opt-level `z`), where LLVM vectorises no loop, so the
/// word-at-a-time scan ran at ~1 ms per MB there; written with the intrinsics it runs
/// in well under half that.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use core::arch::wasm32::{
        u8x16_bitmask, u8x16_eq, u8x16_splat, v128, v128_and, v128_any_true, v128_load, v128_or,
    };

    use super::{trigger_at, TRIGRAMS};

    /// `b` in every lane, built from a value the compiler cannot see: the vector stays in
    /// a local across the loop. (A `v128.const` inside the loop is rebuilt by V8 on
    /// every iteration, three instructions each.)
    #[inline(always)]
    fn splat(b: u8) -> v128 {
        u8x16_splat(core::hint::black_box(b))
    }

    /// The 16 bytes of `text` from `at`, lowercased (`| lower`) as far as ASCII letters go.
    ///
    /// # Safety
    /// `at + 16 <= text.len()`.
    #[inline(always)]
    unsafe fn lower16(text: &[u8], at: usize, lower: v128) -> v128 {
        // SAFETY: in bounds by the caller's word; `v128_load` needs no alignment.
        v128_or(
            unsafe { v128_load(text.as_ptr().add(at).cast::<v128>()) },
            lower,
        )
    }

    /// Lanes where `x0`, `x1`, `x2` hold the trigram `s`.
    #[inline(always)]
    fn trigram(s: &[v128; 3], x0: v128, x1: v128, x2: v128) -> v128 {
        v128_and(
            u8x16_eq(x0, s[0]),
            v128_and(u8x16_eq(x1, s[1]), u8x16_eq(x2, s[2])),
        )
    }

    pub(super) fn first_trigger(text: &[u8]) -> Option<usize> {
        let lower = splat(0x20);
        let mut splats = [[lower; 3]; TRIGRAMS.len()];
        for (s, t) in splats.iter_mut().zip(TRIGRAMS) {
            *s = [splat(t[0]), splat(t[1]), splat(t[2])];
        }
        let mut i = 0;
        // 16 positions need their two bytes after them in the text.
        while i + 18 <= text.len() {
            // SAFETY: i + 2 + 16 <= text.len(), the loop's condition.
            let (x0, x1, x2) = unsafe {
                (
                    lower16(text, i, lower),
                    lower16(text, i + 1, lower),
                    lower16(text, i + 2, lower),
                )
            };
            // Lane k: do bytes i+k, i+k+1, i+k+2, lowercased, start a trigger?
            let mut starts = trigram(&splats[0], x0, x1, x2);
            for s in &splats[1..] {
                starts = v128_or(starts, trigram(s, x0, x1, x2));
            }
            if v128_any_true(starts) {
                let mut lanes = u8x16_bitmask(starts);
                while lanes != 0 {
                    let j = i + lanes.trailing_zeros() as usize;
                    if trigger_at(text, j) {
                        return Some(j);
                    }
                    lanes &= lanes - 1;
                }
            }
            i += 16;
        }
        (i..text.len()).find(|&j| trigger_at(text, j))
    }
}

/// Whether one of [`TRIGGERS`] starts at `text[i]`, ASCII case-insensitively.
fn trigger_at(text: &[u8], i: usize) -> bool {
    let at = |word: &str| {
        text.get(i..i + word.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(word.as_bytes()))
    };
    match text[i] | 0x20 {
        b'e' => at("error") || at("err!") || at("err_pnpm") || at("exception"),
        b't' => at("traceback"),
        b'p' => at("panic"),
        b'f' => at("fatal") || at("fail"),
        b'd' => at("denied"),
        b'.' => at(".go:"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(text: &[u8]) -> Option<usize> {
        let lower = text.to_ascii_lowercase();
        TRIGGERS
            .iter()
            .filter_map(|w| memchr::memmem::find(&lower, w.as_bytes()))
            .min()
    }

    #[test]
    fn finds_the_first_trigger_at_every_offset_and_case() {
        for word in TRIGGERS.iter().chain(&[
            "erro", "exceptio", "pa nic", "fatAl", "den", ".go", "\u{25CB}",
        ]) {
            for pad in 0..20 {
                for upper in [false, true] {
                    let w = if upper {
                        word.to_ascii_uppercase()
                    } else {
                        word.to_string()
                    };
                    for text in [
                        format!("{}{w}", "x".repeat(pad)),
                        format!("{}{w}{}", "é".repeat(pad / 2), "y".repeat(pad % 9)),
                        format!(
                            "{}{}",
                            "Er".repeat(pad),
                            &w[..w.len() - w.chars().last().map_or(0, char::len_utf8)]
                        ),
                        format!("{}{w}", "\u{2502}".repeat(pad / 3)),
                    ] {
                        assert_eq!(
                            first_trigger(text.as_bytes()),
                            naive(text.as_bytes()),
                            "{text:?}"
                        );
                    }
                }
            }
        }
        for text in [
            "",
            "e",
            "ERR\u{130}R",
            "ɛrror",
            "a\u{212A}",
            "Ｅrror",
            ".GO:",
            "x.go:1",
        ] {
            assert_eq!(
                first_trigger(text.as_bytes()),
                naive(text.as_bytes()),
                "{text:?}"
            );
        }
    }
}
