//! TypeScript types of the Materializer's options and its conversation-level API (the
//! rest is in `crate::types`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const OPTIONS_TYPES: &'static str = include_str!("../../ts/materializer.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const CONVERSATION_TYPES: &'static str = include_str!("../../ts/conversation.d.ts");
