//! The `Materializer` class JavaScript sees: its construction, materialize, and the IO each call takes.

use super::options::{parse_options, ref_arg, Inner};
use super::output::{materialize, MaterializeInput};
use super::read_back::{read_back, ReadBack};
use crate::args::grep_args;
use crate::args::{id_arg, kind_of, page_arg};
use crate::error::JsOffloadError;
use crate::promise::{spawn, spawn_with};
use crate::read_write::{Original, ReadWrite};
use crate::types::{Count, GrepOptions, MaterializeMessagesOptions, OperationOptions, ReadOptions};
use js_sys::{Array, Promise};
use std::rc::Rc;
use tool_offload_core::materialize::DEFAULT_LINES;
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

/// Moves tool outputs over the inline limits (`maxInlineChars` UTF-16 units, default
/// 4000; `maxInlineBytes` UTF-8 bytes, default 16384) into artifacts under
/// `<userData>/context/<conversationId>/artifacts/`, and reads them back for the model.
#[wasm_bindgen]
pub struct Materializer {
    pub(super) inner: Rc<Inner>,
}

#[wasm_bindgen]
impl Materializer {
    /// A materializer for one conversation. Throws `INVALID_ID` for a conversation id
    /// that cannot name a directory, `INVALID_ARGUMENT` for any other unusable option.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "MaterializerOptions")] options: JsValue,
    ) -> Result<Materializer, JsValue> {
        let inner = parse_options(&options).map_err(JsValue::from)?;
        Ok(Materializer {
            inner: Rc::new(inner),
        })
    }

    /// The conversation whose artifacts this materializer writes and may read.
    #[wasm_bindgen(getter, js_name = conversationId)]
    pub fn conversation_id(&self) -> String {
        self.inner.core.options().conversation_id.clone()
    }

    /// The options in force, defaults filled in (without the writer, reader and logger).
    #[wasm_bindgen(getter, unchecked_return_type = "ResolvedMaterializerOptions")]
    pub fn options(&self) -> JsValue {
        crate::convert::to_js(&tool_offload_core::options::materializer_options_shown(
            self.inner.core.options(),
        ))
    }

    /// Leave `output` inline (`{ inline: true, content: output }`, the very value given)
    /// when within both limits; otherwise write it first, to
    /// `…/artifacts/tool/<toolCallId>.json|.txt`, and resolve to
    /// `{ inline: false, content: summary, ref, path }`. Rejects with `INVALID_ID`,
    /// `INVALID_ARGUMENT` or `WRITE_FAILED`. A lone surrogate in `output` is written as
    /// U+FFFD.
    #[wasm_bindgen(unchecked_return_type = "Promise<MaterializeResult>")]
    pub fn materialize(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolOutputInput")] input: JsValue,
    ) -> Promise {
        let inner = self.inner.clone();
        spawn_with(MaterializeInput::parse(&input), |output| async move {
            materialize(&inner, output).await.map_err(JsValue::from)
        })
    }

    /// Lines `offset..offset + limit` (0-based; defaults 0 and 200) of the artifact
    /// `ref` (or, with `path`, of what that JSON path selects in it, pretty-printed),
    /// starting at part `part` (default 1) of a line split into parts, or at its
    /// character `char` (0-based, a grep window's `57.3@4010`; wins over `part`),
    /// numbered, with a header; never longer than `maxInlineChars`. Rejects with
    /// `REF_OUT_OF_SCOPE`, `REF_NOT_FOUND`, `READ_FAILED` or `INVALID_ARGUMENT`.
    #[wasm_bindgen(unchecked_return_type = "Promise<string>")]
    pub fn read(
        &self,
        #[wasm_bindgen(js_name = ref, unchecked_param_type = "string")] reference: JsValue,
        options: Option<ReadOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        self.reading((|| Ok((ref_arg(&reference)?, ReadBack::read(&options)?)))())
    }

    /// Rows matching `pattern` in every artifact of this conversation, newest first,
    /// each artifact's under its own header (its ref), as much as fits in one page:
    /// `context_grep` without a ref. Options and rejections as `grep`.
    #[wasm_bindgen(js_name = grepAll, unchecked_return_type = "Promise<string>")]
    pub fn grep_all(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] pattern: JsValue,
        options: Option<GrepOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        self.reading(
            grep_args(&pattern, &options).map(|(pattern, context, max_matches)| {
                let op = ReadBack::GrepAll {
                    pattern,
                    context,
                    max_matches,
                };
                (String::new(), op)
            }),
        )
    }

    /// The last `lines` (default 200) rows of the artifact `ref`, as much of their end
    /// as fits in `maxInlineChars`. Rejects as `read`.
    #[wasm_bindgen(unchecked_return_type = "Promise<string>")]
    pub fn tail(
        &self,
        #[wasm_bindgen(js_name = ref, unchecked_param_type = "string")] reference: JsValue,
        lines: Option<Count>,
    ) -> Promise {
        let lines = lines.map_or(JsValue::UNDEFINED, JsValue::from);
        self.reading(ref_arg(&reference).and_then(|reference| {
            let lines = page_arg(&lines, "lines", DEFAULT_LINES)?;
            Ok((reference, ReadBack::Tail { lines }))
        }))
    }

    /// Rows of the artifact `ref` matching the regular expression `pattern` (core's
    /// linear-time engine: the syntax is in the README), each with `context` (default 2)
    /// rows around it, at most `maxMatches` (default 50) matches. Rejects with
    /// `INVALID_PATTERN` (with the reason) for a pattern over 1000 characters, invalid or
    /// unsupported, and as `read`.
    #[wasm_bindgen(unchecked_return_type = "Promise<string>")]
    pub fn grep(
        &self,
        #[wasm_bindgen(js_name = ref, unchecked_param_type = "string")] reference: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] pattern: JsValue,
        options: Option<GrepOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        self.reading((|| {
            let reference = ref_arg(&reference)?;
            let (pattern, context, max_matches) = grep_args(&pattern, &options)?;
            let op = ReadBack::Grep {
                pattern,
                context,
                max_matches,
            };
            Ok((reference, op))
        })())
    }

    /// Terminal output: over the limits, `text` is written to
    /// `…/artifacts/terminal/<snippetId>.log` and the result carries its summary and ref
    /// (`ctx://<conversationId>/terminal/<snippetId>.log`), as `materialize` does.
    #[wasm_bindgen(js_name = materializeTerminal, unchecked_return_type = "Promise<MaterializeResult<string>>")]
    pub fn materialize_terminal(
        &self,
        #[wasm_bindgen(js_name = snippetId, unchecked_param_type = "string")] snippet_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Promise {
        let parsed = terminal_args(&snippet_id, &text);
        let inner = self.inner.clone();
        spawn(async move {
            let (snippet_id, content) = parsed?;
            let io = inner
                .host
                .io(None)
                .writing(Original::of(text.clone().unchecked_into(), &content));
            let outcome = inner
                .core
                .materialize_terminal(&snippet_id, &content, &io)
                .await
                .map_err(|e| io.error(e))?;
            Ok(super::output::outcome_js(&inner, outcome, &text))
        })
    }

    /// Native function-calling mode: every tool result over the limits (Anthropic
    /// `tool_result`, OpenAI `role: "tool"`, Responses `function_call_output`) gets its
    /// summary as content. Content that already is a summary is left alone, so this can
    /// run on every turn. Resolves to `{ messages, refs, paths }`: unchanged messages are
    /// the same objects, changed ones deep copies. `options.signal` (an `AbortSignal`)
    /// cancels it; `options.remindUnread` adds the unread reminder at the end of the last
    /// user turn. Rejects with `INVALID_MESSAGE`, `INVALID_ID` (before anything is
    /// written), `WRITE_FAILED`, `INVALID_ARGUMENT` or `ABORTED`.
    #[wasm_bindgen(js_name = materializeMessages, unchecked_return_type = "Promise<MaterializedMessages<object>>")]
    pub fn materialize_messages(
        &self,
        #[wasm_bindgen(unchecked_param_type = "readonly object[]")] messages: JsValue,
        options: Option<MaterializeMessagesOptions>,
    ) -> Promise {
        let inner = self.inner.clone();
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        spawn(async move {
            Ok(super::conversation::materialize_messages(&inner, messages, options).await?)
        })
    }

    /// One self-contained bundle of `messages` and every artifact of this conversation
    /// they refer to, each with its SHA-256; restore it with `importConversation`.
    /// `options.signal` (an `AbortSignal`) cancels it. Rejects with `REF_NOT_FOUND` when a
    /// referred artifact is missing, `READ_FAILED`, `ABORTED`.
    #[wasm_bindgen(js_name = exportConversation, unchecked_return_type = "Promise<ConversationBundle>")]
    pub fn export_conversation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "readonly object[]")] messages: JsValue,
        options: Option<OperationOptions>,
    ) -> Promise {
        let inner = self.inner.clone();
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        spawn_with(self.reader(), |reader| async move {
            Ok(super::conversation::export_conversation(&inner, reader, messages, options).await?)
        })
    }

    /// An MCP `CallToolResult` of `options.toolName` with its text (and an oversized
    /// `structuredContent`, as `<callId>-structured`) materialized where over the limits:
    /// the summary plus a `resource_link` to the artifact; `isError`, `_meta` and non-text
    /// content kept. Resolves to a new object, or to `result` itself when nothing was over.
    #[wasm_bindgen(js_name = materializeCallToolResult, unchecked_return_type = "Promise<object>")]
    pub fn materialize_call_tool_result(
        &self,
        #[wasm_bindgen(unchecked_param_type = "object")] result: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "{ toolName: string; callId: string; serverName?: string }"
        )]
        options: JsValue,
    ) -> Promise {
        super::mcp::materialize_call_tool_result(self.inner.clone(), result, options)
    }

    /// Register `context_read`, `context_tail` and `context_grep` on `registry`, reading
    /// this materializer's artifacts. Their results are never offloaded or materialized;
    /// a bad argument or ref comes back as an `is_error` result the model can act on.
    /// Throws `DUPLICATE_TOOL` when a name is taken (then none is registered).
    #[wasm_bindgen(js_name = registerTools)]
    pub fn register_tools(&self, registry: &crate::registry::ToolRegistry) -> Result<(), JsValue> {
        super::tools::register(&self.inner, registry).map_err(|e| JsOffloadError::from(e).into())
    }

    /// The definitions of `context_read`, `context_tail` and `context_grep`, as the
    /// `tools` array of `options.format` (as the registry's `getToolDefinitions`).
    #[wasm_bindgen(
        js_name = getToolDefinitions,
        unchecked_return_type = "ToolDefinitionFormats[ToolFormat][]"
    )]
    pub fn get_tool_definitions(
        &self,
        options: Option<crate::types::DefinitionsOptions>,
    ) -> Result<Array, JsValue> {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let definitions = tool_offload_core::materialize::read_tool_definitions();
        crate::registry::definitions_js(&definitions, &options)
    }

    /// Remove artifacts nobody needs, under this materializer's user data (every
    /// conversation's): those last written more than `options.olderThanMs` ago, then the
    /// least recently written until ours take at most `options.maxBytes`; never one the
    /// messages of `options.keep` refer to, never a file that is not ours. Resolves to
    /// `{ removed, bytes, kept, keptBytes }`; `options.dryRun` removes nothing. Needs a
    /// writer with `stat(path)` and `remove(path)` (`NodeFileWriter` has them). Rejects
    /// with `INVALID_ARGUMENT`, `READ_FAILED` or `WRITE_FAILED`.
    #[wasm_bindgen(unchecked_return_type = "Promise<GcReport>")]
    pub fn gc(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GcOptions")] options: JsValue,
    ) -> Promise {
        let inner = self.inner.clone();
        spawn_with(crate::gc::parse(&options), |options| async move {
            let io = inner.host.io(None);
            crate::gc::run(&inner.core.options().user_data, &options, &io).await
        })
    }

    /// Counts over this materializer's lifetime: `{ hits, inlined, savedChars,
    /// avgSavedChars }`.
    #[wasm_bindgen(unchecked_return_type = "MaterializeStats")]
    pub fn stats(&self) -> JsValue {
        crate::convert::to_js(&self.inner.core.stats().to_value())
    }
}

impl Materializer {
    /// Run the read-back `op` on the artifact `reference` (the arguments, read now) with
    /// this call's own reader, as a Promise of its page.
    fn reading(&self, args: Result<(String, ReadBack), JsOffloadError>) -> Promise {
        let inner = self.inner.clone();
        let args = args.and_then(|args| Ok((args, self.reader()?)));
        spawn_with(args, |((reference, op), reader)| async move {
            read_back(&inner, &reader, &reference, op)
                .await
                .map(JsValue::from)
                .map_err(|e| reader.error(e).into())
        })
    }

    /// This call's own reader, or `INVALID_ARGUMENT` when the materializer cannot read.
    /// A [`ReadWrite`], as the writing calls and the `Workspace` read through: core's
    /// read-back is then compiled for one reader type, not two.
    fn reader(&self) -> Result<ReadWrite, JsOffloadError> {
        self.inner.host.reading(
            "this Materializer cannot read: pass options.reader, an object with readFile(path) and listDir(dir)",
        )
    }
}

/// `materializeTerminal`'s arguments: a snippet id and the text.
fn terminal_args(snippet_id: &JsValue, text: &JsValue) -> Result<(String, String), JsOffloadError> {
    let snippet_id = id_arg(snippet_id, "snippetId")?;
    match text.dyn_ref::<js_sys::JsString>() {
        // Lone surrogates become U+FFFD (the engine's TextEncoder), as Node's fs writes them.
        Some(s) => Ok((snippet_id, crate::convert::js_text(s))),
        None => Err(OffloadError::InvalidArgument(format!(
            "text must be a string, got {}",
            kind_of(text)
        ))
        .into()),
    }
}
