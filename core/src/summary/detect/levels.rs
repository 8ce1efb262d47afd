//! Log levels listed side by side (a schema's enum, a type, a flag's help): a line that
//! names the levels is not a line logged at one of them.

/// Log levels, as [`Shape::LevelList`](super::rules::Shape::LevelList) finds them side by side.
const LEVELS: [&str; 9] = [
    "trace", "debug", "info", "notice", "warn", "warning", "error", "fatal", "critical",
];

/// Whether two log levels stand next to each other in `line`, with only a separator
/// (`,` `|` `/`), blanks and quotes between: `DEBUG, INFO, ERROR`, `'warn' | 'error'`.
pub(super) fn level_list(line: &str) -> bool {
    let b = line.as_bytes();
    let level_at = |at: usize| {
        LEVELS.iter().find_map(|level| {
            let end = at + level.len();
            let fits = b
                .get(at..end)
                .is_some_and(|w| w.eq_ignore_ascii_case(level.as_bytes()));
            (fits
                && (at == 0 || !word_byte(b[at - 1]))
                && b.get(end).is_none_or(|&c| !word_byte(c)))
            .then_some(end)
        })
    };
    let mut at = 0;
    while at < b.len() {
        if let Some(end) = level_at(at) {
            let gap = b[end..]
                .iter()
                .take_while(|&&c| matches!(c, b' ' | b'\t' | b'"' | b'\'' | b'`'))
                .count();
            let mut next = end + gap;
            if matches!(b.get(next), Some(b',' | b'|' | b'/')) {
                next += 1;
                next += b[next..]
                    .iter()
                    .take_while(|&&c| matches!(c, b' ' | b'\t' | b'"' | b'\'' | b'`'))
                    .count();
                if level_at(next).is_some() {
                    return true;
                }
            }
            at = end;
        } else {
            at += 1;
        }
    }
    false
}

/// A byte that continues a word or a name: `error` is no word in `error_count`,
/// `error-chain`, `thiserror` or `errorHandler`.
pub(super) fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')
}
