//! `messageShapes()`: core's one description of the messages (and Anthropic blocks)
//! that hold one tool result, for the npm package's fingerprint of what core reads
//! (`host-node/src/seen-messages.ts`), so the field names are declared once.

use tool_offload_core::RESULT_SHAPES;
use wasm_bindgen::prelude::*;

/// Core's [`RESULT_SHAPES`] in core's order, a line each of `tag value id content`
/// (field names never hold spaces or newlines); seen-messages.ts splits them. A string,
/// not nested arrays: it costs the wasm no array building.
#[wasm_bindgen(js_name = messageShapes)]
pub fn message_shapes() -> String {
    let mut rows = String::new();
    for s in &RESULT_SHAPES {
        rows += &[s.tag, s.value, s.id, s.content].join(" ");
        rows.push('\n');
    }
    rows
}
