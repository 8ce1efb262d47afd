//! The workspace's `<knowledge_list>`: a tool result of any text, call id, tool name and
//! metadata, stored and replaced.
//!
//! Never panics; the reference is well-formed XML (a strict parser reads it) whose root is
//! `knowledge_list` and whose entry names the artifact; it stays under the inline limit;
//! offloading it again is a no-op.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};
use tool_offload_core::workspace::{ToolResultInput, Workspace, WorkspaceOptions};
use tool_offload_core::{utf16_len, MemoryWriter};
use tool_offload_fuzz::block_on;

#[derive(Arbitrary, Debug)]
struct Input {
    call_id: String,
    tool: String,
    action: Option<String>,
    text: String,
    /// Repeat `text` this many times (up to 255), to reach the limit.
    times: u8,
    metadata: Vec<(String, String)>,
    /// The inline limit, from 2,000 up.
    limit: u16,
}

fuzz_target!(|input: Input| {
    let mut options = WorkspaceOptions::new("/data", "/");
    options.inline_limit = 2_000 + usize::from(input.limit);
    let ws = Workspace::new(options).unwrap();
    let text = input.text.repeat(usize::from(input.times).max(1));
    let mut metadata: Map<String, Value> = input
        .metadata
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    metadata.insert("offload".into(), Value::Bool(true));
    let call = ToolResultInput {
        tool_call_id: &input.call_id,
        tool_name: &input.tool,
        action_name: input.action.as_deref(),
        text: &text,
        is_json: false,
        metadata,
        known: Default::default(),
    };
    let io = MemoryWriter::new();
    let Ok(done) = block_on(ws.offload_tool_result(&call, None, 0.0, &io)) else {
        return;
    };
    let Some(list) = done.replacement else {
        return;
    };
    assert!(
        utf16_len(&list) < ws.options().inline_limit,
        "{} over",
        utf16_len(&list)
    );
    let doc = roxmltree::Document::parse(&list).unwrap_or_else(|e| panic!("{e}: {list}"));
    assert_eq!(doc.root_element().tag_name().name(), "knowledge_list");
    let entry = doc
        .root_element()
        .children()
        .find(|n| n.is_element())
        .unwrap();
    let id = format!("tool_result_{}", input.call_id);
    assert_eq!(entry.attribute("id"), Some(id.as_str()));
    let again = ToolResultInput {
        text: &list,
        ..call
    };
    let again = block_on(ws.offload_tool_result(&again, None, 0.0, &io)).unwrap();
    assert!(!again.offloaded && again.decision.is_none());
});
