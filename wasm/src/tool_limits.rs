//! `options.tools` of a `Materializer` or a `Workspace`: per-tool limits, read from JS
//! and shown back.

use js_sys::{Object, Reflect};
use tool_offload_core::materialize::{MaterializeWhen, ToolLimits};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::args::{kind_of, u64_arg};
use crate::convert::number;
use crate::error::{set, JsOffloadError};
use crate::keys::field;

/// `options.tools`: `{ [toolName]: { maxInlineChars?, maxInlineBytes?, maxInlineTokens?,
/// materialize? } }`,
/// in the object's key order; none when absent.
pub(crate) fn tools_arg(options: &JsValue) -> Result<Vec<(String, ToolLimits)>, JsOffloadError> {
    let tools = field(options, "tools");
    if tools.is_undefined() || tools.is_null() {
        return Ok(Vec::new());
    }
    let bad = |what: String| -> JsOffloadError { OffloadError::InvalidArgument(what).into() };
    if js_sys::Array::is_array(&tools) {
        return Err(bad(
            "options.tools must be an object of tool names, got array".into(),
        ));
    }
    if !tools.is_object() {
        return Err(bad(format!(
            "options.tools must be an object of tool names, got {}",
            kind_of(&tools)
        )));
    }
    let mut out = Vec::new();
    for key in Object::keys(tools.unchecked_ref::<Object>()).iter() {
        let name = key.as_string().unwrap_or_default();
        let label = format!(
            "options.tools[{}]",
            tool_offload_core::json::stringify(&name.as_str().into())
        );
        let entry = Reflect::get(&tools, &key).unwrap_or(JsValue::UNDEFINED);
        if !entry.is_object() {
            return Err(bad(format!(
                "{label} must be an object, got {}",
                kind_of(&entry)
            )));
        }
        crate::args::known_keys(
            &entry,
            &label,
            "tools entry field",
            tool_offload_core::option_keys::TOOL_ENTRY_KEYS,
        )?;
        let count = |key: &'static str| -> Result<Option<usize>, JsOffloadError> {
            let n = u64_arg(&field(&entry, key), &format!("{label}.{key}"))?;
            Ok(n.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
        };
        let when = field(&entry, "materialize");
        let materialize = match when.as_string().as_deref() {
            _ if when.is_undefined() => None,
            Some("never") => Some(MaterializeWhen::Never),
            Some("always") => Some(MaterializeWhen::Always),
            Some(other) => {
                return Err(bad(format!(
                    "{label}.materialize must be \"never\" or \"always\", got {}",
                    tool_offload_core::json::stringify(&other.into())
                )))
            }
            None => {
                return Err(bad(format!(
                    "{label}.materialize must be \"never\" or \"always\", got {}",
                    kind_of(&when)
                )))
            }
        };
        let limits = ToolLimits {
            max_inline_chars: count("maxInlineChars")?,
            max_inline_bytes: count("maxInlineBytes")?,
            max_inline_tokens: count("maxInlineTokens")?,
            materialize,
        };
        out.push((name, limits));
    }
    Ok(out)
}

/// The `tools` option as JS shows it back.
pub(crate) fn tools_js(tools: &[(String, ToolLimits)]) -> JsValue {
    let js = Object::new();
    for (name, limits) in tools {
        let entry = Object::new();
        if let Some(n) = limits.max_inline_chars {
            set(&entry, "maxInlineChars", &number(n));
        }
        if let Some(n) = limits.max_inline_bytes {
            set(&entry, "maxInlineBytes", &number(n));
        }
        if let Some(n) = limits.max_inline_tokens {
            set(&entry, "maxInlineTokens", &number(n));
        }
        if let Some(when) = limits.materialize {
            let when = match when {
                MaterializeWhen::Never => "never",
                MaterializeWhen::Always => "always",
            };
            set(&entry, "materialize", &JsValue::from_str(when));
        }
        let _ = Reflect::set(&js, &JsValue::from_str(name), &entry);
    }
    js.into()
}
