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
    assert_eq!(pointer(page), None);
    assert_eq!(pointer(summary), Some("ctx://c1/tool/t1.txt"));
}
