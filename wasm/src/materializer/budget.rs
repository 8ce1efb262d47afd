//! `budget(messages, options)` for JS: clearing old tool results when a history is over
//! budget. Each message is counted as its `JSON.stringify` by `options.countTokens`, else
//! the materializer's own `countTokens`, else the estimate — here, so a counter that
//! throws or returns no count rejects with an `OffloadError` naming it (the thrown value
//! its `cause`); `options.messageTokens` (one count per message) skips the counting.

use js_sys::{Array, Function, Object, Promise};
use tool_offload_core::{estimate_tokens, OffloadError};
use wasm_bindgen::prelude::*;

use super::class::Materializer;
use super::options::Inner;
use crate::abort::{self, Abort};
use crate::args::{count_arg, kind_of};
use crate::convert::{js_text, number};
use crate::copy::Messages;
use crate::count_tokens::JsCounter;
use crate::error::{message_of, set, JsOffloadError};
use crate::host::function_option;
use crate::keys::field;
use crate::promise::spawn;

/// The estimated tokens of `text` (core's calibrated estimate, meant never to undercount
/// tool output; docs/tokens.md).
#[wasm_bindgen(js_name = estimateTokens)]
pub fn estimate_tokens_js(text: &str) -> usize {
    estimate_tokens(text)
}

#[wasm_bindgen]
impl Materializer {
    /// Clear old tool results when the history holds more than `options.triggerTokens`
    /// tokens (`options.messageTokens`: one count per message): results before the last
    /// `keepLast` (default 3), not of `excludeTools`, become pointers to their artifacts,
    /// oldest first, down to half the trigger, if that saves `clearAtLeastTokens` (default
    /// a tenth of the trigger). The npm package's `budget` counts the tokens itself.
    #[wasm_bindgen(unchecked_return_type = "Promise<BudgetResult<object>>")]
    pub fn budget(
        &self,
        #[wasm_bindgen(unchecked_param_type = "readonly object[]")] messages: JsValue,
        #[wasm_bindgen(unchecked_param_type = "BudgetCallOptions")] options: JsValue,
    ) -> Promise {
        let inner = self.inner.clone();
        spawn(async move { Ok(budget(&inner, messages, options).await?) })
    }
}

/// `budget(messages, options)`: `{ messages, cleared, tokensBefore, tokensAfter,
/// rewrittenFromMessage, refs, paths }`, unchanged messages as the same objects.
pub(crate) async fn budget(
    inner: &Inner,
    messages: JsValue,
    options: JsValue,
) -> Result<JsValue, JsOffloadError> {
    let parsed = tool_offload_core::options::budget_options(&crate::given::options(&options))?;
    let abort = Abort::from_options(&options)?;
    let given = Messages::of(&messages)?;
    let function = counter_arg(inner, &options)?;
    let counter = function.as_ref().map(JsCounter::new);
    let given_counts = field(&options, "messageTokens");
    let tokens = if given_counts.is_undefined() {
        let array: &Array = messages.unchecked_ref();
        array
            .iter()
            .map(|m| counted(counter.as_ref(), &m))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        counts(&given_counts)?
    };
    let io = inner.host.io(abort.as_ref());
    let done = inner
        .core
        .budget(&given.views, &tokens, &parsed, &io)
        .await
        .map_err(|e| Messages::error(e, &io, abort.as_ref()))?;
    abort::check(abort.as_ref())?;
    let result = Object::new();
    let out = given.edited(&done.changed)?;
    set(&result, "messages", &out);
    let cleared: Array = done
        .cleared
        .iter()
        .map(|c| crate::convert::to_js(&c.to_value()))
        .collect();
    set(&result, "cleared", &cleared);
    set(&result, "tokensBefore", &number(done.tokens_before));
    // Counted again as sent, when counted here: the estimate of savings is core's.
    let mut after = done.tokens_after;
    if given_counts.is_undefined() {
        after = done.tokens_before;
        for (index, _) in &done.changed {
            let now = counted(counter.as_ref(), &out.get(*index as u32))?;
            after = (after + now).saturating_sub(tokens[*index]);
        }
    }
    set(&result, "tokensAfter", &number(after));
    let from = done.rewritten_from_message.map_or(JsValue::NULL, number);
    set(&result, "rewrittenFromMessage", &from);
    let (refs, paths): (Array, Array) = done
        .stored
        .iter()
        .map(|(r, p)| (super::output::context_ref(r), JsValue::from_str(p)))
        .unzip();
    set(&result, "refs", &refs);
    set(&result, "paths", &paths);
    Ok(result.into())
}

/// `messageTokens`: an array of counts, one per message.
fn counts(value: &JsValue) -> Result<Vec<usize>, JsOffloadError> {
    let Some(array) = value.dyn_ref::<Array>() else {
        return Err(OffloadError::InvalidArgument(format!(
            "budget: messageTokens must be an array of counts, got {}",
            kind_of(value)
        ))
        .into());
    };
    array
        .iter()
        .map(|n| count_arg(&n, "messageTokens[i]", 0))
        .collect()
}

/// The counter for `budget`: `options.countTokens` (a function when given), else the
/// materializer's own; `None`: the estimate.
fn counter_arg(inner: &Inner, options: &JsValue) -> Result<Option<Function>, JsOffloadError> {
    Ok(function_option(options, "countTokens")?.or_else(|| inner.host.count_tokens.clone()))
}

/// The tokens of `message`'s `JSON.stringify`, by `counter` (else the estimate): a
/// counter that throws is `INVALID_ARGUMENT` with what it threw as `cause`; one that
/// returns no non-negative integer is named with what it returned.
fn counted(counter: Option<&JsCounter<'_>>, message: &JsValue) -> Result<usize, JsOffloadError> {
    let text = js_sys::JSON::stringify(message)
        .map(|t| js_text(&t))
        .map_err(|thrown| {
            JsOffloadError::with_cause(
                OffloadError::InvalidMessage(format!(
                    "a message cannot be serialised as JSON: {}",
                    message_of(&thrown)
                )),
                Some(thrown),
            )
        })?;
    match counter {
        None => Ok(estimate_tokens(&text)),
        Some(counter) => counter.count(&text).map_err(|e| counter.caused(e.into())),
    }
}
