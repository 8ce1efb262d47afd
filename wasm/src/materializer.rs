//! The `Materializer` class for JavaScript: core's materializer with a JS writer, reader
//! and logger, and JavaScript `RegExp`s for grep.

use std::rc::Rc;

use js_sys::{Array, Function, JsString, Object, Promise, Reflect};
use tool_offload_core::materialize::{
    ContextRef, Materialized, Materializer as CoreMaterializer, MaterializerOptions as CoreOptions,
    ToolOutputRef,
};
use tool_offload_core::{utf16_len, OffloadError};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::convert::{kind_of, string_arg, working_dir};
use crate::error::{message_of, set, JsOffloadError};
use crate::reader::JsFileReader;
use crate::types::{Count, GrepOptions, ReadOptions};
use crate::view::is_well_formed;
use crate::writer::JsFileWriter;

/// Everything a `Materializer` holds: shared (never borrowed mutably) by every pending
/// call, so calls may run concurrently.
pub(crate) struct Inner {
    pub(crate) core: CoreMaterializer,
    pub(crate) writer: JsFileWriter,
    /// `options.reader`, else the writer when it can read; `None` when neither can.
    pub(crate) reader: Option<JsFileReader>,
    pub(crate) logger: Option<Function>,
}

/// Moves tool outputs over the inline limits (`maxInlineChars` UTF-16 units, default
/// 4000; `maxInlineBytes` UTF-8 bytes, default 16384) into artifacts under
/// `<userData>/context/<conversationId>/artifacts/`, and reads them back for the model.
#[wasm_bindgen]
pub struct Materializer {
    inner: Rc<Inner>,
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
        let options = self.inner.core.options();
        let js = Object::new();
        set(&js, "userData", &JsValue::from_str(&options.user_data));
        set(
            &js,
            "conversationId",
            &JsValue::from_str(&options.conversation_id),
        );
        set(&js, "cwd", &JsValue::from_str(&options.cwd));
        set(&js, "maxInlineChars", &number(options.max_inline_chars));
        set(&js, "maxInlineBytes", &number(options.max_inline_bytes));
        set(&js, "snippetLines", &number(options.snippet_lines));
        js.into()
    }

    /// Leave `output` inline (`{ inline: true, content: output }`, the very value given)
    /// when within both limits; otherwise write it first, to
    /// `…/artifacts/tool/<toolCallId>.json|.txt`, and resolve to
    /// `{ inline: false, content: summary, ref, path }`. Rejects with `INVALID_ID`,
    /// `INVALID_ARGUMENT`, `INVALID_MESSAGE` (a lone surrogate) or `WRITE_FAILED`.
    #[wasm_bindgen(unchecked_return_type = "Promise<MaterializeResult>")]
    pub fn materialize(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolOutputInput")] input: JsValue,
    ) -> Promise {
        // Arguments are read now, so the caller may change them once this returns.
        let output = match ToolOutput::parse(&input) {
            Ok(output) => output,
            Err(err) => return Promise::reject(&err.into()),
        };
        let inner = self.inner.clone();
        future_to_promise(async move { materialize(&inner, output).await.map_err(JsValue::from) })
    }

    /// Rows `offset..offset + limit` (defaults 0 and 200) of the artifact `ref`,
    /// numbered, with a header; never longer than `maxInlineChars`. Rejects with
    /// `REF_OUT_OF_SCOPE`, `REF_NOT_FOUND`, `READ_FAILED` or `INVALID_ARGUMENT`.
    #[wasm_bindgen(unchecked_return_type = "Promise<string>")]
    pub fn read(
        &self,
        #[wasm_bindgen(js_name = ref, unchecked_param_type = "string")] reference: JsValue,
        options: Option<ReadOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let parsed = (|| {
            let reference = ref_arg(&reference)?;
            options_arg(&options)?;
            let offset = count_arg(&field(&options, "offset"), "options.offset", 0)?;
            let limit = count_arg(&field(&options, "limit"), "options.limit", 200)?;
            Ok::<_, JsOffloadError>((reference, ReadBack::Read { offset, limit }))
        })();
        match parsed {
            Ok((reference, op)) => self.reading(reference, op),
            Err(err) => Promise::reject(&err.into()),
        }
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
        let parsed = ref_arg(&reference).and_then(|reference| {
            let lines = count_arg(&lines, "lines", 200)?;
            Ok((reference, ReadBack::Tail { lines }))
        });
        match parsed {
            Ok((reference, op)) => self.reading(reference, op),
            Err(err) => Promise::reject(&err.into()),
        }
    }

    /// Rows of the artifact `ref` matching the JavaScript regular expression `pattern`,
    /// each with `context` (default 2) rows around it, at most `maxMatches` (default 50)
    /// matches. Rejects with `INVALID_PATTERN` (the `SyntaxError` as `cause`), and as
    /// `read`.
    #[wasm_bindgen(unchecked_return_type = "Promise<string>")]
    pub fn grep(
        &self,
        #[wasm_bindgen(js_name = ref, unchecked_param_type = "string")] reference: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] pattern: JsValue,
        options: Option<GrepOptions>,
    ) -> Promise {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let parsed = (|| {
            let reference = ref_arg(&reference)?;
            options_arg(&options)?;
            let context = count_arg(&field(&options, "context"), "options.context", 2)?;
            let max_matches = count_arg(&field(&options, "maxMatches"), "options.maxMatches", 50)?;
            let ignore_case = field(&options, "ignoreCase");
            if !ignore_case.is_undefined() && ignore_case.as_bool().is_none() {
                return Err(OffloadError::InvalidArgument(format!(
                    "options.ignoreCase must be a boolean, got {}",
                    message_of(&ignore_case)
                ))
                .into());
            }
            let regexp = compile(&pattern, ignore_case.as_bool() == Some(true))?;
            let op = ReadBack::Grep {
                regexp,
                context,
                max_matches,
            };
            Ok::<_, JsOffloadError>((reference, op))
        })();
        match parsed {
            Ok((reference, op)) => self.reading(reference, op),
            Err(err) => Promise::reject(&err.into()),
        }
    }

    /// Counts over this materializer's lifetime: `{ hits, inlined, savedChars,
    /// avgSavedChars }`.
    #[wasm_bindgen(unchecked_return_type = "MaterializeStats")]
    pub fn stats(&self) -> JsValue {
        let stats = self.inner.core.stats();
        let js = Object::new();
        set(&js, "hits", &JsValue::from_f64(stats.hits as f64));
        set(&js, "inlined", &JsValue::from_f64(stats.inlined as f64));
        set(
            &js,
            "savedChars",
            &JsValue::from_f64(stats.saved_chars as f64),
        );
        set(
            &js,
            "avgSavedChars",
            &JsValue::from_f64(stats.avg_saved_chars()),
        );
        js.into()
    }
}

impl Materializer {
    /// Run `op` on the artifact `reference` with this call's own reader, as a Promise of
    /// its page.
    fn reading(&self, reference: String, op: ReadBack) -> Promise {
        let inner = self.inner.clone();
        let Some(reader) = inner.reader.as_ref().map(JsFileReader::fresh) else {
            return Promise::reject(
                &JsOffloadError::from(OffloadError::InvalidArgument(
                    "this Materializer cannot read: pass options.reader, an object with readFile(path) and listDir(dir)".into(),
                ))
                .into(),
            );
        };
        future_to_promise(async move {
            read_back(&inner, &reader, &reference, op)
                .await
                .map(JsValue::from)
                .map_err(|e| JsOffloadError::with_cause(e, reader.take_failure()).into())
        })
    }
}

/// A read-back, its arguments validated.
enum ReadBack {
    Read {
        offset: usize,
        limit: usize,
    },
    Tail {
        lines: usize,
    },
    Grep {
        regexp: js_sys::RegExp,
        context: usize,
        max_matches: usize,
    },
}

async fn read_back(
    inner: &Inner,
    reader: &JsFileReader,
    reference: &str,
    op: ReadBack,
) -> Result<String, OffloadError> {
    let core = &inner.core;
    match op {
        ReadBack::Read { offset, limit } => core.read(reference, offset, limit, reader).await,
        ReadBack::Tail { lines } => core.tail(reference, lines, reader).await,
        ReadBack::Grep {
            regexp,
            context,
            max_matches,
        } => {
            // No `g` or `y` flag: `test` ignores `lastIndex`, so rows are independent.
            let matches = |row: &str| regexp.test(row);
            core.grep(reference, matches, context, max_matches, reader)
                .await
        }
    }
}

/// One `materialize` input, read from JS.
struct ToolOutput {
    tool_call_id: String,
    tool_name: String,
    server_name: Option<String>,
    /// The output as given: returned as is when inline.
    original: JsValue,
    /// A string output as is, anything else as its `JSON.stringify`.
    text: String,
    was_value: bool,
}

impl ToolOutput {
    fn parse(input: &JsValue) -> Result<ToolOutput, JsOffloadError> {
        if !input.is_object() {
            return Err(OffloadError::InvalidArgument(format!(
                "materialize expects {{ toolCallId, toolName, serverName?, output }}, got {}",
                kind_of(input)
            ))
            .into());
        }
        let tool_call_id = string_arg(&field(input, "toolCallId"), |kind| {
            OffloadError::InvalidId {
                field: "toolCallId".into(),
                value: None,
                reason: if kind == "undefined" {
                    "is missing"
                } else {
                    "must be a string"
                },
            }
        })?;
        let tool_name = string_arg(&field(input, "toolName"), |kind| {
            OffloadError::InvalidArgument(format!("toolName must be a string, got {kind}"))
        })?;
        let server_name = field(input, "serverName");
        let server_name = if server_name.is_undefined() || server_name.is_null() {
            None
        } else {
            Some(string_arg(&server_name, |kind| {
                OffloadError::InvalidArgument(format!(
                    "serverName must be a string when given, got {kind}"
                ))
            })?)
        };
        let original = field(input, "output");
        let (text, was_value) = match original.dyn_ref::<JsString>() {
            Some(s) if !is_well_formed(s) => return Err(OffloadError::InvalidMessage(
                "tool output contains a lone UTF-16 surrogate, which cannot be written as UTF-8"
                    .into(),
            )
            .into()),
            Some(s) => (String::from(s), false),
            None => (stringify(&original)?, true),
        };
        Ok(ToolOutput {
            tool_call_id,
            tool_name,
            server_name,
            original,
            text,
            was_value,
        })
    }
}

/// `JSON.stringify(value)` by the engine, or `INVALID_ARGUMENT` when it throws or
/// gives nothing (`undefined`, a function, a symbol).
fn stringify(value: &JsValue) -> Result<String, JsOffloadError> {
    match js_sys::JSON::stringify(value).map(JsValue::from) {
        Ok(text) => text.as_string().ok_or_else(|| {
            OffloadError::InvalidArgument(format!(
                "output must be a string or a JSON value, got {}",
                kind_of(value)
            ))
            .into()
        }),
        Err(thrown) => Err(JsOffloadError::with_cause(
            OffloadError::InvalidArgument(format!(
                "output cannot be serialised as JSON: {}",
                message_of(&thrown)
            )),
            Some(thrown),
        )),
    }
}

async fn materialize(inner: &Inner, output: ToolOutput) -> Result<JsValue, JsOffloadError> {
    let writer = inner.writer.fresh();
    let outcome = inner
        .core
        .materialize(
            &ToolOutputRef {
                tool_call_id: &output.tool_call_id,
                tool_name: &output.tool_name,
                server_name: output.server_name.as_deref(),
                text: &output.text,
                was_value: output.was_value,
            },
            &writer,
        )
        .await
        .map_err(|e| JsOffloadError::with_cause(e, writer.take_failure()))?;
    let result = Object::new();
    match outcome {
        Materialized::Inline => {
            set(&result, "inline", &JsValue::TRUE);
            set(&result, "content", &output.original);
        }
        Materialized::Artifact {
            summary,
            reference,
            path,
        } => {
            if let Some(logger) = &inner.logger {
                log(logger, &reference, &path, utf16_len(&summary));
            }
            set(&result, "inline", &JsValue::FALSE);
            set(&result, "content", &JsValue::from_str(&summary));
            set(&result, "ref", &context_ref(&reference));
            set(&result, "path", &JsValue::from_str(&path));
        }
    }
    Ok(result.into())
}

/// `{ kind: "artifact", id, hint: { toolName, serverName?, toolCallId, bytes, chars,
/// lines, isJson } }`.
pub(crate) fn context_ref(reference: &ContextRef) -> JsValue {
    let js = Object::new();
    set(&js, "kind", &JsValue::from_str("artifact"));
    set(&js, "id", &JsValue::from_str(&reference.id));
    let hint = Object::new();
    hint_fields(&hint, reference);
    set(&js, "hint", &hint);
    js.into()
}

fn hint_fields(target: &Object, reference: &ContextRef) {
    let hint = &reference.hint;
    set(target, "toolName", &JsValue::from_str(&hint.tool_name));
    if let Some(server) = &hint.server_name {
        set(target, "serverName", &JsValue::from_str(server));
    }
    set(target, "toolCallId", &JsValue::from_str(&hint.tool_call_id));
    set(target, "bytes", &number(hint.bytes));
    set(target, "chars", &number(hint.chars));
    set(target, "lines", &number(hint.lines));
    set(target, "isJson", &JsValue::from_bool(hint.is_json));
}

/// Call the logger with one materialization; whatever it throws (or rejects with) is
/// ignored: logging never breaks materializing.
fn log(logger: &Function, reference: &ContextRef, path: &str, summary_chars: usize) {
    let entry = Object::new();
    // `toolCallId` first, as the entry is read in logs.
    set(
        &entry,
        "toolCallId",
        &JsValue::from_str(&reference.hint.tool_call_id),
    );
    hint_fields(&entry, reference);
    set(&entry, "path", &JsValue::from_str(path));
    set(&entry, "ref", &JsValue::from_str(&reference.id));
    set(&entry, "summaryChars", &number(summary_chars));
    if let Ok(returned) = logger.call1(&JsValue::UNDEFINED, &entry) {
        if let Some(promise) = returned.dyn_ref::<Promise>() {
            IGNORE.with(|ignore| {
                let _ = promise.catch(ignore);
            });
        }
    }
}

thread_local! {
    /// A handler that does nothing, for a logger's rejected promise.
    static IGNORE: Closure<dyn FnMut(JsValue)> = Closure::new(|_: JsValue| {});
}

fn parse_options(options: &JsValue) -> Result<Inner, JsOffloadError> {
    if !options.is_object() {
        return Err(OffloadError::InvalidArgument(format!(
            "options must be an object with userData, conversationId and writer, got {}",
            kind_of(options)
        ))
        .into());
    }
    let user_data = string_arg(&field(options, "userData"), |kind| {
        OffloadError::InvalidArgument(format!("options.userData must be a string, got {kind}"))
    })?;
    let conversation_id = string_arg(&field(options, "conversationId"), |kind| {
        OffloadError::InvalidId {
            field: "conversationId".into(),
            value: None,
            reason: if kind == "undefined" {
                "is missing"
            } else {
                "must be a string"
            },
        }
    })?;
    let cwd = working_dir(options, &user_data)?;
    let mut core = CoreOptions::new(user_data, conversation_id, cwd);
    core.max_inline_chars = count_arg(
        &field(options, "maxInlineChars"),
        "options.maxInlineChars",
        core.max_inline_chars,
    )?;
    core.max_inline_bytes = count_arg(
        &field(options, "maxInlineBytes"),
        "options.maxInlineBytes",
        core.max_inline_bytes,
    )?;
    core.snippet_lines = count_arg(
        &field(options, "snippetLines"),
        "options.snippetLines",
        core.snippet_lines,
    )?;
    let writer = JsFileWriter::new(&field(options, "writer")).map_err(|e| match e {
        OffloadError::InvalidArgument(message) => {
            OffloadError::InvalidArgument(format!("options.{message}"))
        }
        other => other,
    })?;
    let reader = field(options, "reader");
    let reader = if reader.is_undefined() || reader.is_null() {
        JsFileReader::from_object(writer.target())
    } else {
        Some(JsFileReader::new(&reader, "options.reader")?)
    };
    let logger = field(options, "logger");
    let logger = if logger.is_undefined() || logger.is_null() {
        None
    } else {
        Some(logger.dyn_into::<Function>().map_err(|logger| {
            OffloadError::InvalidArgument(format!(
                "options.logger must be a function, got {}",
                kind_of(&logger)
            ))
        })?)
    };
    Ok(Inner {
        core: CoreMaterializer::new(core)?,
        writer,
        reader,
        logger,
    })
}

/// `new RegExp(pattern, ignoreCase ? "i" : "")`, or `INVALID_PATTERN` with the
/// engine's `SyntaxError` as `cause`.
fn compile(pattern: &JsValue, ignore_case: bool) -> Result<js_sys::RegExp, JsOffloadError> {
    let source = string_arg(pattern, |kind| {
        OffloadError::InvalidArgument(format!("pattern must be a string, got {kind}"))
    })?;
    let constructor = Reflect::get(&js_sys::global(), &"RegExp".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| OffloadError::InvalidArgument("RegExp is not available".into()))?;
    let flags = if ignore_case { "i" } else { "" };
    let args = Array::of2(pattern, &JsValue::from_str(flags));
    match Reflect::construct(&constructor, &args) {
        Ok(regexp) => Ok(regexp.unchecked_into()),
        Err(thrown) => Err(JsOffloadError::with_cause(
            OffloadError::InvalidPattern {
                pattern: source,
                reason: message_of(&thrown),
            },
            Some(thrown),
        )),
    }
}

/// An options argument: an object, or absent.
fn options_arg(options: &JsValue) -> Result<(), JsOffloadError> {
    if options.is_undefined() || options.is_null() || options.is_object() {
        Ok(())
    } else {
        Err(OffloadError::InvalidArgument(format!(
            "options must be an object when given, got {}",
            kind_of(options)
        ))
        .into())
    }
}

/// A ref argument: a string, else `INVALID_ARGUMENT`.
fn ref_arg(reference: &JsValue) -> Result<String, JsOffloadError> {
    string_arg(reference, |kind| {
        OffloadError::InvalidArgument(format!("ref must be a string, got {kind}"))
    })
}

/// A count: `default` when `undefined`, else a non-negative integer.
fn count_arg(value: &JsValue, name: &str, default: usize) -> Result<usize, JsOffloadError> {
    if value.is_undefined() {
        return Ok(default);
    }
    match value.as_f64() {
        // `as` saturates: counts beyond usize (wasm32) mean "all".
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 => Ok(n as usize),
        _ => Err(OffloadError::InvalidArgument(format!(
            "{name} must be a non-negative integer, got {}",
            message_of(value)
        ))
        .into()),
    }
}

/// `object[key]`, `undefined` when `object` is not an object or reading throws.
fn field(object: &JsValue, key: &str) -> JsValue {
    if object.is_object() {
        Reflect::get(object, &key.into()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

fn number(n: usize) -> JsValue {
    JsValue::from_f64(n as f64)
}
