//! The `ToolRegistry` class for JavaScript: core's registry with JS function handlers,
//! and optional offloading of large results.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, JsString, Object, Promise, Reflect};
use tool_offload_core::materialize::ToolOutputRef;
use tool_offload_core::tools::{
    RegisterError, ResultMaterializer, ResultPolicy, ToolOutput, ToolRegistry as CoreRegistry,
    ToolResult,
};
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::args::{id_string, string_arg};
use crate::convert::to_js;
use crate::error::{message_js, message_of, set, JsOffloadError};
use crate::keys::{field, key};
use crate::promise::spawn;
use crate::types::DefinitionsOptions;
use crate::writer::JsFileWriter;

mod arguments;
pub(crate) use arguments::definitions_js;
use arguments::{materialize_option, offload_option, tool_definition};

/// `options.materialize` is an object whose `materialize({ toolCallId, toolName,
/// output })` resolves to `{ inline, content }` (a `Materializer`).
type Policy = ResultPolicy<JsFileWriter, Object>;

struct State {
    tools: CoreRegistry<Function>,
    policy: Rc<Policy>,
}

/// Tools by name, in registration order, each with an async handler; `executeTool`
/// turns every outcome into a `tool_result` for the model.
#[wasm_bindgen]
pub struct ToolRegistry {
    state: Rc<RefCell<State>>,
}

#[wasm_bindgen]
impl ToolRegistry {
    /// An empty registry; with `options.offload`, results of at least `thresholdChars`
    /// (default 1000) UTF-16 units are offloaded before `executeTool` returns them.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ToolRegistryOptions | undefined")] options: JsValue,
    ) -> Result<ToolRegistry, JsValue> {
        let offload = offload_option(&options).map_err(JsValue::from)?;
        let materialize = materialize_option(&options).map_err(JsValue::from)?;
        let policy = match (offload, materialize) {
            (Some(_), Some(_)) => {
                return Err(JsOffloadError::from(OffloadError::InvalidArgument(
                    "options.offload and options.materialize are alternatives: pass one".into(),
                ))
                .into())
            }
            (Some((offload, writer)), None) => ResultPolicy::Offload(offload, writer),
            (None, Some(materializer)) => ResultPolicy::Materialize(materializer),
            (None, None) => ResultPolicy::Inline,
        };
        Ok(ToolRegistry {
            state: Rc::new(RefCell::new(State {
                tools: CoreRegistry::new(),
                policy: Rc::new(policy),
            })),
        })
    }

    /// Register a tool: `definition = { name, description, input_schema }` and an async
    /// `handler(params) => { content, is_error? }`. Throws `INVALID_TOOL_NAME`,
    /// `DUPLICATE_TOOL` or `INVALID_TOOL_DEFINITION`.
    pub fn register(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolDefinition")] definition: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ToolHandler")] handler: JsValue,
    ) -> Result<(), JsValue> {
        let definition = tool_definition(&definition).map_err(JsValue::from)?;
        let Ok(handler) = handler.dyn_into::<Function>() else {
            return Err(JsOffloadError::from(RegisterError::InvalidDefinition(
                "handler must be a function".into(),
            ))
            .into());
        };
        self.state
            .borrow_mut()
            .tools
            .register(definition, handler)
            .map_err(|e| JsOffloadError::from(e).into())
    }

    /// `{ definition, handler }` of the tool called `name`, or `undefined`.
    #[wasm_bindgen(js_name = getTool, unchecked_return_type = "RegisteredTool | undefined")]
    pub fn get_tool(&self, name: &str) -> JsValue {
        let state = self.state.borrow();
        let Some((definition, handler)) = state.tools.get(name) else {
            return JsValue::UNDEFINED;
        };
        let tool = Object::new();
        set(&tool, "definition", &to_js(&definition.to_value()));
        set(&tool, "handler", handler);
        tool.into()
    }

    /// Every definition, in registration order: the API's `tools` parameter, for
    /// `options.format` (`"anthropic"`, the default, `"openai-chat"`, `"openai-responses"`
    /// or `"mcp"`). Throws `INVALID_ARGUMENT` for another format.
    #[wasm_bindgen(
        js_name = getToolDefinitions,
        unchecked_return_type = "ToolDefinitionFormats[ToolFormat][]"
    )]
    pub fn get_tool_definitions(
        &self,
        options: Option<DefinitionsOptions>,
    ) -> Result<Array, JsValue> {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        definitions_js(self.state.borrow().tools.definitions(), &options)
    }

    /// Run tool `name` with `params` for the `tool_use` `toolUseId`. Resolves to a
    /// `tool_result` on every path (unknown tool, handler error, thrown error); rejects
    /// only when offloading a large result fails (`WRITE_FAILED`).
    #[wasm_bindgen(js_name = executeTool, unchecked_return_type = "Promise<ToolResult>")]
    pub fn execute_tool(
        &self,
        #[wasm_bindgen(js_name = toolUseId, unchecked_param_type = "string")] tool_use_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] params: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        spawn(execute(state, tool_use_id, name, params))
    }

    /// Register tools through one of core's all-or-none registrations (the read-back
    /// tools, the knowledge tools, TodoWrite and TodoRead), with JS function handlers.
    pub(crate) fn register_with(
        &self,
        register: impl FnOnce(
            &mut tool_offload_core::tools::ToolRegistry<Function>,
        ) -> Result<(), RegisterError>,
    ) -> Result<(), RegisterError> {
        register(&mut self.state.borrow_mut().tools)
    }
}

/// A JS tool handler `(params) => Promise<{ content, is_error? }>` running `run`; the
/// closure lives as long as the JS function the registry holds.
pub(crate) fn tool_handler(
    run: impl Fn(JsValue) -> std::pin::Pin<Box<dyn std::future::Future<Output = ToolOutput>>> + 'static,
) -> Function {
    let closure = Closure::<dyn Fn(JsValue) -> Promise>::new(move |params: JsValue| {
        let output = run(params);
        crate::promise::spawn(async move {
            let output = output.await;
            let js = js_sys::Object::new();
            crate::error::set(&js, "content", &JsValue::from_str(&output.content));
            if output.is_error {
                crate::error::set(&js, "is_error", &JsValue::TRUE);
            }
            Ok(js.into())
        })
    });
    closure.into_js_value().unchecked_into()
}

async fn execute(
    state: Rc<RefCell<State>>,
    tool_use_id: JsValue,
    name: JsValue,
    params: JsValue,
) -> Result<JsValue, JsValue> {
    let tool_use_id = id_string(&tool_use_id, "toolUseId", "")?;
    let name = string_arg(&name, "name")?;
    // The borrow ends before the handler runs, so a handler may use the registry.
    let (handler, passthrough, policy) = {
        let state = state.borrow();
        (
            state.tools.get(&name).map(|(_, h)| h.clone()),
            state.tools.is_passthrough(&name),
            state.policy.clone(),
        )
    };
    let (result, original) = match handler {
        None => (ToolResult::not_found(&tool_use_id, &name), None),
        Some(handler) => {
            let (outcome, original) = call_handler(&handler, &params).await;
            (
                ToolResult::from_outcome(&tool_use_id, outcome),
                Some(original),
            )
        }
    };
    let per_call = policy.map_materializer(|object| JsMaterialize {
        object,
        original: original.as_ref(),
        rejection: RefCell::new(None),
    });
    let finished = match per_call.apply(result, &name, passthrough).await {
        Ok(finished) => finished,
        Err(error) => {
            return Err(match (&*policy, &per_call) {
                (ResultPolicy::Offload(_, writer), _) => {
                    JsOffloadError::with_cause(error, writer.take_failure()).into()
                }
                // What the materializer rejects with (an OffloadError) is passed on as it is.
                (_, ResultPolicy::Materialize(m)) if m.rejection.borrow().is_some() => {
                    m.rejection.take().unwrap_or_default()
                }
                _ => JsOffloadError::from(error).into(),
            });
        }
    };
    let js = tool_result_to_js(&finished.result);
    if let (false, Some(original)) = (finished.replaced, original) {
        // Inline: hand back the handler's own string, exactly as it was (a Rust String
        // would have replaced any lone surrogate). Offloaded, the file holds U+FFFD for
        // one, as Node's fs writes it. Bytes are never handed to the model.
        if original.is_string() {
            set(&js, "content", &original);
        }
    }
    Ok(js)
}

/// `options.materialize` for one call: its `materialize` method, given the handler's
/// own string (what gets written is then exactly what Node's fs writes for it).
struct JsMaterialize<'a> {
    object: &'a Object,
    /// The handler's own string, or its bytes (stored as a binary artifact).
    original: Option<&'a JsValue>,
    /// What `materialize` threw or rejected with, handed to the caller unchanged.
    rejection: RefCell<Option<JsValue>>,
}

impl ResultMaterializer for JsMaterialize<'_> {
    async fn materialize_output(
        &self,
        output: &ToolOutputRef<'_>,
    ) -> Result<Option<String>, OffloadError> {
        let input = Object::new();
        set(
            &input,
            "toolCallId",
            &JsValue::from_str(output.tool_call_id),
        );
        set(&input, "toolName", &JsValue::from_str(output.tool_name));
        let text = self
            .original
            .cloned()
            .unwrap_or_else(|| JsString::from(output.text).into());
        set(&input, "output", &text);
        let method = Reflect::get(self.object, &key("materialize"))
            .ok()
            .and_then(|m| m.dyn_into::<Function>().ok());
        let Some(method) = method else {
            return Err(OffloadError::InvalidArgument(
                "options.materialize has no materialize method".into(),
            ));
        };
        let outcome = match method.call1(self.object, &input) {
            Ok(promise) => crate::settle::settle(&promise, None).await,
            Err(thrown) => Err(thrown),
        };
        let outcome = outcome.map_err(|thrown| {
            let message = message_of(&thrown);
            self.rejection.replace(Some(thrown));
            OffloadError::InvalidArgument(message)
        })?;
        if Reflect::get(&outcome, &key("inline")).is_ok_and(|inline| inline.is_truthy()) {
            return Ok(None);
        }
        match Reflect::get(&outcome, &key("content")).map(|c| c.as_string()) {
            Ok(Some(summary)) => Ok(Some(summary)),
            _ => Err(OffloadError::InvalidArgument(
                "options.materialize: materialize must resolve to { inline, content: string }"
                    .into(),
            )),
        }
    }
}

/// Call a JS handler: its output, or a throw, a rejection or a malformed return as
/// `Err(message)` — each with the content as the original JS string, which a Rust
/// String cannot always hold (lone surrogates). Bytes returned (a `Uint8Array`, a
/// `Buffer`) are an output too: described for the model by size and kind, and handed on
/// as they are, so a materializer stores them as a binary artifact.
async fn call_handler(
    handler: &Function,
    params: &JsValue,
) -> (Result<ToolOutput, String>, JsValue) {
    let failed = |thrown: JsValue| {
        let message = message_js(&thrown);
        (Err(String::from(&message)), message.into())
    };
    let returned = match handler.call1(&JsValue::UNDEFINED, params) {
        Ok(returned) => returned,
        Err(thrown) => return failed(thrown),
    };
    let output = match crate::settle::settle(&returned, None).await {
        Ok(output) => output,
        Err(thrown) => return failed(thrown),
    };
    if let Some(bytes) = output.dyn_ref::<js_sys::Uint8Array>() {
        // Only the first bytes are copied: the kind is known by its magic number.
        let head = bytes.subarray(0, bytes.length().min(16)).to_vec();
        let described =
            tool_offload_core::materialize::binary_unstored(bytes.length() as usize, &head);
        return (Ok(ToolOutput::ok(described)), output);
    }
    let field = |name: &'static str| field(&output, name);
    match output
        .is_object()
        .then(|| field("content").dyn_into::<JsString>().ok())
        .flatten()
    {
        Some(content) => {
            let is_error = field("is_error").as_bool() == Some(true);
            (
                Ok(ToolOutput {
                    content: String::from(&content),
                    is_error,
                }),
                content.into(),
            )
        }
        None => {
            let message = "tool handler must return { content: string, is_error?: boolean }";
            (Err(message.into()), JsString::from(message).into())
        }
    }
}

/// `{ type: "tool_result", tool_use_id, content, is_error?: true }` as a JS object.
pub(crate) fn tool_result_to_js(result: &ToolResult) -> JsValue {
    to_js(&result.to_value())
}
