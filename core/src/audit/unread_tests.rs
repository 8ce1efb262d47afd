use serde_json::json;

use super::*;

fn views(messages: &[Value]) -> Vec<&Value> {
    messages.iter().collect()
}

fn summary(id: &str, errors: bool) -> String {
    let found = if errors {
        "\n--- errors: 1 line found; likely root cause at line 3 ---\n3| error[E0308]: mismatched types"
    } else {
        "\n--- first 2 lines ---\n1| ok\n2| ok"
    };
    format!("[Output of bash (call {id}) stored as ctx://c1/tool/{id}.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 9,000 bytes, 9,000 characters, 300 lines. JSON: no.{found}")
}

fn call(id: &str, name: &str, input: Value) -> Value {
    json!({"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]})
}

fn result(id: &str, content: &str) -> Value {
    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": content}]})
}

#[test]
fn reads_are_later_tool_calls_naming_the_ref() {
    let messages = vec![
        call("t1", "bash", json!({"cmd": "cargo build"})),
        result("t1", &summary("t1", true)),
        call("t2", "bash", json!({"cmd": "cargo test"})),
        result("t2", &summary("t2", false)),
        call(
            "r1",
            "context_grep",
            json!({"ref": "ctx://c1/tool/t1.txt", "pattern": "error"}),
        ),
        result("r1", "3| error[E0308]: mismatched types"),
        call(
            "r2",
            "context_read",
            json!({"ref": "ctx://c1/tool/t1.txt", "offset": 0}),
        ),
        result("r2", "1| …"),
    ];
    let stats = read_stats(&views(&messages));
    let got: Vec<(&str, &str, usize, bool)> = stats
        .iter()
        .map(|s| (s.reference.as_str(), s.call_id.as_str(), s.reads, s.errors))
        .collect();
    assert_eq!(
        got,
        [
            ("ctx://c1/tool/t1.txt", "t1", 2, true),
            ("ctx://c1/tool/t2.txt", "t2", 0, false)
        ]
    );
    assert_eq!(unread_refs(&views(&messages)), ["ctx://c1/tool/t2.txt"]);
    // The only unread result reported no error: nothing to remind.
    assert_eq!(unread_reminder(&views(&messages)), None);
    // A read before the result is shown does not count; is_error counts as errors.
    let mut early = vec![
        call("r0", "context_read", json!({"ref": "ctx://c1/tool/t3.txt"})),
        result("r0", "no artifact for ref"),
        call("t3", "bash", json!({})),
    ];
    early.push(
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t3",
        "is_error": true, "content": summary("t3", false)}]}),
    );
    let stats = read_stats(&views(&early));
    assert_eq!((stats[0].reads, stats[0].errors), (0, true));
}

#[test]
fn the_reminder_names_unread_failures_once_at_the_last_user_turn() {
    let mut messages = vec![
        call("t1", "bash", json!({})),
        result("t1", &summary("t1", true)),
        call("t2", "bash", json!({})),
        result("t2", &summary("t2", true)),
    ];
    let before = messages[1].clone();
    assert!(remind_unread(&mut messages));
    let line = "[Not read yet: ctx://c1/tool/t1.txt, ctx://c1/tool/t2.txt — outputs with errors, shown only in part. Read them (context_read, context_grep) before relying on them.]";
    assert_eq!(
        messages[3]["content"][1],
        json!({"type": "text", "text": line})
    );
    assert_eq!(messages[1], before, "earlier messages untouched");
    assert_eq!(messages.len(), 4);
    assert!(!remind_unread(&mut messages));
    // A string content gets the line after a blank line.
    let mut text = vec![json!({"role": "user", "content": "see above"})];
    text.insert(0, result("t1", &summary("t1", true)));
    text.insert(0, call("t1", "bash", json!({})));
    assert!(remind_unread(&mut text));
    assert!(text[2]["content"]
        .as_str()
        .unwrap()
        .starts_with("see above\n\n[Not read yet: ctx://c1/tool/t1.txt — output with errors"));
    // OpenAI Chat: the last message is the tool's, so a user message follows it.
    let mut chat = vec![
        json!({"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "sh", "arguments": "{}"}}]}),
        json!({"role": "tool", "tool_call_id": "c1", "content": summary("c1", true)}),
    ];
    assert!(remind_unread(&mut chat));
    assert_eq!(chat[2]["role"], "user");
    assert!(chat[2]["content"]
        .as_str()
        .unwrap()
        .starts_with(REMINDER_PREFIX));
    assert_eq!(chat[1]["content"], summary("c1", true));
}

#[test]
fn placeholders_are_read_by_their_file() {
    let messages = vec![
        json!({"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "sh", "arguments": "{}"}}]}),
        json!({"role": "tool", "tool_call_id": "c1", "content": "[Content offloaded to: ./tool-result-c1.md]"}),
        json!({"role": "assistant", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "sh", "arguments": "{\"cmd\":\"tail -50 tool-result-c1.md\"}"}}]}),
    ];
    let stats = read_stats(&views(&messages));
    assert_eq!(
        (stats[0].reference.as_str(), stats[0].reads),
        ("tool-result-c1.md", 1)
    );
    assert!(unread_refs(&views(&messages)).is_empty());
}

#[test]
fn a_budget_pointer_is_read_by_its_ref() {
    let pointer = "[Earlier output of bash (call t1, 48,211 chars) cleared from the conversation; stored as ctx://c1/tool/t1.txt: context_read, context_grep]";
    let messages = vec![
        call("t1", "bash", json!({})),
        result("t1", pointer),
        call("r1", "context_read", json!({"ref": "ctx://c1/tool/t1.txt"})),
    ];
    let stats = read_stats(&views(&messages));
    assert_eq!(stats[0].reference, "ctx://c1/tool/t1.txt");
    assert_eq!(stats[0].reads, 1);
}

#[test]
fn a_read_tools_error_message_is_no_output_shown_in_part() {
    // Issue 48's repro: the error `context_read` gives for a bad ref mentions `ctx://`.
    let messages = vec![
        json!({"role": "user", "content": "go"}),
        call("a", "context_read", json!({"ref": "x.txt"})),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a",
               "content": "not a ctx:// ref: \"x.txt\"", "is_error": true}]}),
        // A file that mentions a ref, and another call's summary pasted into a file.
        call("b", "Read", json!({"file_path": "notes.md"})),
        result("b", "see ctx://c1/tool/t1.txt"),
        call("c", "Read", json!({"file_path": "fixture.txt"})),
        result("c", &summary("t9", true)),
    ];
    assert_eq!(read_stats(&views(&messages)), []);
    let mut with_reminder = messages.clone();
    assert!(!remind_unread(&mut with_reminder));
    assert_eq!(with_reminder, messages);
}

#[test]
fn the_reminder_is_said_once_for_a_set_and_again_when_the_set_changes() {
    let mut messages = vec![
        call("t1", "bash", json!({})),
        result("t1", &summary("t1", true)),
        call("t2", "bash", json!({})),
        result("t2", &summary("t2", true)),
    ];
    assert!(remind_unread(&mut messages));
    // Later turns with the same unread set: not said again.
    messages.push(json!({"role": "assistant", "content": "Looking."}));
    messages.push(json!({"role": "user", "content": "go on"}));
    assert!(!remind_unread(&mut messages));
    assert_eq!(messages[5]["content"], "go on");
    // t1 read since: the set is t2 alone, said once.
    messages.push(call(
        "r1",
        "context_read",
        json!({"ref": "ctx://c1/tool/t1.txt"}),
    ));
    messages.push(result("r1", "[ctx://c1/tool/t1.txt: lines 1-2 of 9. More: context_read(\"ctx://c1/tool/t1.txt\", 2)]\n1| a\n2| b"));
    assert!(remind_unread(&mut messages));
    let last = messages[7]["content"][1]["text"].as_str().unwrap();
    assert!(
        last.starts_with("[Not read yet: ctx://c1/tool/t2.txt — output with errors"),
        "{last}"
    );
    messages.push(json!({"role": "user", "content": "and?"}));
    assert!(!remind_unread(&mut messages));
}
