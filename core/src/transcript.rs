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

use serde_json::{Map, Value};

mod rendered;

pub use rendered::{preview_of, result_text, READ_REMINDER};

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
/// the full text is put back, rebuilt from the `toolUseResult` it kept in each form
/// whose text is recoverable ([`result_text`]) and only when it starts with what the
/// preview shows.
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

/// `blocks` with a `<persisted-output>` preview of a tool result replaced by the whole
/// text Claude Code kept in `full`, when it can be rebuilt and starts as the preview does.
fn restored(mut blocks: Vec<Value>, full: Option<Value>) -> Vec<Value> {
    let Some(full) = full else {
        return blocks;
    };
    let Some(block) = blocks.iter_mut().find(|b| is_preview(b)) else {
        return blocks;
    };
    let Some(text) = result_text(&full) else {
        return blocks;
    };
    let shown = block["content"].as_str().and_then(preview_of);
    if shown.is_none_or(|preview| starts_as(&text, preview)) {
        block["content"] = Value::String(text);
    }
    blocks
}

/// Whether `text` starts with `preview`, but for its last character (a preview cut by
/// bytes may end in part of one).
fn starts_as(text: &str, preview: &str) -> bool {
    let whole = preview.char_indices().last().map_or(0, |(at, _)| at);
    text.starts_with(&preview[..whole])
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
#[path = "transcript_tests.rs"]
mod tests;
