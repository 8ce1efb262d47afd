//! The tests' one deterministic random generator (xorshift64*, no dependency): property
//! tests across core draw their cases from it.

/// A seeded xorshift64* generator.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// `n` characters of `set`, with at least one digit when `set` has digits (as real
    /// keys do; gitleaks' generator asks the same).
    pub(crate) fn of(&mut self, set: &str, n: usize) -> String {
        let set = set.as_bytes();
        loop {
            let s: String = (0..n).map(|_| set[self.below(set.len())] as char).collect();
            let digits = set.iter().any(u8::is_ascii_digit);
            if !digits || s.bytes().any(|b| b.is_ascii_digit()) || n < 8 {
                return s;
            }
        }
    }
    /// A number below `n` (not zero).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// One of `items` (not empty).
    pub(crate) fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}
