//! The literals every match of a pattern must contain: found in whole chunks first, so
//! that only the lines holding one are matched by the engine (grep's prefilter), as
//! grep tools do. Sound, not complete: a pattern this cannot read gets no prefilter,
//! never a wrong one.

/// For each top-level alternative of `pattern`, its longest literal run that every match
/// of that alternative contains; `None` when an alternative has none (`\d+`, `.*`), or
/// the pattern uses what this reader does not follow (a flag set mid-pattern, `(?x)`).
/// The second value says whether matching ignores ASCII case (`(?i)` at the start).
///
/// ```ignore
/// assert_eq!(required("ERROR.*out of range"), Some((vec!["out of range".into()], false)));
/// ```
pub(crate) fn required(pattern: &str) -> Option<(Vec<String>, bool)> {
    let (body, fold) = match pattern.strip_prefix("(?i)") {
        Some(rest) => (rest, true),
        None => (pattern, false),
    };
    let chars: Vec<char> = body.chars().collect();
    let mut words = Vec::new();
    let mut start = 0;
    for end in top_level_bars(&chars)?.into_iter().chain([chars.len()]) {
        words.push(longest_run(&chars[start..end])?);
        start = end + 1;
    }
    Some((words, fold))
}

/// The positions of the `|`s outside groups and classes.
fn top_level_bars(chars: &[char]) -> Option<Vec<usize>> {
    let mut bars = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '[' => i = class_end(chars, i)? + 1,
            '(' => i = group_end(chars, i)? + 1,
            '|' => {
                bars.push(i);
                i += 1;
            }
            _ => i += 1,
        }
    }
    Some(bars)
}

/// The index of the `]` closing the class opened at `open`.
fn class_end(chars: &[char], open: usize) -> Option<usize> {
    let mut i = open + 1;
    // A `]` first (after an optional `^`) is a member, not the end.
    if chars.get(i) == Some(&'^') {
        i += 1;
    }
    if chars.get(i) == Some(&']') {
        i += 1;
    }
    closing(chars, i, ('[', ']'))
}

/// The index of the `)` closing the group opened at `open`. A flag group that applies
/// to the rest of the pattern (`(?i)` mid-pattern, `(?x)`) is `None`: the runs after it
/// would be read wrongly.
fn group_end(chars: &[char], open: usize) -> Option<usize> {
    if chars.get(open + 1) == Some(&'?') {
        let flags: String = chars[open + 2..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic() || **c == '-')
            .collect();
        if chars.get(open + 2 + flags.chars().count()) == Some(&')') {
            return None;
        }
    }
    closing(chars, open + 1, ('(', ')'))
}

/// The index of the bracket closing one opened just before `from`, nested ones and
/// escapes skipped (and, for a group, the classes inside it, whose brackets are members).
fn closing(chars: &[char], from: usize, (open, close): (char, char)) -> Option<usize> {
    let mut depth = 1;
    let mut i = from;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' if open == '(' => i = class_end(chars, i)?,
            c if c == open => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The longest run of literal characters every match of `branch` (no top-level `|`)
/// holds in a row.
fn longest_run(branch: &[char]) -> Option<String> {
    let mut best = String::new();
    let mut run = String::new();
    let mut i = 0;
    while i < branch.len() {
        let (literal, next) = match branch[i] {
            '\\' => match branch.get(i + 1) {
                Some(&c) if is_escaped_literal(c) => (Some(c), i + 2),
                Some(_) => (None, i + 2),
                None => return None,
            },
            '[' => (None, class_end(branch, i)? + 1),
            '(' => (None, group_end(branch, i)? + 1),
            '.' | '^' | '$' => (None, i + 1),
            // A quantifier on what was no literal (a class, a group, another quantifier).
            '*' | '+' | '?' => (None, i + 1),
            '{' => (None, repetition(branch, i)?.1),
            c => (Some(c), i + 1),
        };
        let Some(c) = literal else {
            end_run(&mut run, &mut best);
            i = next;
            continue;
        };
        let (min, after) = match branch.get(next) {
            Some('*' | '?') => (0, next + 1),
            Some('+') => (1, next + 1),
            Some('{') => repetition(branch, next)?,
            _ => {
                run.push(c);
                i = next;
                continue;
            }
        };
        // A lazy `?` may follow; another quantifier stacked on top (`\.{2}??` makes the
        // dots optional) is not followed.
        let after = after + usize::from(branch.get(after) == Some(&'?'));
        if matches!(branch.get(after), Some('*' | '?' | '+' | '{')) {
            return None;
        }
        // Repeated at least once, it ends the run (what follows need not be next);
        // optional, the run ends before it.
        if min > 0 {
            run.push(c);
        }
        end_run(&mut run, &mut best);
        i = after;
    }
    end_run(&mut run, &mut best);
    (!best.is_empty()).then_some(best)
}

/// The run ends: kept when the longest so far.
fn end_run(run: &mut String, best: &mut String) {
    if run.len() > best.len() {
        *best = std::mem::take(run);
    }
    run.clear();
}

/// `{n}`, `{n,}` or `{n,m}` at `open`: its minimum and the index after it.
fn repetition(chars: &[char], open: usize) -> Option<(usize, usize)> {
    let close = open + chars[open..].iter().position(|&c| c == '}')?;
    let inner: String = chars[open + 1..close].iter().collect();
    let min = inner.split(',').next()?.trim().parse().ok()?;
    Some((min, close + 1))
}

/// Whether `\c` stands for the character `c` itself (`\<` and `\>` are word
/// boundaries).
fn is_escaped_literal(c: char) -> bool {
    (c.is_ascii_punctuation() && !matches!(c, '<' | '>')) || c == ' '
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(pattern: &str) -> Option<(Vec<&'static str>, bool)> {
        required(pattern).map(|(w, fold)| {
            let leaked: Vec<&'static str> = w.into_iter().map(|s| &*s.leak()).collect();
            (leaked, fold)
        })
    }

    #[test]
    fn the_patterns_models_write_have_a_required_literal() {
        assert_eq!(
            words("ERROR.*out of range"),
            Some((vec!["out of range"], false))
        );
        assert_eq!(
            words("(?i)panic: index"),
            Some((vec!["panic: index"], true))
        );
        assert_eq!(words(r"order=\d{7}\b"), Some((vec!["order="], false)));
        assert_eq!(words(r"\bPanic\b"), Some((vec!["Panic"], false)));
        assert_eq!(words("^ERROR thread$"), Some((vec!["ERROR thread"], false)));
        assert_eq!(
            words(r"id=\d+|timeout"),
            Some((vec!["id=", "timeout"], false))
        );
        assert_eq!(words(r"\[\d+\] with"), Some((vec!["] with"], false)));
    }

    #[test]
    fn optional_and_repeated_characters_are_read_as_the_engine_does() {
        assert_eq!(words("colou?r"), Some((vec!["colo"], false)));
        assert_eq!(words("x{2}yz"), Some((vec!["yz"], false)));
        assert_eq!(words("ab+c"), Some((vec!["ab"], false)));
        assert_eq!(words("ab{0,3}cd"), Some((vec!["cd"], false)));
        assert_eq!(words("(?i:foo)bars"), Some((vec!["bars"], false)));
        assert_eq!(words("[abc]def|x(y)z"), Some((vec!["def", "x"], false)));
        assert_eq!(words("a*?bb"), Some((vec!["bb"], false)));
        assert_eq!(words("ab+?c"), Some((vec!["ab"], false)));
        // A quantifier stacked on another makes what it repeats optional.
        assert_eq!(required(r"c\.\.{2}??"), None);
    }

    #[test]
    fn what_it_cannot_read_gets_no_prefilter() {
        for pattern in [
            r"\d+",
            ".*",
            "a|",
            "foo(?i)bar",
            "(?x) a b",
            "(?is)ab",
            r"\bx{a}",
            r"\b{start}word",
            "[a-z]+",
            "(abc)",
        ] {
            assert_eq!(required(pattern), None, "{pattern}");
        }
    }

    /// Random patterns over pieces of regex syntax, random rows over the same letters:
    /// whenever the engine matches a row, the row holds a required literal.
    #[test]
    fn every_match_holds_a_required_literal() {
        const PIECES: [&str; 34] = [
            "a", "b", "c", "ab", "A", "?", "*", "+", "{2}", "{0,2}", "{1,}", "{0}", ".", "|",
            "(a|b)", "(?:c)", "((a)b)", "[ab]", "[^a]", "[]a]", r"\b", r"\d", r"\w", "^", "$",
            r"\.", r"\]", " ", "(?i:b)", "(?i)", "c+?", "??", r"\<", "]",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut checked = 0;
        for _ in 0..60_000 {
            let fold = next(4) == 0;
            let mut pattern = String::from(if fold { "(?i)" } else { "" });
            for _ in 0..1 + next(6) {
                pattern.push_str(PIECES[next(PIECES.len())]);
            }
            let Ok(regex) = regex_lite::Regex::new(&pattern) else {
                continue;
            };
            let Some((words, folded)) = required(&pattern) else {
                continue;
            };
            assert_eq!(folded, pattern.starts_with("(?i)"));
            let fold = folded;
            for _ in 0..20 {
                let row: String = (0..next(12))
                    .map(|_| ['a', 'b', 'c', 'A', 'B', ' ', '.', '1', ']', 'x'][next(10)])
                    .collect();
                if regex.is_match(&row) {
                    let hay = if fold {
                        row.to_ascii_lowercase()
                    } else {
                        row.clone()
                    };
                    let found = words.iter().any(|w| {
                        let w = if fold {
                            w.to_ascii_lowercase()
                        } else {
                            w.clone()
                        };
                        hay.contains(&w)
                    });
                    assert!(
                        found,
                        "{pattern:?} matches {row:?} without any of {words:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "only {checked} matches checked");
    }
}
