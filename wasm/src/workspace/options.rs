//! Reading a `Workspace`'s options from JS: what it stores, its IO, and the host
//! callbacks (token counter, clock, logger).

use js_sys::{Date, Function, JsString, Object, Reflect};
use tool_offload_core::options::{working_dir, workspace_options};
use tool_offload_core::workspace::{Known, Workspace as CoreWorkspace};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::args::kind_of;
use crate::error::{message_of, set, JsOffloadError};
use crate::host::{function_option, JsHost};

/// Everything a `Workspace` holds, shared by every pending call.
pub(crate) struct Inner {
    pub(crate) core: CoreWorkspace,
    /// The IO, `options.logger` and `options.countTokens`.
    pub(crate) host: JsHost,
    now: Option<Function>,
    sha256: Option<Function>,
}

pub(crate) fn parse_options(options: &JsValue) -> Result<Inner, JsOffloadError> {
    let given = crate::given::options(options);
    let cwd = |dir: &str| working_dir(&given, dir, crate::args::process_cwd);
    // The engine's `JSON.parse` for records: core's default (serde_json) would be linked
    // into the wasm.
    let core = workspace_options(&given, cwd, engine_parse)?;
    Ok(Inner {
        core: CoreWorkspace::new(core)?,
        host: JsHost::of(options)?,
        now: function_option(options, "now")?,
        sha256: function_option(options, "sha256")?,
    })
}

/// A record file parsed by the engine's `JSON.parse`.
fn engine_parse(text: &str) -> Result<tool_offload_core::Value, String> {
    js_sys::JSON::parse(text)
        .map(|parsed| crate::convert::from_parsed(&parsed))
        .map_err(|thrown| message_of(&thrown))
}

impl Inner {
    /// `now()` in ms since the epoch: the option's clock (a number or a `Date`), else
    /// `Date.now()`.
    pub(crate) fn now(&self) -> Result<f64, JsOffloadError> {
        let Some(now) = &self.now else {
            return Ok(Date::now());
        };
        let value = now
            .call0(&JsValue::UNDEFINED)
            .map_err(|thrown| invalid(format!("options.now threw: {}", message_of(&thrown))))?;
        let ms = match value.dyn_ref::<Date>() {
            Some(date) => date.get_time(),
            None => value.as_f64().unwrap_or(f64::NAN),
        };
        if ms.is_finite() {
            Ok(ms)
        } else {
            Err(invalid(format!(
                "options.now must return a finite number of ms or a valid Date, got {}",
                kind_of(&value)
            )))
        }
    }

    /// What is known of a content without wasm computing it: its length (`js`, a JS
    /// string, knows it), and its SHA-256 when `options.sha256` hashes (the npm package's
    /// Node entry passes `node:crypto`'s, ~35× faster than SHA-256 compiled to wasm),
    /// given `text`'s UTF-8 bytes where they are, in wasm memory.
    pub(crate) fn known(&self, js: &JsString, text: &str) -> Result<Known, JsOffloadError> {
        let sha256 = match &self.sha256 {
            None => None,
            Some(hash) => {
                // SAFETY: the view is used by the call below only, and nothing allocates
                // in wasm memory (which could move it) before that call returns.
                let bytes = unsafe { js_sys::Uint8Array::view(text.as_bytes()) };
                let value = hash.call1(&JsValue::UNDEFINED, &bytes).map_err(|thrown| {
                    invalid(format!("options.sha256 threw: {}", message_of(&thrown)))
                })?;
                match value.as_string() {
                    Some(hex) if hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                        Some(hex.to_ascii_lowercase())
                    }
                    _ => {
                        return Err(invalid(format!(
                            "options.sha256 must return 64 hex digits, got {}",
                            kind_of(&value)
                        )))
                    }
                }
            }
        };
        Ok(Known {
            chars: Some(js.length() as usize),
            sha256,
        })
    }

    /// Hand `entry` (its `event` first) to the logger, if any; a logger that throws or
    /// rejects is ignored, as the Materializer's is.
    pub(crate) fn log(&self, event: &str, fields: &[(&str, JsValue)]) {
        let Some(logger) = &self.host.logger else {
            return;
        };
        let entry = Object::new();
        set(&entry, "event", &JsValue::from_str(event));
        for (key, value) in fields {
            if !value.is_undefined() {
                let _ = Reflect::set(&entry, &JsValue::from_str(key), value);
            }
        }
        crate::host::call_logger(logger, &entry);
    }
}

fn invalid(message: String) -> JsOffloadError {
    OffloadError::InvalidArgument(message).into()
}
