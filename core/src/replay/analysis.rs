//! What a conversation says whichever policy sends it: its turns, its tool results, and
//! for each result the identifiers the agent used after it that the result held (the
//! pairs preview sufficiency scores).

use std::collections::HashMap;

use super::messages::{
    assistant_text, content_text, is_assistant, message_text, results_with_tools, turns, ResultAt,
};
use crate::identifiers::{identifiers, occurs, Kind, Words};
use crate::json::stringify;
use serde_json::Value;

/// One identifier the agent used after a result that the result held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// The identifier.
    pub id: String,
    /// Its kind where the agent first used it after the result.
    pub kind: Kind,
    /// Whether no message before the result held it: the result was where the agent
    /// could have learnt it.
    pub is_new: bool,
}

/// One tool result of the conversation.
#[derive(Debug, Clone)]
pub struct ResultFacts {
    /// Where it is.
    pub at: ResultAt,
    /// Its raw content serialised (`JSON.stringify`): a policy that sends something
    /// else shrunk it.
    pub raw_json: String,
    /// The identifiers used after it that it held.
    pub pairs: Vec<Pair>,
    /// The tool that produced it (the result's own name for it, else its call's), if
    /// known.
    pub tool: Option<String>,
}

/// A conversation's turns and results.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The indices of the messages that start a turn ([`turns`]).
    pub turns: Vec<usize>,
    /// Its tool results, in order.
    pub results: Vec<ResultFacts>,
}

impl Analysis {
    /// Read `messages`.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::replay::Analysis;
    /// let messages = [
    ///     json!({"role": "user", "content": "fix the build"}),
    ///     json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "sh", "input": {"cmd": "cargo build"}}]}),
    ///     json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "error[E0308] in src/main.rs"}]}),
    ///     json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "src/main.rs"}}]}),
    /// ];
    /// let analysis = Analysis::of(&messages);
    /// assert_eq!(analysis.turns, [1, 3]);
    /// let pairs = &analysis.results[0].pairs;
    /// assert_eq!((pairs[0].id.as_str(), pairs[0].is_new), ("src/main.rs", true));
    /// assert_eq!(analysis.results[0].tool.as_deref(), Some("sh"));
    /// ```
    pub fn of(messages: &[Value]) -> Self {
        let used: Vec<Option<Vec<(String, Kind)>>> = messages
            .iter()
            .map(|m| is_assistant(m).then(|| identifiers(&assistant_text(m))))
            .collect();
        let texts: Vec<String> = messages.iter().map(message_text).collect();
        let words: Vec<Words<'_>> = texts.iter().map(|t| Words::of(t)).collect();
        let mut first_with: HashMap<String, Option<usize>> = HashMap::new();
        let mut results = Vec::new();
        for (at, content, tool) in results_with_tools(messages) {
            let text = content_text(content);
            let text_words = Words::of(&text);
            let mut pairs = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for ids in used[at.message + 1..].iter().flatten() {
                for (id, kind) in ids {
                    if !seen.insert(id.as_str()) || !occurs(&text, &text_words, id) {
                        continue;
                    }
                    let first = *first_with.entry(id.clone()).or_insert_with(|| {
                        (0..texts.len()).find(|&i| occurs(&texts[i], &words[i], id))
                    });
                    pairs.push(Pair {
                        id: id.clone(),
                        kind: *kind,
                        is_new: first.is_none_or(|i| i >= at.message),
                    });
                }
            }
            results.push(ResultFacts {
                at,
                raw_json: content.map_or_else(String::new, stringify),
                pairs,
                tool,
            });
        }
        Analysis {
            turns: turns(messages),
            results,
        }
    }
}
