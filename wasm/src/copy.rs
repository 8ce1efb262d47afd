//! The host side of core's edits: a JSON-semantics deep copy of a message with each
//! offloaded content replaced by its placeholder.

use js_sys::Array;
use tool_offload_core::{Form, OffloadError, Slot};
use wasm_bindgen::prelude::*;

use crate::error::{message_of, set, JsOffloadError};

#[wasm_bindgen(module = "/js/copy-with-edits.js")]
extern "C" {
    #[wasm_bindgen(js_name = copyWithEdits, catch)]
    fn copy_with_edits_js(
        message: &JsValue,
        blocks: &[i32],
        holders: &Array,
        fields: &Array,
        values: &Array,
        parts: &[u8],
    ) -> Result<JsValue, JsValue>;
}

/// A deep copy of `message` with `edits` applied. Fails (before anything is written,
/// as callers order it) when the message cannot be serialised: a BigInt, a cycle, a
/// throwing `toJSON`.
pub(crate) fn copy_with_edits(
    message: &JsValue,
    edits: &[(Slot, String)],
) -> Result<JsValue, JsOffloadError> {
    let blocks: Vec<i32> = edits
        .iter()
        .map(|(s, _)| s.block.map_or(-1, |b| b as i32))
        .collect();
    let name = |key: &'static str| crate::keys::key(key);
    let holders: Array = edits
        .iter()
        .map(|(s, _)| s.holder.map_or(JsValue::UNDEFINED, name))
        .collect();
    let fields: Array = edits.iter().map(|(s, _)| name(s.field)).collect();
    let values: Array = edits
        .iter()
        .map(|(s, text)| replacement(s.form, text))
        .collect();
    // 1: text parts and others (the others stay), 2: the same in the AI SDK's `content`.
    let parts: Vec<u8> = edits
        .iter()
        .map(|(s, _)| match s.form {
            Form::Parts => 1,
            Form::TaggedParts => 2,
            Form::Text | Form::Tagged(_) => 0,
        })
        .collect();
    copy_with_edits_js(message, &blocks, &holders, &fields, &values, &parts).map_err(|thrown| {
        let reason = format!(
            "message cannot be serialised as JSON: {}",
            message_of(&thrown)
        );
        JsOffloadError::with_cause(OffloadError::InvalidMessage(reason), Some(thrown))
    })
}

/// What replaces a content: the text, or the AI SDK's `{ type, value }` around it.
/// (For the parts forms, the text: the JS side keeps the other parts.)
pub(crate) fn replacement(form: Form, text: &str) -> JsValue {
    match form {
        Form::Text | Form::Parts | Form::TaggedParts => JsValue::from_str(text),
        Form::Tagged(kind) => {
            let output = js_sys::Object::new();
            set(&output, "type", &JsValue::from_str(kind));
            set(&output, "value", &JsValue::from_str(text));
            output.into()
        }
    }
}

/// The messages of a whole-conversation call (`materializeMessages`, `offloadMessages`),
/// read where they live, and the copy handed back with core's edits applied.
pub(crate) struct Messages {
    pub(crate) views: Vec<crate::view::JsView>,
}

impl Messages {
    /// `messages`, which must be an array (`INVALID_ARGUMENT` otherwise).
    pub(crate) fn of(messages: &JsValue) -> Result<Self, JsOffloadError> {
        let Some(array) = messages.dyn_ref::<Array>() else {
            return Err(OffloadError::InvalidArgument(format!(
                "messages must be an array, got {}",
                crate::args::kind_of(messages)
            ))
            .into());
        };
        // A getter that threw during an earlier call is not this call's cause.
        crate::view::take_thrown();
        Ok(Messages {
            views: crate::view::JsView::items(array),
        })
    }

    /// Core's `error` with its cause: what a message's getter threw, else what the IO
    /// threw (unless the call was aborted: then `ABORTED`).
    pub(crate) fn error(
        error: OffloadError,
        io: &crate::read_write::ReadWrite,
        abort: Option<&crate::abort::Abort>,
    ) -> JsOffloadError {
        match crate::view::take_thrown() {
            Some(thrown) => JsOffloadError::with_cause(error, Some(thrown)),
            None => crate::abort::unless_aborted(abort, io.error(error)),
        }
    }

    /// The messages with `changed` applied: changed ones as deep copies, the others the
    /// very objects given. Artifacts are written by now; a copy that fails (a BigInt
    /// elsewhere in the message) leaves them in place, which loses nothing.
    pub(crate) fn edited(
        &self,
        changed: &[(usize, Vec<(Slot, String)>)],
    ) -> Result<Array, JsOffloadError> {
        let out: Array = self.views.iter().map(|v| v.value.clone()).collect();
        for (index, edits) in changed {
            out.set(
                *index as u32,
                copy_with_edits(&self.views[*index].value, edits)?,
            );
        }
        Ok(out)
    }
}
