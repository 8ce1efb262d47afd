//! The `Workspace` class for JavaScript: core's knowledge store with a JS writer, reader,
//! logger, token counter and clock.

mod calls;
mod options;
mod tools;
mod types;

use std::rc::Rc;

use js_sys::{Array, Promise};
use tool_offload_core::workspace::default_end_line;
use tool_offload_core::OffloadError;
use wasm_bindgen::prelude::*;

use crate::abort::Abort;
use crate::args::{id_arg, optional_string, options_arg, page_arg};
use crate::convert::{strings, to_js};
use crate::error::JsOffloadError;
use crate::promise::{spawn, spawn_with};
use crate::read_write::ReadWrite;
use calls::{bundle_arg, infos_js, query_arg, records_js};
use options::{parse_options, Inner};

/// A knowledge store over one namespace of `<root>/context/<namespace>/`: one artifact
/// and metadata record per tool call (or per `add`), `<knowledge_list>` references for
/// results of `inlineLimit` (default 40000) UTF-16 units or more, queries over the
/// metadata, and the knowledge read tools.
#[wasm_bindgen]
pub struct Workspace {
    inner: Rc<Inner>,
}

/// One call's IO, with `inner`'s reader (reads fail with `INVALID_ARGUMENT` without one).
fn reading(inner: &Inner) -> Result<ReadWrite, JsOffloadError> {
    inner.host.reading(
        "this Workspace cannot read: give it a reader (options.reader) or a writer that reads",
    )
}

/// Run `read` on `args` (the call's arguments, read now) with this workspace's IO,
/// rejecting with the first error.
fn read_call<A, F, Fut>(inner: &Rc<Inner>, args: Result<A, JsOffloadError>, read: F) -> Promise
where
    F: FnOnce(Rc<Inner>, ReadWrite, A) -> Fut + 'static,
    Fut: std::future::Future<Output = Result<JsValue, OffloadError>> + 'static,
{
    let (args, io) = match args.and_then(|args| Ok((args, reading(inner)?))) {
        Ok(ready) => ready,
        Err(err) => return Promise::reject(&err.into()),
    };
    let error_io = inner.host.io(None);
    settle(Box::pin(read(inner.clone(), io, args)), error_io)
}

/// The promise of a read: one instance for every `read_call`, the read boxed.
fn settle(
    read: std::pin::Pin<Box<dyn std::future::Future<Output = Result<JsValue, OffloadError>>>>,
    error_io: ReadWrite,
) -> Promise {
    spawn(async move { read.await.map_err(|e| JsValue::from(error_io.error(e))) })
}

#[wasm_bindgen]
impl Workspace {
    /// A workspace over `options.namespace` (default `"default"`) under `options.root`.
    /// Throws `INVALID_ID` for a namespace that cannot name a directory,
    /// `INVALID_ARGUMENT` for any other unusable option.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "WorkspaceOptions")] options: JsValue,
    ) -> Result<Workspace, JsValue> {
        let inner = parse_options(&options).map_err(JsValue::from)?;
        Ok(Workspace {
            inner: Rc::new(inner),
        })
    }

    /// The namespace this workspace stores in and reads from.
    #[wasm_bindgen(getter)]
    pub fn namespace(&self) -> String {
        self.inner.core.options().namespace.clone()
    }

    /// The record files the last walk over every record (`queryArtifacts`,
    /// `getToolResultOffloadInfo`, an index catching up) left out because they hold no
    /// record (truncated, emptied, garbage), each with why; the rest answered.
    #[wasm_bindgen(js_name = skippedRecords, unchecked_return_type = "{ id: string; reason: string }[]")]
    pub fn skipped_records(&self) -> JsValue {
        let skipped = self.inner.core.skipped_records();
        let items = skipped
            .into_iter()
            .map(|(id, reason)| {
                let mut item = tool_offload_core::Map::new();
                item.insert("id".into(), id.into());
                item.insert("reason".into(), reason.into());
                tool_offload_core::Value::Object(item)
            })
            .collect();
        to_js(&tool_offload_core::Value::Array(items))
    }

    /// Store any knowledge: `content` a string (type `"text"`) or a JSON value (type
    /// `"json"`, its `JSON.stringify`); `metadata.context_type` says what it is. The
    /// same id with the same content again is reused. Rejects with `INVALID_ID`,
    /// `INVALID_ARGUMENT`, `ARTIFACT_EXISTS`, `READ_FAILED` or `WRITE_FAILED`.
    #[wasm_bindgen(unchecked_return_type = "Promise<StoredKnowledge>")]
    pub fn add(
        &self,
        #[wasm_bindgen(unchecked_param_type = "KnowledgeInput")] input: JsValue,
        options: Option<crate::types::OperationOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let inner = self.inner.clone();
        spawn(async move { Ok(calls::add(&inner, input, options).await?) })
    }

    /// The tool-result entry point: decide (`offloadTools`, `metadata.offload`, the token
    /// threshold), store as `tool_result_<toolCallId>` (`-1`, `-2`… when that id holds
    /// another output: never overwritten) with its metadata, and resolve to
    /// `{ offloaded, content, artifactId?, reason? }`: `content` is the `<knowledge_list>`
    /// from `inlineLimit` characters on, else the content given. A content that already
    /// stands for stored content (a `<knowledge_list>`, a summary, a placeholder, a page
    /// read back) is left alone.
    #[wasm_bindgen(js_name = offloadToolResult, unchecked_return_type = "Promise<ToolResultOffload>")]
    pub fn offload_tool_result(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolResultInput")] input: JsValue,
        options: Option<crate::types::OperationOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let inner = self.inner.clone();
        spawn(async move { Ok(calls::offload_tool_result(&inner, input, options).await?) })
    }

    /// `offloadToolResult` over a conversation (Anthropic, OpenAI Chat, Responses and the
    /// other shapes `materializeMessages` knows): `{ messages, artifactIds, unrecognized? }`,
    /// unchanged messages the same objects; idempotent.
    #[wasm_bindgen(js_name = offloadMessages, unchecked_return_type = "Promise<OffloadedMessages>")]
    pub fn offload_messages(
        &self,
        #[wasm_bindgen(unchecked_param_type = "readonly object[]")] messages: JsValue,
        options: Option<crate::types::OperationOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let inner = self.inner.clone();
        spawn(async move { Ok(calls::offload_messages(&inner, messages, options).await?) })
    }

    /// Records whose metadata equals every field of `filter`, newest first, `limit`
    /// (default 50, at most 1000) from `offset`: `[{ id, type, metadata }]`, never content.
    #[wasm_bindgen(js_name = queryArtifacts, unchecked_return_type = "Promise<KnowledgeRecord[]>")]
    pub fn query_artifacts(
        &self,
        filter: Option<types::Filter>,
        options: Option<types::QueryOptions>,
    ) -> Promise {
        let filter = filter.map_or(JsValue::UNDEFINED, JsValue::from);
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let query = query_arg(&filter, &options);
        read_call(&self.inner, query, |inner, io, query| async move {
            Ok(records_js(&inner.core.query(&query, &io).await?))
        })
    }

    /// The stored tool results, newest first, of `taskId` / `sessionId` when given:
    /// `[{ artifact_id, biz_id, tool_name, action_name?, chars, bytes, lines, created_at }]`.
    /// `namespace`, when given, must be this workspace's (`REF_OUT_OF_SCOPE` otherwise).
    #[wasm_bindgen(js_name = getToolResultOffloadInfo, unchecked_return_type = "Promise<ToolResultOffloadInfo[]>")]
    pub fn get_tool_result_offload_info(
        &self,
        options: Option<types::OffloadInfoOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let parsed = (|| {
            options_arg(&options)?;
            let get = |key: &'static str| optional_string(&options, key, &format!("options.{key}"));
            if let Some(namespace) = get("namespace")? {
                if namespace != self.inner.core.options().namespace {
                    return Err(
                        OffloadError::RefOutOfScope(format!("namespace {namespace:?}")).into(),
                    );
                }
            }
            Ok::<_, JsOffloadError>((get("taskId")?, get("sessionId")?))
        })();
        read_call(
            &self.inner,
            parsed,
            |inner, io, (task, session)| async move {
                let infos = inner
                    .core
                    .tool_result_offload_info(task.as_deref(), session.as_deref(), &io)
                    .await?;
                Ok(infos_js(&infos))
            },
        )
    }

    /// A knowledge artifact whole: `{ id, type, metadata, content }`. Rejects with
    /// `INVALID_ID`, `REF_NOT_FOUND` (not in this namespace) or `READ_FAILED`.
    #[wasm_bindgen(js_name = getById, unchecked_return_type = "Promise<Knowledge>")]
    pub fn get_by_id(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Promise {
        read_call(&self.inner, id_arg(&id, "id"), |inner, io, id| async move {
            let knowledge = inner.core.get_by_id(&id, &io).await?;
            let out = to_js(&knowledge.record.to_value());
            crate::error::set(&out, "content", &JsValue::from_str(&knowledge.content));
            Ok(out)
        })
    }

    /// Lines `startLine..=endLine` (1-based; `endLine` defaults to `startLine + 199`) of
    /// a knowledge artifact, numbered, one page under `inlineLimit`.
    #[wasm_bindgen(js_name = getByLines, unchecked_return_type = "Promise<string>")]
    pub fn get_by_lines(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(js_name = startLine, unchecked_param_type = "number")] start: JsValue,
        #[wasm_bindgen(js_name = endLine, unchecked_param_type = "number | undefined")]
        end: JsValue,
    ) -> Promise {
        let parsed = (|| {
            let id = id_arg(&id, "id")?;
            let start = page_arg(&start, "startLine", 0)?;
            let end = page_arg(&end, "endLine", default_end_line(start))?;
            Ok::<_, JsOffloadError>((id, start, end))
        })();
        read_call(
            &self.inner,
            parsed,
            |inner, io, (id, start, end)| async move {
                Ok(inner.core.get_by_lines(&id, start, end, &io).await?.into())
            },
        )
    }

    /// Rows of a knowledge artifact matching `pattern`, with `context` (default 2) rows
    /// around each, at most `maxMatches` (default 50).
    #[wasm_bindgen(unchecked_return_type = "Promise<string>")]
    pub fn grep(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] pattern: JsValue,
        options: Option<crate::types::GrepOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let parsed = id_arg(&id, "id").and_then(|id| {
            let (pattern, context, max) = crate::args::grep_args(&pattern, &options)?;
            Ok((id, pattern, context, max))
        });
        read_call(
            &self.inner,
            parsed,
            |inner, io, (id, pattern, context, max)| async move {
                Ok(inner
                    .core
                    .grep(&id, &pattern, context, max, &io)
                    .await?
                    .into())
            },
        )
    }

    /// Rows matching `pattern` in every knowledge artifact of the namespace, newest
    /// first, each artifact's under its own header, as much as fits in one page
    /// (`grep_knowledge` without an id). Options as `grep`.
    #[wasm_bindgen(js_name = grepAll, unchecked_return_type = "Promise<string>")]
    pub fn grep_all(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] pattern: JsValue,
        options: Option<crate::types::GrepOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let parsed = crate::args::grep_args(&pattern, &options);
        read_call(
            &self.inner,
            parsed,
            |inner, io, (pattern, context, max)| async move {
                Ok(inner
                    .core
                    .grep_all(&pattern, context, max, &io)
                    .await?
                    .into())
            },
        )
    }

    /// Register `get_knowledge_by_id`, `get_knowledge_by_lines`, `grep_knowledge`,
    /// `query_artifacts` and `get_tool_result_offload_info` on `registry` (all or none;
    /// `DUPLICATE_TOOL` when a name is taken). Their results are never offloaded.
    #[wasm_bindgen(js_name = registerTools)]
    pub fn register_tools(&self, registry: &crate::registry::ToolRegistry) -> Result<(), JsValue> {
        tools::register(&self.inner, registry).map_err(|e| JsOffloadError::from(e).into())
    }

    /// The knowledge tools' definitions, as the `tools` array of `options.format`.
    #[wasm_bindgen(js_name = getToolDefinitions, unchecked_return_type = "ToolDefinitionFormats[ToolFormat][]")]
    pub fn get_tool_definitions(
        &self,
        options: Option<crate::types::DefinitionsOptions>,
    ) -> Result<Array, JsValue> {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let definitions = tool_offload_core::workspace::knowledge_tool_definitions();
        crate::registry::definitions_js(&definitions, &options)
    }

    /// Every knowledge artifact of the namespace with its record and SHA-256, as one
    /// plain JSON bundle (`format: "tool-offload/workspace"`).
    #[wasm_bindgen(js_name = exportNamespace, unchecked_return_type = "Promise<WorkspaceBundle>")]
    pub fn export_namespace(&self) -> Promise {
        read_call(&self.inner, Ok(()), |inner, io, ()| async move {
            Ok(to_js(&inner.core.export_namespace(&io).await?))
        })
    }

    /// Restore a bundle from `exportNamespace` into this namespace, everything checked
    /// first; resolves to the ids. Rejects with `INVALID_BUNDLE`, `ARTIFACT_EXISTS`,
    /// `READ_FAILED` or `WRITE_FAILED`.
    #[wasm_bindgen(js_name = importNamespace, unchecked_return_type = "Promise<string[]>")]
    pub fn import_namespace(
        &self,
        #[wasm_bindgen(unchecked_param_type = "WorkspaceBundle")] bundle: JsValue,
        options: Option<crate::types::OperationOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let parsed = bundle_arg(&bundle).and_then(|b| Ok((b, Abort::of_call(&options)?)));
        let inner = self.inner.clone();
        spawn_with(parsed, |(bundle, abort)| async move {
            let io = inner.host.io(abort.as_ref());
            let ids = inner
                .core
                .import_namespace(&bundle, &io)
                .await
                .map_err(|e| crate::abort::unless_aborted(abort.as_ref(), io.error(e)))?;
            Ok(strings(&ids).into())
        })
    }
}
