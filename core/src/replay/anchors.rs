//! What the best-known peers do, as policies to replay beside ours: Anthropic's
//! server-side tool-result clearing, Claude Code's persistence of large outputs and the
//! OpenAI Agents SDK's tool-output trimmer.

use std::collections::HashMap;

use super::messages::{content_text, results_in};
use crate::message::apply_edits;
use crate::message::{tool_results, At};
use serde_json::Value;

/// What Anthropic's `clear_tool_uses_20250919` leaves of a cleared result (LangChain's
/// `ClearToolUsesEdit` writes the same default placeholder).
pub const CLEARED_PLACEHOLDER: &str = "[cleared]";

/// Anthropic's context editing at its defaults, applied to the history of one turn:
/// when its tokens (`message_tokens`, summed) exceed `trigger_tokens` (100,000 by
/// default), every tool result but the last `keep` (3) becomes [`CLEARED_PLACEHOLDER`].
/// The server does this on every request, from the full history the client keeps, so
/// each turn past the trigger clears one more result than the turn before. Returns the
/// messages that change, by index.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::replay::clear_tool_uses;
/// let result = |id: &str| json!({"role": "tool", "tool_call_id": id, "content": "long output"});
/// let history = [result("a"), result("b"), result("c"), result("d")];
/// let changed = clear_tool_uses(&history, &[50_000; 4], 100_000, 3);
/// assert_eq!(changed.len(), 1);
/// assert_eq!(changed[0].1["content"], "[cleared]");
/// assert!(clear_tool_uses(&history, &[10; 4], 100_000, 3).is_empty());
/// ```
pub fn clear_tool_uses(
    history: &[Value],
    message_tokens: &[usize],
    trigger_tokens: usize,
    keep: usize,
) -> Vec<(usize, Value)> {
    if message_tokens.iter().sum::<usize>() <= trigger_tokens {
        return Vec::new();
    }
    let results = results_in(history);
    let older = results.len().saturating_sub(keep);
    let mut by_message: Vec<(usize, Vec<(crate::message::Slot, String)>)> = Vec::new();
    for (at, _) in &results[..older] {
        match by_message.last_mut() {
            Some((i, edits)) if *i == at.message => {
                edits.push((at.slot, CLEARED_PLACEHOLDER.into()))
            }
            _ => by_message.push((at.message, vec![(at.slot, CLEARED_PLACEHOLDER.into())])),
        }
    }
    edited(history, by_message)
}

/// Claude Code's persistence of large outputs (2.1): a result over 30,000 characters
/// (`Bash`) or 50,000 (any other tool) is saved to `<session>/tool-results/<id>.txt`
/// and the model is shown a `<persisted-output>` block with its first 2,000 characters.
/// `message` with its results so replaced, or `None` when none is that large.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::replay::claude_code_persisted;
/// let calls = json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]});
/// let result = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x".repeat(30_001)}]});
/// let names = tool_offload_core::replay::tool_names(&[calls, result.clone()]);
/// let shown = claude_code_persisted(&result, &names).unwrap();
/// let text = shown["content"][0]["content"].as_str().unwrap();
/// assert!(text.starts_with("<persisted-output>\nOutput too large (29.3KB). Full output saved to: tool-results/t1.txt\n\nPreview (first 2KB):\nxxx"));
/// assert!(text.ends_with("\n...\n</persisted-output>"));
/// ```
pub fn claude_code_persisted(message: &Value, names: &HashMap<String, String>) -> Option<Value> {
    let mut edits = Vec::new();
    for found in tool_results(&message, At::Alone, 0, &mut Vec::new()).ok()? {
        let text = content_text(found.content);
        let chars = crate::text::utf16_len(&text);
        let id = found.id().unwrap_or_default();
        let limit = match names.get(&id).map(String::as_str) {
            Some("Bash") => 30_000,
            _ => 50_000,
        };
        if chars <= limit {
            continue;
        }
        let preview: String = text.chars().take(2_000).collect();
        let kb = text.len() as f64 / 1024.0;
        edits.push((
            found.slot,
            format!(
                "<persisted-output>\nOutput too large ({kb:.1}KB). Full output saved to: tool-results/{id}.txt\n\nPreview (first 2KB):\n{preview}\n...\n</persisted-output>"
            ),
        ));
    }
    if edits.is_empty() {
        return None;
    }
    let mut shown = message.clone();
    apply_edits(&mut shown, edits);
    Some(shown)
}

/// The OpenAI Agents SDK's `ToolOutputTrimmer` at its defaults (`agents.extensions`:
/// `recent_turns` 2, `max_output_chars` 500, `preview_chars` 200), applied to the history
/// of one turn as the SDK's `call_model_input_filter` is, before every model call: every
/// tool result before the second-last user message (a real user turn: a message holding
/// only tool results is not one) longer than 500 characters becomes `[Trimmed: <tool>
/// output — <n> chars → 200 char preview]` and its first 200 characters, then `...`,
/// when that is shorter. Lengths are UTF-16 units here (the SDK counts code points).
/// Returns the messages that change, by index.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::replay::agents_trimmed;
/// let user = |text: &str| json!({"role": "user", "content": text});
/// let call = json!({"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}]});
/// let result = json!({"role": "tool", "tool_call_id": "c1", "content": "y".repeat(600)});
/// let history = [user("find it"), call, result, user("and now?"), user("go on")];
/// let changed = agents_trimmed(&history);
/// assert_eq!(changed[0].0, 2);
/// let text = changed[0].1["content"].as_str().unwrap();
/// assert!(text.starts_with("[Trimmed: search output — 600 chars → 200 char preview]\nyyy"));
/// assert!(text.ends_with("y..."));
/// assert!(agents_trimmed(&history[..4]).is_empty(), "within the last two user turns");
/// ```
pub fn agents_trimmed(history: &[Value]) -> Vec<(usize, Value)> {
    const RECENT_TURNS: usize = 2;
    const MAX_OUTPUT_CHARS: usize = 500;
    const PREVIEW_CHARS: usize = 200;
    let results = results_in(history);
    let is_result = |i: usize| results.iter().any(|(at, _)| at.message == i);
    let boundary = (0..history.len())
        .rev()
        .filter(|&i| {
            history[i].get("role").and_then(Value::as_str) == Some("user") && !is_result(i)
        })
        .nth(RECENT_TURNS - 1)
        .unwrap_or(0);
    let names = tool_names(history);
    let mut by_message: Vec<(usize, Vec<(crate::message::Slot, String)>)> = Vec::new();
    for (i, message) in history.iter().enumerate().take(boundary) {
        let mut edits = Vec::new();
        for found in tool_results(&message, At::Alone, 0, &mut Vec::new()).unwrap_or_default() {
            let text = content_text(found.content);
            let chars = crate::text::utf16_len(&text);
            if chars <= MAX_OUTPUT_CHARS {
                continue;
            }
            let id = found.id().unwrap_or_default();
            let name = names.get(&id).map_or("unknown_tool", String::as_str);
            let preview: String = text.chars().take(PREVIEW_CHARS).collect();
            let summary = format!(
                "[Trimmed: {name} output — {chars} chars → {PREVIEW_CHARS} char preview]\n{preview}..."
            );
            if crate::text::utf16_len(&summary) < chars {
                edits.push((found.slot, summary));
            }
        }
        if !edits.is_empty() {
            by_message.push((i, edits));
        }
    }
    edited(history, by_message)
}

/// The messages of `history` that `by_message` edits, by index, edited.
fn edited(
    history: &[Value],
    by_message: Vec<(usize, Vec<(crate::message::Slot, String)>)>,
) -> Vec<(usize, Value)> {
    by_message
        .into_iter()
        .map(|(i, edits)| {
            let mut message = history[i].clone();
            apply_edits(&mut message, edits);
            (i, message)
        })
        .collect()
}

/// Tool names by call id, from the calls in `messages` (Anthropic `tool_use`, OpenAI Chat
/// `tool_calls`, Responses `function_call`): the Materializer's own lookup.
pub fn tool_names(messages: &[Value]) -> HashMap<String, String> {
    let views: Vec<&Value> = messages.iter().collect();
    crate::message::tool_names(&views)
}
