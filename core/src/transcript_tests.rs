//! Session logs converted: merges, side chains, persisted outputs, Codex rollouts.
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
fn a_persisted_output_preview_gets_the_full_text_back_from_a_string_or_an_object() {
    let preview = "<persisted-output>\nOutput too large. Preview:\nab\n</persisted-output>";
    let mut with_full = event(
        "user",
        json!([{"type": "tool_result", "tool_use_id": "t1", "content": preview}]),
    );
    with_full["toolUseResult"] = json!("abcdef");
    let mut object_full = with_full.clone();
    object_full["toolUseResult"] = json!({"stdout": "abcdef"});
    let mut unrecoverable = with_full.clone();
    unrecoverable["toolUseResult"] = json!({"filePath": "/a", "oldString": "a", "newString": "b"});
    let mut mention = with_full.clone();
    mention["message"]["content"][0]["content"] = json!("text about <persisted-output>");
    let got = claude(vec![with_full], false);
    assert_eq!(got[0]["content"][0]["content"], "abcdef");
    let got = claude(vec![object_full], false);
    assert_eq!(got[0]["content"][0]["content"], "abcdef");
    let mut log = ClaudeCode::new(false);
    log.push(unrecoverable);
    assert_eq!(log.previews(), ["t1"], "left for tool-results/");
    assert_eq!(log.finish()[0]["content"][0]["content"], preview);
    let got = claude(vec![mention], false);
    assert_eq!(
        got[0]["content"][0]["content"],
        "text about <persisted-output>"
    );
}

/// A `<persisted-output>` block as Claude Code 2.1 writes it: the first 2,000 characters.
fn persisted(id: &str, full: &str) -> Value {
    let shown: String = full.chars().take(2_000).collect();
    let block = format!(
        "<persisted-output>\nOutput too large (40.0KB). Full output saved to: /s/tool-results/{id}.txt\n\nPreview (first 2KB):\n{shown}\n...\n</persisted-output>"
    );
    event(
        "user",
        json!([{"type": "tool_result", "tool_use_id": id, "content": block}]),
    )
}

/// The text `full` restores a persisted `text` to.
fn restored_from(text: &str, full: Value) -> Value {
    let mut line = persisted("t1", text);
    line["toolUseResult"] = full;
    claude(vec![line], false)[0]["content"][0]["content"].clone()
}

#[test]
fn every_recoverable_form_claude_code_writes_is_rebuilt_as_the_model_saw_it() {
    let lines: Vec<String> = (0..3000).map(|i| format!("line {i}")).collect();
    let content = lines.join("\n");
    // Read: numbered from startLine as `cat -n` does, then the reminder.
    let numbered: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{:>6}→{l}", i + 7))
        .collect();
    let read = numbered.join("\n") + READ_REMINDER;
    let file = json!({"type": "text", "file": {"filePath": "/r.txt", "content": content, "numLines": 3000, "startLine": 7, "totalLines": 3006}});
    assert_eq!(restored_from(&read, file), read.as_str());
    // Bash: stdout, then stderr on its own line.
    let bash =
        json!({"stdout": content, "stderr": "warning: w", "interrupted": false, "isImage": false});
    let text = format!("{content}\nwarning: w");
    assert_eq!(restored_from(&text, bash), text.as_str());
    // Grep, content and files_with_matches; Glob.
    let grep = json!({"mode": "content", "numFiles": 0, "filenames": [], "content": content, "numLines": 3000, "appliedLimit": 3000});
    let text = format!("{content}\n\n[Showing results with pagination = limit: 3000, offset: 0]");
    assert_eq!(restored_from(&text, grep), text.as_str());
    let found = json!({"mode": "files_with_matches", "filenames": lines, "numFiles": 3000});
    let text = format!("Found 3000 files\n{content}");
    assert_eq!(restored_from(&text, found), text.as_str());
    let glob = json!({"filenames": lines, "durationMs": 3, "numFiles": 3000, "truncated": true});
    let text = format!(
        "{content}\n(Results are truncated. Consider using a more specific path or pattern.)"
    );
    assert_eq!(restored_from(&text, glob), text.as_str());
    // Task (an agent's report), WebFetch, an MCP tool's text blocks.
    let task = json!({"status": "completed", "prompt": "p", "agentId": "a1", "content": [{"type": "text", "text": content}], "totalTokens": 1});
    let text =
        format!("{content}\nagentId: a1 (for resuming to continue this agent's work if needed)");
    assert_eq!(restored_from(&text, task), text.as_str());
    let fetch = json!({"bytes": 1, "code": 200, "codeText": "OK", "result": content, "durationMs": 1, "url": "https://x"});
    assert_eq!(restored_from(&content, fetch), content.as_str());
    let mcp = json!([{"type": "text", "text": "a"}, {"type": "text", "text": content}]);
    let text = format!("a\n{content}");
    assert_eq!(restored_from(&text, mcp), text.as_str());
}

#[test]
fn a_rebuilt_text_that_does_not_start_as_the_preview_is_not_put_back() {
    let shown = "x".repeat(5_000);
    let line = |full: Value| {
        let mut line = persisted("t1", &shown);
        line["toolUseResult"] = full;
        let mut log = ClaudeCode::new(false);
        log.push(line);
        log
    };
    let log = line(json!({"stdout": "y".repeat(5_000), "stderr": ""}));
    assert_eq!(
        log.previews(),
        ["t1"],
        "still a preview: tool-results/ may hold it"
    );
    let log = line(json!({"stdout": "x".repeat(5_000), "stderr": ""}));
    assert!(log.previews().is_empty());
    assert_eq!(log.finish()[0]["content"][0]["content"], shown.as_str());
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
