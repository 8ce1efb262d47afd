//! The built-in rules: the shapes of gitleaks (MIT, github.com/gitleaks/gitleaks,
//! `cmd/generate/config/rules/*.go`) and the providers' own documentation, cut to the
//! credentials an agent's tools print: cloud and forge tokens, API keys, JWTs, private
//! keys, headers, and passwords in assignments and URLs. One file per family; each rule
//! names its source.
//!
//! No damage: a match is a secret only when its boundaries hold on its line (not on the
//! window the regex runs in), and a keyword rule's value only when it looks like a
//! literal secret ([`value`]).

mod ai;
mod chat;
mod cloud;
mod engine;
#[cfg(test)]
mod engine_tests;
mod generic;
mod keyword_match;
mod kubernetes;
mod literals;
mod payments;
pub(super) mod value;
mod vcs;
mod words;

use std::cell::Cell;
use std::sync::OnceLock;

use super::Span;
use engine::{ByHand, Engine};
use literals::{Literals, Table};

/// One match of a rule, on its line: where it starts and ends and where its groups are,
/// as offsets into `line`.
pub(super) struct Hit<'a> {
    /// The whole text, and where `line` starts in it (for a rule whose context is wider
    /// than a line: a Kubernetes Secret's `kind`).
    pub text: &'a str,
    pub line_start: usize,
    pub line: &'a str,
    pub start: usize,
    pub end: usize,
    pub groups: [Option<(usize, usize)>; 3],
    /// What a judge learnt from earlier matches of its rule in this text.
    pub memo: &'a Cell<Memo>,
}

/// A judge's memory across the matches of one text (the Kubernetes rule's: which
/// `data:` block it is in, how far it checked, the object's kind, the work spent), so
/// that no text makes a rule quadratic.
#[derive(Clone, Copy, Default)]
pub(super) struct Memo {
    pub key: usize,
    pub upto: usize,
    pub ok: bool,
    pub verdict: Option<bool>,
    pub spent: usize,
}

/// What of a match is the secret (offsets into its line), or `None` when it is none.
type Judge = fn(&Hit<'_>) -> Option<(usize, usize)>;

/// One rule: the kind named in the marker; the pattern; literals one of which every
/// match holds; how far before and after such a literal a match can reach, in bytes;
/// and the judge of what of a match is secret (by default its first group, else the
/// whole match, unless it stands for one, `${TOKEN}`). The regex runs only round the
/// literals, all found first in one pass ([`literals`]): a log of 100 MB with no
/// candidate costs that pass, not a regex pass per rule.
pub(super) struct Rule {
    pub kind: &'static str,
    pub pattern: &'static str,
    pub triggers: &'static [&'static str],
    pub before: usize,
    pub after: usize,
    /// Whether a match can go on past the end of the line its literal is on.
    pub spans_lines: bool,
    pub judge: Judge,
    /// Words (lower case) one of which every match starts with, ASCII
    /// case-insensitively: the regex runs only where one does ([`engine`]).
    pub starts: &'static [&'static str],
    /// The pattern matched by hand (the same matches as the regex's), when the regex
    /// engine is too slow for how often the rule runs: the first match at or after a
    /// start, as the engine's `captures_at` gives it.
    pub by_hand: Option<ByHand>,
}

pub(super) const fn rule(
    kind: &'static str,
    pattern: &'static str,
    triggers: &'static [&'static str],
    (before, after): (usize, usize),
) -> Rule {
    Rule {
        kind,
        pattern,
        triggers,
        before,
        after,
        spans_lines: false,
        judge: secret_group,
        starts: &[],
        by_hand: None,
    }
}

/// The rules, in order: an earlier rule's secret is not matched again by a later one
/// (a JWT or a GitHub token after `Bearer` keeps its own kind; the keyword rule comes
/// last).
const FAMILIES: &[&[Rule]] = &[
    generic::FIRST,
    cloud::RULES,
    vcs::RULES,
    chat::RULES,
    payments::RULES,
    ai::RULES,
    generic::LAST,
];

fn rules() -> impl Iterator<Item = &'static Rule> {
    FAMILIES.iter().flat_map(|family| family.iter())
}

/// The default judge: the first group, else the whole match.
fn secret_group(hit: &Hit<'_>) -> Option<(usize, usize)> {
    Some(hit.groups[1].unwrap_or((hit.start, hit.end)))
}

/// The judge of a URL's or a header's secret: not one that stands for a secret
/// (`postgres://user:password@`, `Bearer <token>`).
pub(super) fn not_a_placeholder(hit: &Hit<'_>) -> Option<(usize, usize)> {
    let span = secret_group(hit)?;
    (!value::stands_for_one(&hit.line[span.0..span.1])).then_some(span)
}

/// The byte ranges of `text` where `rule` can match: round each occurrence of one of its
/// literals, `before` bytes back and `after` on (not past the line, except for a rule
/// that spans lines), merged, on character boundaries; each with the start and end of
/// its line (for a rule that spans lines, the end of the window).
fn windows(text: &str, rule: &Rule, seen: &Literals) -> Vec<[usize; 4]> {
    let bytes = text.as_bytes();
    let mut found: Vec<[usize; 4]> = Vec::new();
    for trigger in rule.triggers {
        // The line of the last literal found, `[start, end)`: looked for once per line,
        // not once per literal, which on one 10 MB line of minified JSON with a literal
        // every 80 bytes was quadratic (16 s).
        let mut line: Option<(usize, usize)> = None;
        for &at in seen.find(trigger) {
            let (line_start, line_end) = match line {
                Some(known) if at < known.1 => known,
                before => {
                    let from = before.map_or(0, |(_, end)| end);
                    let start =
                        memchr::memrchr(b'\n', &bytes[from..at]).map_or(from, |i| from + i + 1);
                    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
                    *line.insert((start, end))
                }
            };
            let mut start = at.saturating_sub(rule.before).max(line_start);
            let limit = (at + trigger.len() + rule.after).min(bytes.len());
            let mut end = if rule.spans_lines {
                limit
            } else {
                limit.min(line_end)
            };
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            while !text.is_char_boundary(end) {
                end += 1;
            }
            let line_end = if rule.spans_lines { end } else { line_end };
            found.push([start, end, line_start, line_end]);
        }
    }
    crate::sort::sort_by(&mut found, |a, b| a.cmp(b));
    let mut merged: Vec<[usize; 4]> = Vec::new();
    for w in found {
        match merged.last_mut() {
            Some(last) if w[0] <= last[1] => {
                last[1] = last[1].max(w[1]);
                last[2] = last[2].min(w[2]);
                last[3] = last[3].max(w[3]);
            }
            _ => merged.push(w),
        }
    }
    merged
}

/// The table of every rule's literals, each once.
fn literal_table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut literals: Vec<&'static str> = Vec::new();
        for &literal in rules().flat_map(|rule| rule.triggers) {
            if !literals.contains(&literal) {
                literals.push(literal);
            }
        }
        Table::new(literals)
    })
}

/// The kinds of the built-in rules, in order.
pub(super) fn kinds() -> impl Iterator<Item = &'static str> {
    rules().map(|rule| rule.kind)
}

/// Each rule, its regex, and whether its pattern begins and ends at a word boundary
/// (judged again on the line: a window's edge is no boundary).
struct Compiled {
    rule: &'static Rule,
    engine: Engine,
    word_start: bool,
    word_end: bool,
}

fn compiled() -> &'static [Compiled] {
    static COMPILED: OnceLock<Vec<Compiled>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        rules()
            // The rules are constants checked by the tests: none fails to compile.
            .filter_map(|rule| {
                let bare = rule.pattern.trim_start_matches("(?i)");
                Engine::new(rule.pattern, rule.starts, rule.by_hand).map(|engine| Compiled {
                    rule,
                    engine,
                    word_start: bare.starts_with(r"\b"),
                    word_end: rule.pattern.ends_with(r"\b"),
                })
            })
            .collect()
    })
}

/// How long a rejected value may be and still be searched again for the next name.
const RESEARCH: usize = 256;

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Add the secrets the built-in rules find in `text` to `found` (rule `i` as kind `i`),
/// each rule's after the earlier rules' and never overlapping them; a value in `keep`
/// (masks, references, the replacement itself) is not a secret.
pub(super) fn find(text: &str, found: &mut Vec<Span>, keep: &dyn Fn(&str) -> bool) {
    let seen = Literals::scan(text, literal_table());
    for (index, c) in compiled().iter().enumerate() {
        let memo = Cell::new(Memo::default());
        let mut new = Vec::new();
        for [start, end, line_start, line_end] in windows(text, c.rule, &seen) {
            let line = &text[line_start..line_end];
            let bytes = line.as_bytes();
            let offset = start - line_start;
            let window = &text[start..end];
            let mut from = 0;
            while let Some(groups) = c.engine.captures_at(window, from) {
                let Some(whole) = groups[0] else { break };
                // On a miss the next search starts at the value, which may be the name
                // of the next assignment (`config: password=…`); else after the match.
                let value_at = groups[2].map(|m| m.0);
                from = whole.1.max(whole.0 + 1);
                let (at, to) = (offset + whole.0, offset + whole.1);
                // `\b` held at the window's edge; it must hold on the line.
                let bounded =
                    !(c.word_start && at > 0 && is_word(bytes[at - 1]) && is_word(bytes[at]))
                        && !(c.word_end
                            && to < bytes.len()
                            && is_word(bytes[to])
                            && is_word(bytes[to - 1]));
                let group =
                    |i: usize| groups[i].map(|m: (usize, usize)| (offset + m.0, offset + m.1));
                let hit = Hit {
                    text,
                    line_start,
                    line,
                    start: at,
                    end: to,
                    groups: [group(0), group(1), group(2)],
                    memo: &memo,
                };
                let judged = bounded.then(|| (c.rule.judge)(&hit)).flatten();
                let Some((s, e)) = judged else {
                    // Only a short value is searched again: a long one (`a:a:a:…`) would be
                    // re-read once per name in it.
                    if let Some(v) = value_at.filter(|&v| whole.1 - v <= RESEARCH) {
                        from = v.max(whole.0 + 1);
                    }
                    if from > window.len() {
                        break;
                    }
                    while !window.is_char_boundary(from) {
                        from += 1;
                    }
                    continue;
                };
                let span = (line_start + s, line_start + e);
                if span.0 < span.1 && !super::overlaps(found, span) && !keep(&line[s..e]) {
                    new.push((span.0, span.1, index));
                }
                if from > window.len() {
                    break;
                }
                while !window.is_char_boundary(from) {
                    from += 1;
                }
            }
        }
        super::merge(found, new);
    }
}

/// Whether `value` is a mask or a reference, not a secret: `****`, `xxxx`, `${VAR}`,
/// `$VAR`, `<token>`.
pub(super) fn stands_for_one(value: &str) -> bool {
    value::mask_or_reference(value)
}

#[cfg(test)]
#[test]
fn every_rule_compiles() {
    assert_eq!(compiled().len(), rules().count());
    for rule in rules() {
        assert!(!rule.triggers.is_empty(), "{}", rule.kind);
        // The one-pass scan finds a literal by a pair of its bytes.
        assert!(rule.triggers.iter().all(|t| t.len() >= 2), "{}", rule.kind);
        assert!(
            rule.kind
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{}",
            rule.kind
        );
    }
    // The scan finds every rule's literals where `memmem` does.
    let text: String = rules()
        .flat_map(|r| r.triggers)
        .map(|t| format!("{t}x{t}"))
        .collect();
    let seen = Literals::scan(&text, literal_table());
    for literal in rules().flat_map(|r| r.triggers) {
        let at: Vec<usize> = memchr::memmem::find_iter(text.as_bytes(), literal).collect();
        assert_eq!(seen.find(literal), at, "{literal:?}");
    }
}
