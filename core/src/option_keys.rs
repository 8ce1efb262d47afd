//! Options objects read from untyped callers (JavaScript, JSON): a key no reader knows is
//! refused, naming it and where it belongs, so a misspelt or misplaced option is never
//! silently ignored. The key lists are the hosts'; the rule and its words are here, once.

use crate::error::OffloadError;

/// The keys of a Materializer's options object.
pub const MATERIALIZER_KEYS: &[&str] = &[
    "userData",
    "conversationId",
    "cwd",
    "writer",
    "reader",
    "logger",
    "countTokens",
    "maxInlineChars",
    "maxInlineBytes",
    "snippetLines",
    "snippetBytes",
    "offloadDir",
    "tools",
    "redact",
    "messageBudgetChars",
    "contextWindow",
];

/// The keys of a Workspace's options object.
pub const WORKSPACE_KEYS: &[&str] = &[
    "root",
    "namespace",
    "agentId",
    "taskId",
    "sessionId",
    "inlineLimit",
    "tokenThreshold",
    "offloadTools",
    "tools",
    "redact",
    "cwd",
    "writer",
    "reader",
    "logger",
    "countTokens",
    "now",
    "sha256",
];

/// The keys of `budget`'s options object (`messageTokens` and `countTokens` as the npm
/// package passes them).
pub const BUDGET_KEYS: &[&str] = &[
    "triggerTokens",
    "keepLast",
    "clearAtLeastTokens",
    "excludeTools",
    "messageTokens",
    "countTokens",
    "signal",
];

/// Keys a host reads itself, never core's options readers: its IO (`writer`, `reader`),
/// callbacks (`logger`, `countTokens`, `now`, `sha256`), an abort `signal`, and values
/// too large to copy into an options value (`messageTokens`, `gc`'s `keep` messages).
pub const HOST_KEYS: &[&str] = &[
    "writer",
    "reader",
    "logger",
    "countTokens",
    "now",
    "sha256",
    "signal",
    "messageTokens",
    "keep",
];

/// The fields of one `tools` entry.
pub const TOOL_ENTRY_KEYS: &[&str] = &[
    "maxInlineChars",
    "maxInlineBytes",
    "maxInlineTokens",
    "materialize",
];

/// Checks the keys `given` of the object `label` (`options`, `options.tools["bash"]`),
/// which is a `what` (`Materializer option`, `tools entry field`) taking `known`:
/// `INVALID_ARGUMENT` for the first key not known, saying where a `tools` entry field
/// given at the top belongs, else the known key it is closest to.
///
/// ```
/// use tool_offload_core::option_keys::{check_keys, MATERIALIZER_KEYS};
/// let keys = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
/// assert!(check_keys("options", "Materializer option", &keys(&["userData"]), MATERIALIZER_KEYS).is_ok());
/// let err = check_keys("options", "Materializer option", &keys(&["maxInlineChar"]), MATERIALIZER_KEYS).unwrap_err();
/// assert_eq!(err.to_string(), "invalid argument: options.maxInlineChar is not a Materializer option (did you mean maxInlineChars?)");
/// let err = check_keys("options", "Materializer option", &keys(&["maxInlineTokens"]), MATERIALIZER_KEYS).unwrap_err();
/// assert_eq!(err.to_string(), "invalid argument: options.maxInlineTokens is not a Materializer option: it belongs in a tools entry (options.tools[\"*\"].maxInlineTokens for every tool)");
/// ```
///
/// # Errors
/// `INVALID_ARGUMENT`, as above.
pub fn check_keys(
    label: &str,
    what: &str,
    given: &[String],
    known: &[&str],
) -> Result<(), OffloadError> {
    let Some(unknown) = given.iter().find(|k| !known.contains(&k.as_str())) else {
        return Ok(());
    };
    let mut message = format!("{label}.{unknown} is not a {what}");
    if known.contains(&"tools") && TOOL_ENTRY_KEYS.contains(&unknown.as_str()) {
        message += &format!(
            ": it belongs in a tools entry ({label}.tools[\"*\"].{unknown} for every tool)"
        );
    } else if let Some(near) = nearest(unknown, known) {
        message += &format!(" (did you mean {near}?)");
    } else {
        message += &format!(" (known: {})", known.join(", "));
    }
    Err(OffloadError::InvalidArgument(message))
}

/// The known key `key` is likely a slip of: the same but for case, or at most two
/// edits away (a third of its length at most).
fn nearest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let limit = 2.min(key.len() / 3);
    let mut best: Option<(usize, &str)> = None;
    for k in known {
        let d = if k.eq_ignore_ascii_case(key) {
            0
        } else {
            edits(key.as_bytes(), k.as_bytes())
        };
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k)
}

/// The Levenshtein distance between `a` and `b`, by bytes (option keys are ASCII); a
/// `b` of 32 bytes or more is never near (`usize::MAX`).
fn edits(a: &[u8], b: &[u8]) -> usize {
    let mut row = [0usize; 32];
    if b.len() >= row.len() {
        return usize::MAX;
    }
    for (j, slot) in row.iter_mut().enumerate().take(b.len() + 1) {
        *slot = j;
    }
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn unknown_keys_are_named_with_where_they_belong() {
        let check = |k: &[&str], known| check_keys("options", "Workspace option", &keys(k), known);
        assert!(check(&["root", "tools", "now"], WORKSPACE_KEYS).is_ok());
        assert!(check(&[], WORKSPACE_KEYS).is_ok());
        let message = |r: Result<(), OffloadError>| r.unwrap_err().to_string();
        assert_eq!(
            message(check(&["root", "maxInlineChars"], WORKSPACE_KEYS)),
            "invalid argument: options.maxInlineChars is not a Workspace option: it belongs in a tools entry (options.tools[\"*\"].maxInlineChars for every tool)"
        );
        assert_eq!(
            message(check(&["tokenthreshold"], WORKSPACE_KEYS)),
            "invalid argument: options.tokenthreshold is not a Workspace option (did you mean tokenThreshold?)"
        );
        assert!(message(check(&["zzz"], WORKSPACE_KEYS)).ends_with("(known: root, namespace, agentId, taskId, sessionId, inlineLimit, tokenThreshold, offloadTools, tools, redact, cwd, writer, reader, logger, countTokens, now, sha256)"));
        // An entry field misspelt: no "tools" among its keys, so no "belongs".
        assert_eq!(
            check_keys("options.tools[\"bash\"]", "tools entry field", &keys(&["maxInlineChar"]), TOOL_ENTRY_KEYS)
                .unwrap_err()
                .to_string(),
            "invalid argument: options.tools[\"bash\"].maxInlineChar is not a tools entry field (did you mean maxInlineChars?)"
        );
    }

    #[test]
    fn near_means_case_or_two_edits_within_a_third() {
        assert_eq!(edits(b"kitten", b"sitting"), 3);
        assert_eq!(edits(b"", b"abc"), 3);
        assert_eq!(edits(b"a", &[b'a'; 40]), usize::MAX);
        for (a, b, d) in [
            ("abc", "", 3),
            ("ab", "b", 1),
            ("ab", "a", 1),
            ("b", "ab", 1),
            ("abcd", "bcd", 1),
            ("abc", "abd", 1),
        ] {
            assert_eq!(edits(a.as_bytes(), b.as_bytes()), d, "{a} {b}");
        }
        // Five letters allow one edit: two ("sixnl" from "signal") are too many.
        assert_eq!(nearest("sixnl", BUDGET_KEYS), None);
        // The nearest wins, and of equally near ones the first.
        assert_eq!(
            nearest("keepLast", &["keepLaxx", "keepLast"]),
            Some("keepLast")
        );
        assert_eq!(nearest("abcd3", &["abcd1", "abcd2"]), Some("abcd1"));
        assert_eq!(nearest("keeplast", BUDGET_KEYS), Some("keepLast"));
        assert_eq!(nearest("keepLst", BUDGET_KEYS), Some("keepLast"));
        assert_eq!(
            nearest("ab", BUDGET_KEYS),
            None,
            "short keys match nothing loosely"
        );
        assert_eq!(nearest("signals", BUDGET_KEYS), Some("signal"));
        assert_eq!(nearest("trigger", BUDGET_KEYS), None);
    }
}
