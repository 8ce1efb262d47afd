use serde_json::json;

use super::*;

#[test]
fn a_page_read_back_is_a_read_not_another_output_shown_in_part() {
    let summary = "[Output of bash (call t1) stored as ctx://c1/tool/t1.txt and not shown in full: read it with context_read, context_tail or context_grep.]\nSize: 9 bytes";
    let page = "[ctx://c1/tool/t1.txt: lines 1-2 of 900. More: context_read(\"ctx://c1/tool/t1.txt\", 2)]\n1| a\n2| b";
    let messages = [
        json!({"role": "user", "content": "go"}),
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": summary}]}),
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "context_read",
               "input": {"ref": "ctx://c1/tool/t1.txt"}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": page}]}),
        json!({"role": "assistant", "content": "Found it."}),
    ];
    let session = ours(&messages);
    assert_eq!((session.partial(), session.unread()), (1, 0));
    assert_eq!(session.items[0].call_id, "t1");
    assert_eq!(session.items[0].turns_until_read, Some(1));
}

#[test]
fn error_messages_and_files_naming_a_ref_are_no_outputs_shown_in_part() {
    let messages = [
        json!({"role": "user", "content": "go"}),
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "context_read", "input": {"ref": "x.txt"}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "not a ctx:// ref: \"x.txt\"", "is_error": true}]}),
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "b", "name": "Read", "input": {"file_path": "notes.md"}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b", "content": "The log is at ctx://c1/tool/t9.txt."}]}),
    ];
    assert_eq!(ours(&messages).partial(), 0);
}

#[test]
fn the_tool_is_the_calls_and_chars_the_outputs() {
    let cleared = "[Earlier output of bash (call t1, 48,211 chars) cleared from the conversation; stored as ctx://c1/tool/t1.txt: context_read, context_grep]";
    let messages = [
        json!({"role": "assistant", "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "shell", "arguments": "{}"}}]}),
        json!({"role": "tool", "tool_call_id": "t1", "content": cleared}),
    ];
    let item = &ours(&messages).items[0];
    assert_eq!((item.tool.as_str(), item.chars), ("shell", 48_211));
}
