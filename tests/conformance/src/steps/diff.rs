//! Showing where two canonical outcomes differ.

/// Where two canonical outcomes first differ, with some context.
pub fn first_difference(want: &str, got: &str) -> String {
    let at = want
        .char_indices()
        .zip(got.chars())
        .find(|((_, a), b)| a != b)
        .map_or(want.len().min(got.len()), |((i, _), _)| i);
    let from = floor(want, at.saturating_sub(300));
    let show = |s: &str| {
        let start = floor(s, from.min(s.len()));
        let end = floor(s, (at + 300).min(s.len()));
        s[start..end].to_owned()
    };
    format!(
        "at byte {at}:\n  expected …{}…\n  got      …{}…",
        show(want),
        show(got)
    )
}

fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
