//! Session logs as agent tools write them, turned into the messages an agent loop
//! holds: Claude Code session logs and Codex CLI rollouts (both JSON Lines, one event a
//! line). Pure functions over parsed lines; reading the file is the host's.
//!
//! ```
//! use serde_json::json;
//! use tool_offload_core::transcript::{detect, ClaudeCode, Format};
//! let lines = [
//!     json!({"type": "user", "isSidechain": false, "message": {"role": "user", "content": "hi"}}),
//!     json!({"type": "assistant", "message": {"id": "msg_1", "role": "assistant", "content": [{"type": "thinking", "thinking": "…"}, {"type": "text", "text": "Let me look."}]}}),
//!     json!({"type": "assistant", "message": {"id": "msg_1", "role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {}}]}}),
//! ];
//! assert_eq!(detect(&lines[0]), Some(Format::ClaudeCode));
//! let mut log = ClaudeCode::new(false);
//! lines.into_iter().for_each(|line| log.push(line));
//! assert_eq!(log.finish(), vec![
//!     json!({"role": "user", "content": "hi"}),
//!     json!({"role": "assistant", "content": [{"type": "text", "text": "Let me look."}, {"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {}}]}),
//! ]);
//! ```

use crate::{Map, Value};

/// What an input holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Messages as an agent loop holds them (Anthropic, OpenAI Chat, Responses items).
    Messages,
    /// A Claude Code session log (`~/.claude/projects/<project>/<session>.jsonl`).
    ClaudeCode,
    /// A Codex CLI rollout (`~/.codex/sessions/…/rollout-*.jsonl`).
    Codex,
}

impl Format {
    /// The name used on the command line: `messages`, `claude-code`, `codex`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Messages => "messages",
            Format::ClaudeCode => "claude-code",
            Format::Codex => "codex",
        }
    }
}

/// The log format a JSON Lines line belongs to, from its `type`: Claude Code events
/// (`user`, `assistant`, `system`, `summary`, `file-history-snapshot` with `message`,
/// `uuid`, `sessionId`, `snapshot` or `leafUuid` beside it), Codex rollout lines (`session_meta`,
/// `response_item`, `turn_context`, `event_msg`, an older top-level item with
/// `record_type`, or an older rollout's first line, its untyped session metadata with
/// `id` and `timestamp`). `None` when the line says neither, e.g. a plain message.
pub fn detect(line: &Value) -> Option<Format> {
    let kind = line.get("type").and_then(Value::as_str);
    let has = |key: &str| line.get(key).is_some();
    match kind {
        Some("session_meta" | "response_item" | "turn_context" | "event_msg" | "compacted") => {
            Some(Format::Codex)
        }
        Some("user" | "assistant" | "system" | "summary" | "file-history-snapshot")
            if ["message", "uuid", "sessionId", "snapshot", "leafUuid"]
                .iter()
                .any(|k| has(k)) =>
        {
            Some(Format::ClaudeCode)
        }
        _ if has("record_type") => Some(Format::Codex),
        // An older rollout's first line: the session's metadata, untyped.
        None if has("id") && has("timestamp") => Some(Format::Codex),
        _ => None,
    }
}

/// A Claude Code session log, converted line by line: consecutive events of one role
/// merge into one message (a lone string content stays a string; merged, it becomes a
/// text block), `thinking` blocks are dropped, side-chain (sub-agent) events are left
/// out unless asked for, other event types (`system`, snapshots, summaries) are skipped,
/// and where Claude Code replaced a large result with a `<persisted-output>` preview,
/// the full text it kept (`toolUseResult`, when a string) is put back.
#[derive(Debug, Default)]
pub struct ClaudeCode {
    include_sidechains: bool,
    messages: Vec<Value>,
    /// Side-chain (sub-agent) events left out.
    sidechain_events: usize,
}

impl ClaudeCode {
    /// A converter; `include_sidechains` keeps sub-agent events in the conversation.
    pub fn new(include_sidechains: bool) -> Self {
        ClaudeCode {
            include_sidechains,
            ..ClaudeCode::default()
        }
    }

    /// Read one event (one line of the log).
    pub fn push(&mut self, mut event: Value) {
        let kind = event.get("type").and_then(Value::as_str);
        if !matches!(kind, Some("user" | "assistant")) {
            return;
        }
        if !self.include_sidechains && event.get("isSidechain") == Some(&Value::Bool(true)) {
            self.sidechain_events += 1;
            return;
        }
        let full = event.get_mut("toolUseResult").map(Value::take);
        let Some(Value::Object(mut message)) = event.get_mut("message").map(Value::take) else {
            return;
        };
        let Some(role) = message
            .get("role")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            return;
        };
        let content = match message.remove("content") {
            Some(Value::Array(blocks)) => {
                let blocks = restored(without_thinking(blocks), full);
                if blocks.is_empty() {
                    return;
                }
                Value::Array(blocks)
            }
            Some(other) => other,
            None => return,
        };
        if let Some(last) = self
            .messages
            .last_mut()
            .filter(|m| m["role"].as_str() == Some(role.as_str()))
        {
            let mut blocks = as_blocks(last["content"].take());
            blocks.extend(as_blocks(content));
            last["content"] = Value::Array(blocks);
            return;
        }
        let mut out = Map::new();
        out.insert("role".into(), Value::String(role));
        out.insert("content".into(), content);
        self.messages.push(Value::Object(out));
    }

    /// How many side-chain (sub-agent) events were left out: a log made only of them
    /// converts to no message, which a caller should explain (`--include-sidechains`).
    pub fn sidechain_events(&self) -> usize {
        self.sidechain_events
    }

    /// The ids of the tool results still shown as a `<persisted-output>` preview: Claude
    /// Code kept their full text in `<session>/tool-results/<id>.txt` beside the log, for
    /// the caller (who can read files) to put back with [`ClaudeCode::restore`].
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::transcript::ClaudeCode;
    /// let mut log = ClaudeCode::new(false);
    /// let preview = "<persisted-output>\nOutput too large (4.8MB). Full output saved to: /s/tool-results/t1.txt\n\nPreview (first 2KB):\nab\n</persisted-output>";
    /// log.push(json!({"type": "user", "message": {"role": "user", "content": [
    ///     {"type": "tool_result", "tool_use_id": "t1", "content": preview}]}}));
    /// assert_eq!(log.previews(), ["t1"]);
    /// assert!(log.restore("t1", "abcdef".into()));
    /// assert!(log.previews().is_empty());
    /// assert_eq!(log.finish()[0]["content"][0]["content"], "abcdef");
    /// ```
    pub fn previews(&self) -> Vec<String> {
        let mut ids = Vec::new();
        for message in &self.messages {
            for block in message["content"].as_array().into_iter().flatten() {
                if is_preview(block) {
                    if let Some(id) = block["tool_use_id"].as_str() {
                        ids.push(id.to_owned());
                    }
                }
            }
        }
        ids
    }

    /// Put `full` back as the content of the `<persisted-output>` preview of tool result
    /// `id`; whether there was one.
    pub fn restore(&mut self, id: &str, full: String) -> bool {
        for message in &mut self.messages {
            let Some(blocks) = message["content"].as_array_mut() else {
                continue;
            };
            if let Some(block) = blocks
                .iter_mut()
                .find(|b| is_preview(b) && b["tool_use_id"].as_str() == Some(id))
            {
                block["content"] = Value::String(full);
                return true;
            }
        }
        false
    }

    /// The conversation.
    pub fn finish(self) -> Vec<Value> {
        self.messages
    }
}

/// Whether `block` is a tool result shown as a `<persisted-output>` preview.
fn is_preview(block: &Value) -> bool {
    block.get("type").and_then(Value::as_str) == Some("tool_result")
        && block
            .get("content")
            .and_then(Value::as_str)
            .is_some_and(|c| c.starts_with("<persisted-output>"))
}

fn without_thinking(blocks: Vec<Value>) -> Vec<Value> {
    blocks
        .into_iter()
        .filter(|b| {
            !matches!(
                b.get("type").and_then(Value::as_str),
                Some("thinking" | "redacted_thinking")
            )
        })
        .collect()
}

/// `blocks` with a `<persisted-output>` preview of a tool result replaced by `full`, the
/// whole text Claude Code kept, when it is a string.
fn restored(mut blocks: Vec<Value>, full: Option<Value>) -> Vec<Value> {
    let Some(Value::String(full)) = full else {
        return blocks;
    };
    let preview = blocks.iter_mut().find(|b| is_preview(b));
    if let Some(block) = preview {
        block["content"] = Value::String(full);
    }
    blocks
}

/// A content as blocks: a string becomes one text block.
fn as_blocks(content: Value) -> Vec<Value> {
    match content {
        Value::Array(blocks) => blocks,
        Value::String(text) => {
            let mut block = Map::new();
            block.insert("type".into(), "text".into());
            block.insert("text".into(), Value::String(text));
            vec![Value::Object(block)]
        }
        other => vec![other],
    }
}

/// A Codex CLI rollout converted line by line into OpenAI Responses input items (what
/// Codex sends the model): the `payload` of each `response_item` line, or an older
/// rollout's top-level item; session metadata, turn context, events and state lines
/// are skipped. `reasoning` items are dropped, as `thinking` is for Claude Code.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::transcript::Codex;
/// let mut rollout = Codex::default();
/// rollout.push(json!({"type": "session_meta", "payload": {"id": "s"}}));
/// rollout.push(json!({"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": "ok"}}));
/// assert_eq!(rollout.finish(), vec![json!({"type": "function_call_output", "call_id": "c1", "output": "ok"})]);
/// ```
#[derive(Debug, Default)]
pub struct Codex {
    items: Vec<Value>,
}

impl Codex {
    /// Read one line of the rollout.
    pub fn push(&mut self, mut line: Value) {
        let item = match line.get("type").and_then(Value::as_str) {
            Some("response_item") => line.get_mut("payload").map(Value::take),
            Some("session_meta" | "turn_context" | "event_msg" | "compacted") => None,
            Some(_) => Some(line),
            _ => None,
        };
        if let Some(item) = item.filter(|i| i.is_object()) {
            if item.get("type").and_then(Value::as_str) != Some("reasoning") {
                self.items.push(item);
            }
        }
    }

    /// The conversation as Responses input items.
    pub fn finish(self) -> Vec<Value> {
        self.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claude(lines: Vec<Value>, sidechains: bool) -> Vec<Value> {
        let mut log = ClaudeCode::new(sidechains);
        lines.into_iter().for_each(|l| log.push(l));
        log.finish()
    }

    fn event(kind: &str, content: Value) -> Value {
        json!({"type": kind, "uuid": "u", "message": {"role": kind, "content": content}})
    }

    #[test]
    fn consecutive_events_of_a_role_merge_and_a_lone_string_stays_a_string() {
        let got = claude(
            vec![
                event("user", json!("first")),
                event("user", json!([{"type": "text", "text": "second"}])),
                event("assistant", json!([{"type": "text", "text": "a"}])),
                event("user", json!("alone")),
            ],
            false,
        );
        assert_eq!(
            got,
            vec![
                json!({"role": "user", "content": [{"type": "text", "text": "first"}, {"type": "text", "text": "second"}]}),
                json!({"role": "assistant", "content": [{"type": "text", "text": "a"}]}),
                json!({"role": "user", "content": "alone"}),
            ]
        );
    }

    #[test]
    fn side_chains_system_events_and_thinking_only_events_are_left_out() {
        let mut side = event("user", json!("sub-agent"));
        side["isSidechain"] = json!(true);
        let lines = vec![
            json!({"type": "system", "uuid": "s", "content": "x"}),
            json!({"type": "file-history-snapshot", "snapshot": {}}),
            side.clone(),
            event("assistant", json!([{"type": "thinking", "thinking": "t"}])),
            event("user", json!("main")),
        ];
        assert_eq!(
            claude(lines.clone(), false),
            vec![json!({"role": "user", "content": "main"})]
        );
        assert_eq!(claude(lines, true).len(), 1, "side chain merged with main");
    }

    #[test]
    fn a_persisted_output_preview_gets_the_full_text_back_only_when_it_is_a_string() {
        let preview = "<persisted-output>\nOutput too large. Preview:\nab\n</persisted-output>";
        let mut with_full = event(
            "user",
            json!([{"type": "tool_result", "tool_use_id": "t1", "content": preview}]),
        );
        with_full["toolUseResult"] = json!("abcdef");
        let mut object_full = with_full.clone();
        object_full["toolUseResult"] = json!({"stdout": "abcdef"});
        let mut mention = with_full.clone();
        mention["message"]["content"][0]["content"] = json!("text about <persisted-output>");
        let got = claude(vec![with_full], false);
        assert_eq!(got[0]["content"][0]["content"], "abcdef");
        let got = claude(vec![object_full], false);
        assert_eq!(got[0]["content"][0]["content"], preview);
        let got = claude(vec![mention], false);
        assert_eq!(
            got[0]["content"][0]["content"],
            "text about <persisted-output>"
        );
    }

    #[test]
    fn detect_tells_the_formats_apart() {
        assert_eq!(detect(&event("user", json!("x"))), Some(Format::ClaudeCode));
        assert_eq!(
            detect(&json!({"type": "response_item", "payload": {}})),
            Some(Format::Codex)
        );
        assert_eq!(
            detect(&json!({"record_type": "state"})),
            Some(Format::Codex)
        );
        assert_eq!(detect(&json!({"role": "user", "content": "x"})), None);
        let names = [Format::Messages, Format::ClaudeCode, Format::Codex].map(Format::name);
        assert_eq!(names, ["messages", "claude-code", "codex"]);
        assert_eq!(detect(&json!({"type": "function_call_output"})), None);
        assert_eq!(detect(&json!({"type": "user"})), None);
        assert_eq!(
            detect(&json!({"type": "summary", "summary": "s", "leafUuid": "u"})),
            Some(Format::ClaudeCode)
        );
    }

    #[test]
    fn codex_keeps_items_in_order_and_drops_everything_else() {
        let mut rollout = Codex::default();
        for line in [
            json!({"type": "session_meta", "payload": {"id": "s"}}),
            json!({"type": "turn_context", "payload": {}}),
            json!({"type": "response_item", "payload": {"type": "message", "role": "user", "content": []}}),
            json!({"type": "response_item", "payload": {"type": "reasoning", "summary": []}}),
            json!({"type": "event_msg", "payload": {"type": "token_count"}}),
            json!({"type": "function_call", "name": "shell", "call_id": "c1", "arguments": "{}"}),
            json!({"record_type": "state"}),
            json!({"type": "response_item", "payload": "not an item"}),
        ] {
            rollout.push(line);
        }
        assert_eq!(
            rollout.finish(),
            vec![
                json!({"type": "message", "role": "user", "content": []}),
                json!({"type": "function_call", "name": "shell", "call_id": "c1", "arguments": "{}"}),
            ]
        );
    }

    /// Codex's older rollouts start with the session's metadata, untyped, then the
    /// items themselves and `record_type` lines.
    #[test]
    fn an_older_codex_rollout_is_detected_and_read() {
        let lines = [
            json!({"id": "5973b6c0-94b8-487b-a530-2aeb6098ae0e", "timestamp": "2025-05-07T17:24:21.123Z", "instructions": null, "git": {"commit_hash": "abc"}}),
            json!({"record_type": "state"}),
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "ls"}]}),
            json!({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}),
            json!({"type": "function_call_output", "call_id": "c1", "output": "a\nb"}),
        ];
        assert_eq!(detect(&lines[0]), Some(Format::Codex));
        assert_eq!(detect(&json!({"id": "m1", "role": "user"})), None);
        let mut rollout = Codex::default();
        lines.into_iter().for_each(|l| rollout.push(l));
        let items = rollout.finish();
        assert_eq!(items.len(), 3);
        assert_eq!(items[2]["output"], "a\nb");
    }
}
