//! The tokio host's `ToolRegistry`, `register_todo_tools` and offload middleware against
//! the contract of the issue: registration errors, `execute_tool` on every path (unknown
//! tool, output, returned error, panic before and inside the future), the
//! TodoWrite/TodoRead pair, and offloading through an injected writer and into real
//! files. Exact strings are pinned verbatim: models and host code depend on them.
//!
//! No test changes the working directory, so they can run in parallel.

use std::collections::BTreeSet;
use std::future::{ready, Ready};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tool_offload::tools::{RegisterError, ToolDefinition, ToolOutput, ToolResult};
use tool_offload::{
    json as js, register_todo_tools, CreateOutcome, ErrorCode, FileWriter, HandlerResult, IoError,
    MemoryWriter, OffloadError, RegistryOffload, ToolRegistry,
};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

const STATUS_RULE: &str = "Must be one of: pending, in_progress, completed";

fn def(name: &str) -> ToolDefinition {
    ToolDefinition::new(name, format!("The {name} tool."), json!({"type": "object"}))
}

/// A handler returning `content`.
fn ok(content: &'static str) -> impl Fn(Value) -> Ready<HandlerResult> + Send + Sync + 'static {
    move |_| ready(Ok(ToolOutput::ok(content)))
}

/// A handler returning its `content` param, as an error output when `is_error` is true.
fn echo(params: Value) -> Ready<HandlerResult> {
    let content = params["content"].as_str().unwrap_or_default().to_owned();
    let is_error = params["is_error"] == json!(true);
    ready(Ok(ToolOutput { content, is_error }))
}

fn result(id: &str, content: impl Into<String>, is_error: bool) -> ToolResult {
    ToolResult {
        tool_use_id: id.into(),
        content: content.into(),
        is_error,
    }
}

fn not_found(id: &str, name: &str) -> ToolResult {
    result(id, format!("Tool '{name}' not found"), true)
}

fn names<W: FileWriter + Send + Sync>(registry: &ToolRegistry<W>) -> Vec<String> {
    registry
        .get_tool_definitions()
        .iter()
        .map(|d| d["name"].as_str().unwrap().to_owned())
        .collect()
}

fn placeholder(path: &str) -> String {
    format!("[Tool result offloaded to file: {path}]")
}

fn todo(content: &str, status: &str, active_form: &str) -> Value {
    json!({"content": content, "status": status, "activeForm": active_form})
}

fn content_error(i: usize) -> String {
    format!("Todo at index {i}: content is required and cannot be empty")
}

fn active_form_error(i: usize) -> String {
    format!("Todo at index {i}: activeForm is required and cannot be empty")
}

fn status_error(i: usize, rendered: &str) -> String {
    format!("Todo at index {i}: invalid status '{rendered}'. {STATUS_RULE}")
}

/// A registry with the todo tools.
fn todo_registry() -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    register_todo_tools(&mut registry).unwrap();
    registry
}

async fn run(registry: &ToolRegistry, id: &str, name: &str, params: Value) -> ToolResult {
    let r = registry.execute_tool(id, name, params).await.unwrap();
    assert_eq!(r.tool_use_id, id);
    r
}

async fn read(registry: &ToolRegistry) -> String {
    let r = run(registry, "toolu_read", "TodoRead", json!({})).await;
    assert!(!r.is_error);
    r.content
}

/// The error content of TodoWrite with `params` on an empty list, which must stay empty.
async fn write_error(params: Value) -> String {
    let registry = todo_registry();
    let r = run(&registry, "toolu_w", "TodoWrite", params.clone()).await;
    assert!(r.is_error, "expected an error for {params}, got {r:?}");
    assert_eq!(read(&registry).await, r#"{"todos":[]}"#);
    r.content
}

async fn item_error(item: Value) -> String {
    write_error(json!({ "todos": [item] })).await
}

/// An in-memory writer that records its calls and fails the operations it is told to.
/// Clones share their state, so a test keeps one while the registry owns another.
#[derive(Clone, Default)]
struct Recording {
    calls: Arc<Mutex<Vec<String>>>,
    inner: Arc<MemoryWriter>,
    fail_mkdir: bool,
    fail_write: bool,
}

impl Recording {
    fn failing_write() -> Self {
        Recording {
            fail_write: true,
            ..Recording::default()
        }
    }
    fn calls(&self) -> Vec<String> {
        self.calls.lock().unwrap().clone()
    }
    fn read(&self, path: &str) -> Option<String> {
        self.inner.read(path)
    }
}

impl FileWriter for Recording {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.calls.lock().unwrap().push(format!("mkdir {dir}"));
        if self.fail_mkdir {
            return Err(IoError::new("permission denied"));
        }
        self.inner.mkdir(dir).await
    }

    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.calls.lock().unwrap().push(format!("write {path}"));
        if self.fail_write {
            return Err(IoError::from_error(std::io::Error::other("disk full")));
        }
        self.inner.write_file(path, data).await
    }

    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.calls.lock().unwrap().push(format!("create {path}"));
        if self.fail_write {
            return Err(IoError::from_error(std::io::Error::other("disk full")));
        }
        self.inner.create_file(path, data).await
    }
}

/// A registry offloading to `/virtual/out/s1` through `writer`, with tool `big` = [`echo`].
fn offloading(writer: &Recording, threshold_chars: Option<usize>) -> ToolRegistry<Recording> {
    let mut options = RegistryOffload::new("/virtual/out", "s1");
    if let Some(threshold) = threshold_chars {
        options.threshold_chars = threshold;
    }
    let mut registry =
        ToolRegistry::with_offload_writer(options, writer.clone()).expect("valid offload options");
    registry.register(def("big"), echo).unwrap();
    registry
}

fn big(content: impl Into<String>) -> Value {
    json!({ "content": content.into() })
}

/// A canonical temporary directory, so paths compare equal to what the host resolves.
fn tempdir() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    (tmp, root)
}

fn entries(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect()
}

fn assert_send<T: Send>(_: &T) {}
fn assert_send_sync<T: Send + Sync>() {}

// ---------------------------------------------------------------------------------------
// register
// ---------------------------------------------------------------------------------------

#[test]
fn register_accepts_names_of_1_to_64_characters_from_the_alphabet() {
    let mut registry = ToolRegistry::new();
    let long = "x".repeat(64);
    let accepted = [
        "a",
        long.as_str(),
        "get_weather",
        "Get-Weather-2",
        "_",
        "-",
        "0",
        "AZaz09_-",
    ];
    for name in accepted {
        registry.register(def(name), ok("x")).unwrap();
    }
    assert_eq!(names(&registry), accepted);
}

#[test]
fn register_rejects_invalid_names_with_code_and_exact_message() {
    let long = "a".repeat(65);
    let two_byte = "é".repeat(32);
    for name in [
        "",
        long.as_str(),
        "a b",
        " a",
        "a.b",
        "a/b",
        "café",
        "工具",
        "a😀",
        "a\n",
        "a\u{200B}",
        two_byte.as_str(),
    ] {
        let mut registry = ToolRegistry::new();
        let err = registry.register(def(name), ok("x")).unwrap_err();
        assert_eq!(err, RegisterError::InvalidName(name.to_owned()));
        assert_eq!(err.code(), "INVALID_TOOL_NAME");
        assert_eq!(
            err.to_string(),
            format!("invalid tool name {name:?}: must match ^[a-zA-Z0-9_-]{{1,64}}$")
        );
        assert!(registry.get_tool_definitions().is_empty());
        assert!(registry.get_tool(name).is_none());
    }
    let err = ToolRegistry::new()
        .register(def("a b"), ok("x"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid tool name "a b": must match ^[a-zA-Z0-9_-]{1,64}$"#
    );
}

#[tokio::test]
async fn register_rejects_a_duplicate_and_keeps_the_first() {
    let mut registry = ToolRegistry::new();
    registry.register(def("echo"), ok("first")).unwrap();
    let second = ToolDefinition::new("echo", "Another echo.", json!({"type": "object"}));
    let err = registry.register(second, ok("second")).unwrap_err();
    assert_eq!(err, RegisterError::Duplicate("echo".into()));
    assert_eq!(err.code(), "DUPLICATE_TOOL");
    assert_eq!(err.to_string(), r#"tool "echo" is already registered"#);
    assert_eq!(names(&registry), ["echo"]);
    assert_eq!(
        registry.get_tool("echo").unwrap().0.description,
        "The echo tool."
    );
    let r = registry.execute_tool("t", "echo", json!({})).await.unwrap();
    assert_eq!(r, result("t", "first", false));
}

#[tokio::test]
async fn names_are_case_sensitive() {
    let mut registry = ToolRegistry::new();
    registry.register(def("echo"), ok("lower")).unwrap();
    registry.register(def("Echo"), ok("upper")).unwrap();
    assert_eq!(names(&registry), ["echo", "Echo"]);
    let r = registry.execute_tool("t", "Echo", json!({})).await.unwrap();
    assert_eq!(r.content, "upper");
    let r = registry.execute_tool("t", "ECHO", json!({})).await.unwrap();
    assert_eq!(r, not_found("t", "ECHO"));
}

#[test]
fn register_rejects_a_non_object_input_schema() {
    for schema in [
        json!(null),
        json!([]),
        json!([{"type": "object"}]),
        json!("object"),
        json!(true),
        json!(1),
    ] {
        let mut registry = ToolRegistry::new();
        registry.register(def("before"), ok("b")).unwrap();
        let err = registry
            .register(ToolDefinition::new("t", "d", schema.clone()), ok("x"))
            .unwrap_err();
        assert!(
            matches!(err, RegisterError::InvalidDefinition(_)),
            "{schema}"
        );
        assert_eq!(err.code(), "INVALID_TOOL_DEFINITION");
        assert_eq!(
            err.to_string(),
            "invalid tool definition: input_schema must be a JSON Schema object"
        );
        assert_eq!(names(&registry), ["before"]);
        // Refused for its schema, so the name is still free.
        registry.register(def("t"), ok("x")).unwrap();
        assert_eq!(names(&registry), ["before", "t"]);
    }
    // As in the core, the name is checked first.
    let err = ToolRegistry::new()
        .register(ToolDefinition::new("bad name", "d", json!(null)), ok("x"))
        .unwrap_err();
    assert_eq!(err.code(), "INVALID_TOOL_NAME");
}

#[tokio::test]
async fn get_tool_returns_the_definition_and_a_callable_handler() {
    let mut registry = ToolRegistry::new();
    let weather = ToolDefinition::new(
        "get_weather",
        "Current weather.",
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    );
    registry
        .register(weather.clone(), |params: Value| async move {
            Ok(ToolOutput::ok(format!(
                "sunny in {}",
                params["city"].as_str().unwrap_or("?")
            )))
        })
        .unwrap();
    let (definition, handler) = registry.get_tool("get_weather").unwrap();
    assert_eq!(definition, &weather);
    let output = handler(json!({"city": "Paris"})).await.unwrap();
    assert_eq!(output, ToolOutput::ok("sunny in Paris"));
    assert!(registry.get_tool("missing").is_none());
    assert!(registry.get_tool("").is_none());
    assert!(ToolRegistry::default().get_tool("get_weather").is_none());
}

#[test]
fn get_tool_definitions_are_exact_and_in_registration_order() {
    let mut registry = ToolRegistry::new();
    assert!(registry.get_tool_definitions().is_empty());
    registry.register(def("zeta"), ok("z")).unwrap();
    registry.register(def("alpha"), ok("a")).unwrap();
    let weather = ToolDefinition::new(
        "get_weather",
        "Current weather.",
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    );
    registry.register(weather, ok("w")).unwrap();
    assert!(registry.register(def("bad name"), ok("x")).is_err());
    registry.register(def("Beta"), ok("B")).unwrap();
    assert_eq!(names(&registry), ["zeta", "alpha", "get_weather", "Beta"]);
    let definitions = registry.get_tool_definitions();
    assert_eq!(
        js::stringify(&definitions[2]),
        r#"{"name":"get_weather","description":"Current weather.","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}"#
    );
    for d in &definitions {
        let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["name", "description", "input_schema"]);
    }
}

#[test]
fn registries_are_send_and_sync() {
    assert_send_sync::<ToolRegistry>();
    assert_send_sync::<ToolRegistry<MemoryWriter>>();
    assert_send_sync::<ToolRegistry<Recording>>();
}

// ---------------------------------------------------------------------------------------
// execute_tool
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn an_unknown_tool_is_the_exact_not_found_result() {
    let mut registry = ToolRegistry::new();
    registry.register(def("echo"), ok("hi")).unwrap();
    for (id, name) in [
        ("toolu_01A", "nope"),
        ("call_1", ""),
        ("x", "echo "),
        ("", "weird name/../"),
    ] {
        let r = registry.execute_tool(id, name, json!({})).await.unwrap();
        assert_eq!(r, not_found(id, name));
    }
    let r = ToolRegistry::new()
        .execute_tool("toolu_9", "missing", json!({}))
        .await
        .unwrap();
    assert_eq!(
        js::stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_9","content":"Tool 'missing' not found","is_error":true}"#
    );
}

#[tokio::test]
async fn the_handler_receives_the_params_exactly_once_and_never_the_tool_use_id() {
    let seen = Arc::new(Mutex::new(Vec::<Value>::new()));
    let mut registry = ToolRegistry::new();
    let spy = Arc::clone(&seen);
    registry
        .register(def("spy"), move |params: Value| {
            spy.lock().unwrap().push(params);
            ready(Ok(ToolOutput::ok("ok")))
        })
        .unwrap();
    let params = json!({"city": "Paris", "nested": {"deep": [1, 2.5, null]}, "z": 1, "a": 2});
    let r = registry
        .execute_tool("toolu_secret", "spy", params.clone())
        .await
        .unwrap();
    assert_eq!(r, result("toolu_secret", "ok", false));
    assert_eq!(*seen.lock().unwrap(), std::slice::from_ref(&params));
    // Key order is kept too.
    assert_eq!(
        js::stringify(&seen.lock().unwrap()[0]),
        js::stringify(&params)
    );
    for value in [json!([1, 2]), json!("text"), json!(42), json!(null)] {
        seen.lock().unwrap().clear();
        registry
            .execute_tool("toolu_2", "spy", value.clone())
            .await
            .unwrap();
        assert_eq!(*seen.lock().unwrap(), [value]);
    }
    assert!(!format!("{:?}", seen.lock().unwrap()).contains("toolu"));
}

#[tokio::test]
async fn content_and_is_error_pass_through_and_is_error_is_serialised_only_when_true() {
    let mut registry = ToolRegistry::new();
    registry.register(def("echo"), echo).unwrap();
    let text = "é😀\u{2028}\0\"\\\r\n\t end  ";
    for (content, is_error) in [
        ("result text", false),
        ("soft failure", true),
        ("", false),
        ("", true),
        (text, false),
    ] {
        let params = json!({"content": content, "is_error": is_error});
        let r = registry
            .execute_tool("toolu_1", "echo", params)
            .await
            .unwrap();
        assert_eq!(r, result("toolu_1", content, is_error));
        let value = r.to_value();
        assert_eq!(value.get("is_error").is_some(), is_error, "{content:?}");
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let expected: &[&str] = if is_error {
            &["type", "tool_use_id", "content", "is_error"]
        } else {
            &["type", "tool_use_id", "content"]
        };
        assert_eq!(keys, expected);
    }
    let r = registry
        .execute_tool(
            "toolu_f",
            "echo",
            json!({"content": "fine", "is_error": false}),
        )
        .await
        .unwrap();
    assert_eq!(
        js::stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_f","content":"fine"}"#
    );
    let r = registry
        .execute_tool(
            "toolu_s",
            "echo",
            json!({"content": "soft", "is_error": true}),
        )
        .await
        .unwrap();
    assert_eq!(
        js::stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_s","content":"soft","is_error":true}"#
    );
}

#[tokio::test]
async fn a_handler_returning_err_becomes_an_error_result_with_its_message() {
    #[derive(Debug)]
    struct ToolFailure;
    impl std::fmt::Display for ToolFailure {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("custom failure: é😀\n\"line 2\"")
        }
    }
    impl std::error::Error for ToolFailure {}

    let mut registry = ToolRegistry::new();
    registry
        .register(def("plain"), |_| async { Err("plain message".into()) })
        .unwrap();
    registry
        .register(def("io"), |_| async {
            tokio::task::yield_now().await;
            Err(Box::new(std::io::Error::other("disk on fire")) as _)
        })
        .unwrap();
    registry
        .register(def("custom"), |_| ready(Err(Box::new(ToolFailure) as _)))
        .unwrap();
    registry
        .register(def("empty"), |_| ready(Err(String::new().into())))
        .unwrap();
    for (name, message) in [
        ("plain", "plain message"),
        ("io", "disk on fire"),
        ("custom", "custom failure: é😀\n\"line 2\""),
        ("empty", ""),
    ] {
        let id = format!("toolu_{name}");
        let r = registry
            .execute_tool(&id, name, json!({"any": "thing"}))
            .await
            .unwrap();
        assert_eq!(r, result(&id, message, true), "{name}");
    }
}

#[tokio::test]
async fn a_panicking_handler_becomes_an_error_result_and_the_registry_keeps_working() {
    let mut registry = ToolRegistry::new();
    // Panics while being called, before any future exists.
    registry
        .register(def("sync_panic"), |_: Value| -> Ready<HandlerResult> {
            panic!("sync boom")
        })
        .unwrap();
    // Panics inside the future, after a suspension point.
    registry
        .register(def("async_panic"), |params: Value| async move {
            tokio::task::yield_now().await;
            if params["explode"] == json!(true) {
                panic!("async boom");
            }
            Ok(ToolOutput::ok("calm"))
        })
        .unwrap();
    // A formatted message is a String payload.
    registry
        .register(def("formatted"), |params: Value| async move {
            let code = params["code"].as_i64().unwrap_or(0);
            if code != 0 {
                panic!("failed with code {code}");
            }
            Ok(ToolOutput::ok("no code"))
        })
        .unwrap();
    // A payload that is not a string.
    registry
        .register(def("any_payload"), |_: Value| -> Ready<HandlerResult> {
            std::panic::panic_any(42_u8)
        })
        .unwrap();
    registry.register(def("fine"), ok("still here")).unwrap();

    let cases = [
        ("sync_panic", json!({}), "sync boom"),
        ("async_panic", json!({"explode": true}), "async boom"),
        ("formatted", json!({"code": 7}), "failed with code 7"),
        ("any_payload", json!({}), "tool handler panicked"),
    ];
    for (name, params, message) in cases {
        let id = format!("toolu_{name}");
        let r = registry.execute_tool(&id, name, params).await.unwrap();
        assert_eq!(r, result(&id, message, true), "{name}");
        assert_eq!(
            js::stringify(&r.to_value()),
            format!(
                r#"{{"type":"tool_result","tool_use_id":"{id}","content":"{message}","is_error":true}}"#
            )
        );
    }
    // The same handlers without a panic, and the other tools, still work.
    let r = registry
        .execute_tool("a", "async_panic", json!({"explode": false}))
        .await
        .unwrap();
    assert_eq!(r, result("a", "calm", false));
    let r = registry
        .execute_tool("b", "formatted", json!({}))
        .await
        .unwrap();
    assert_eq!(r, result("b", "no code", false));
    let r = registry.execute_tool("c", "fine", json!({})).await.unwrap();
    assert_eq!(r, result("c", "still here", false));
}

#[tokio::test]
async fn the_tool_use_id_is_the_one_passed_in_on_every_path() {
    let mut registry = ToolRegistry::new();
    registry.register(def("ok"), ok("fine")).unwrap();
    registry
        .register(def("soft"), |_| {
            ready(Ok(ToolOutput::error("soft failure")))
        })
        .unwrap();
    registry
        .register(def("hard"), |_| ready(Err("hard failure".into())))
        .unwrap();
    registry
        .register(def("panics"), |_: Value| -> Ready<HandlerResult> {
            panic!("panic failure")
        })
        .unwrap();
    let long = "x".repeat(300);
    for id in [
        "toolu_01A",
        "call_abc",
        "",
        "../weird id",
        "😀",
        long.as_str(),
    ] {
        let run = |name: &'static str| registry.execute_tool(id, name, json!({}));
        assert_eq!(run("ok").await.unwrap(), result(id, "fine", false));
        assert_eq!(run("soft").await.unwrap(), result(id, "soft failure", true));
        assert_eq!(run("hard").await.unwrap(), result(id, "hard failure", true));
        assert_eq!(
            run("panics").await.unwrap(),
            result(id, "panic failure", true)
        );
        assert_eq!(run("missing").await.unwrap(), not_found(id, "missing"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn execute_tool_futures_are_send_and_run_concurrently_across_threads() {
    let mut registry = ToolRegistry::new();
    registry
        .register(def("wait"), |params: Value| async move {
            // Suspend a number of times (tokio's `time` feature is not enabled here).
            for _ in 0..params["yields"].as_u64().unwrap() {
                tokio::task::yield_now().await;
            }
            Ok(ToolOutput::ok(params["tag"].as_str().unwrap()))
        })
        .unwrap();
    // Compile-time: the future of execute_tool is Send.
    let future = registry.execute_tool("toolu_x", "wait", json!({"yields": 1, "tag": "x"}));
    assert_send(&future);
    assert_eq!(future.await.unwrap(), result("toolu_x", "x", false));

    let registry = Arc::new(registry);
    let tasks: Vec<_> = (0..8u64)
        .map(|i| {
            let registry = Arc::clone(&registry);
            // tokio::spawn itself requires the future to be Send + 'static.
            tokio::spawn(async move {
                let id = format!("toolu_{i}");
                let params = json!({"yields": 40 - i * 5, "tag": format!("tag{i}")});
                registry.execute_tool(&id, "wait", params).await
            })
        })
        .collect();
    for (i, task) in tasks.into_iter().enumerate() {
        let r = task.await.unwrap().unwrap();
        assert_eq!(r, result(&format!("toolu_{i}"), format!("tag{i}"), false));
    }
}

#[test]
fn execute_tool_with_an_offloading_writer_is_send() {
    // Compile-time: with a writer whose futures are Send (an injected one, and the
    // default TokioFileWriter), so is execute_tool's. The futures are never polled.
    let writer = Recording::default();
    let registry = offloading(&writer, None);
    assert_send(&registry.execute_tool("t", "big", json!({})));
    let tokio_registry =
        ToolRegistry::with_offload(RegistryOffload::new("/tmp/tool-offload-never", "s")).unwrap();
    assert_send(&tokio_registry.execute_tool("t", "big", json!({})));
}

// ---------------------------------------------------------------------------------------
// TodoWrite / TodoRead
// ---------------------------------------------------------------------------------------

const TODO_WRITE_SCHEMA: &str = r#"{"type":"object","properties":{"todos":{"type":"array","description":"The complete, updated todo list.","items":{"type":"object","properties":{"content":{"type":"string","minLength":1,"description":"The task, imperative: \"Run the tests\"."},"status":{"type":"string","enum":["pending","in_progress","completed"]},"activeForm":{"type":"string","minLength":1,"description":"The task under way: \"Running the tests\"."}},"required":["content","status","activeForm"],"additionalProperties":false}}},"required":["todos"]}"#;

#[test]
fn register_todo_tools_registers_write_then_read_with_exact_schemas() {
    let mut registry = ToolRegistry::new();
    registry.register(def("first"), ok("f")).unwrap();
    register_todo_tools(&mut registry).unwrap();
    assert_eq!(names(&registry), ["first", "TodoWrite", "TodoRead"]);
    let definitions = registry.get_tool_definitions();
    assert_eq!(
        js::stringify(&definitions[1]["input_schema"]),
        TODO_WRITE_SCHEMA
    );
    assert_eq!(
        js::stringify(&definitions[2]["input_schema"]),
        r#"{"type":"object","properties":{}}"#
    );
    let write = definitions[1]["description"].as_str().unwrap();
    let read = definitions[2]["description"].as_str().unwrap();
    assert!(write.contains("replaces the whole list"), "{write}");
    assert!(write.contains("Use it"), "{write}");
    assert!(read.contains("Use it"), "{read}");
}

#[tokio::test]
async fn todo_write_and_read_round_trip_with_exact_outputs() {
    let registry = todo_registry();
    let r = run(&registry, "toolu_r0", "TodoRead", json!({})).await;
    assert_eq!(
        js::stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_r0","content":"{\"todos\":[]}"}"#
    );
    let r = run(
        &registry,
        "toolu_w1",
        "TodoWrite",
        json!({"todos": [
            todo("Write tests", "in_progress", "Writing tests"),
            todo("Fix bugs", "pending", "Fixing bugs"),
            todo("Ship", "completed", "Shipping"),
        ]}),
    )
    .await;
    assert_eq!(
        r,
        result("toolu_w1", r#"{"success":true,"count":3}"#, false)
    );
    assert_eq!(
        read(&registry).await,
        r#"{"todos":[{"content":"Write tests","status":"in_progress","activeForm":"Writing tests"},{"content":"Fix bugs","status":"pending","activeForm":"Fixing bugs"},{"content":"Ship","status":"completed","activeForm":"Shipping"}]}"#
    );
    // Each write replaces the whole list; [] clears it.
    let r = run(
        &registry,
        "w2",
        "TodoWrite",
        json!({"todos": [todo("Only", "pending", "Doing only")]}),
    )
    .await;
    assert_eq!(r.content, r#"{"success":true,"count":1}"#);
    assert_eq!(
        read(&registry).await,
        r#"{"todos":[{"content":"Only","status":"pending","activeForm":"Doing only"}]}"#
    );
    let r = run(&registry, "w3", "TodoWrite", json!({"todos": []})).await;
    assert_eq!(r, result("w3", r#"{"success":true,"count":0}"#, false));
    assert_eq!(read(&registry).await, r#"{"todos":[]}"#);
}

#[tokio::test]
async fn todo_read_emits_exactly_content_status_active_form_and_ignores_its_params() {
    let registry = todo_registry();
    let params = json!({"todos": [{
        "activeForm": "Testing", "priority": "high", "id": "1",
        "status": "pending", "content": "Test", "extra": {"nested": true}
    }], "other": "ignored"});
    let r = run(&registry, "w", "TodoWrite", params).await;
    assert_eq!(r.content, r#"{"success":true,"count":1}"#);
    let expected = r#"{"todos":[{"content":"Test","status":"pending","activeForm":"Testing"}]}"#;
    for params in [json!({}), json!(null), json!({"todos": []}), json!("x")] {
        assert_eq!(
            run(&registry, "r", "TodoRead", params).await.content,
            expected
        );
    }
}

#[tokio::test]
async fn todo_write_keeps_text_verbatim_and_accepts_one_character_fields() {
    let registry = todo_registry();
    let items = json!([
        todo("x", "pending", "y"),
        todo("  padded  ", "completed", "\tpadded\n"),
        todo("say \"hi\"\n\\ é 😀 \u{2028}", "in_progress", "a\u{1}"),
    ]);
    let r = run(&registry, "w", "TodoWrite", json!({ "todos": items })).await;
    assert_eq!(r.content, r#"{"success":true,"count":3}"#);
    assert_eq!(
        read(&registry).await,
        js::stringify(&json!({ "todos": items }))
    );
}

#[tokio::test]
async fn todo_write_validation_messages_are_exact() {
    for params in [
        json!({}),
        json!({"todo": []}),
        json!({"Todos": []}),
        json!(null),
        json!([]),
        json!("todos"),
        json!(42),
        json!(true),
    ] {
        assert_eq!(
            write_error(params.clone()).await,
            "'todos' array is required",
            "{params}"
        );
    }
    for todos in [
        json!({}),
        json!({"0": todo("a", "pending", "b")}),
        json!("[]"),
        json!(1),
        json!(true),
        json!(null),
    ] {
        assert_eq!(
            write_error(json!({ "todos": todos })).await,
            "'todos' must be an array",
            "{todos}"
        );
    }
    for content in [
        json!(""),
        json!("   "),
        json!("\t\n"),
        json!("\u{FEFF}"),
        json!("\u{A0}\u{3000}\u{2028}\u{2029}\u{B}\u{C}\r"),
        json!(null),
        json!(42),
        json!(["a"]),
        json!({"text": "a"}),
    ] {
        let item = json!({"content": content, "status": "pending", "activeForm": "Doing"});
        assert_eq!(item_error(item).await, content_error(0), "{content}");
    }
    assert_eq!(
        item_error(json!({"status": "pending", "activeForm": "Doing"})).await,
        "Todo at index 0: content is required and cannot be empty"
    );
    for active_form in [
        json!(""),
        json!("   "),
        json!(null),
        json!(7),
        json!(["Doing"]),
    ] {
        let item = json!({"content": "Do", "status": "pending", "activeForm": active_form});
        assert_eq!(
            item_error(item).await,
            active_form_error(0),
            "{active_form}"
        );
    }
    assert_eq!(
        item_error(json!({"content": "Do", "status": "pending", "active_form": "Doing"})).await,
        "Todo at index 0: activeForm is required and cannot be empty"
    );
    for (status, rendered) in [
        (json!("done"), "done"),
        (json!("Pending"), "Pending"),
        (json!(" pending"), " pending"),
        (json!(""), ""),
        (json!(null), "null"),
        (json!(42), "42"),
        (json!(1.5), "1.5"),
        (json!(true), "true"),
        (json!(["a", "b"]), "a,b"),
        (json!({}), "[object Object]"),
    ] {
        let item = json!({"content": "Do", "status": status, "activeForm": "Doing"});
        assert_eq!(
            item_error(item).await,
            status_error(0, rendered),
            "{status}"
        );
    }
    assert_eq!(
        item_error(json!({"content": "Do", "activeForm": "Doing"})).await,
        "Todo at index 0: invalid status 'undefined'. Must be one of: pending, in_progress, completed"
    );
    for item in [json!("Plan"), json!(null), json!(1), json!([])] {
        assert_eq!(item_error(item.clone()).await, content_error(0), "{item}");
    }
}

#[tokio::test]
async fn todo_write_validates_content_then_status_then_active_form_earlier_items_first() {
    assert_eq!(item_error(json!({"status": "bad"})).await, content_error(0));
    assert_eq!(item_error(todo("", "bad", "")).await, content_error(0));
    assert_eq!(
        item_error(todo("Do", "bad", "")).await,
        status_error(0, "bad")
    );
    assert_eq!(
        item_error(json!({"content": "Do"})).await,
        status_error(0, "undefined")
    );
    assert_eq!(
        write_error(json!({"todos": [todo("Do", "pending", ""), todo("", "pending", "Doing")]}))
            .await,
        active_form_error(0)
    );
    assert_eq!(
        write_error(json!({"todos": [todo("ok", "pending", "ok"), null]})).await,
        content_error(1)
    );
    assert_eq!(
        write_error(json!({"todos": [
            todo("a", "pending", "A"),
            todo("b", "completed", "B"),
            todo("c", "later", ""),
            {"status": "nope"},
        ]}))
        .await,
        status_error(2, "later")
    );
    let mut todos: Vec<Value> = "abcdefghij"
        .chars()
        .map(|c| todo(&c.to_string(), "pending", &c.to_uppercase().to_string()))
        .collect();
    todos.push(todo("k", "pending", " "));
    assert_eq!(
        write_error(json!({ "todos": todos })).await,
        active_form_error(10)
    );
}

#[tokio::test]
async fn a_failed_todo_write_leaves_the_list_unchanged() {
    let registry = todo_registry();
    let first = json!({"todos": [
        todo("Plan", "completed", "Planning"),
        todo("Build", "in_progress", "Building"),
    ]});
    run(&registry, "w", "TodoWrite", first).await;
    let before = read(&registry).await;
    assert_eq!(
        before,
        r#"{"todos":[{"content":"Plan","status":"completed","activeForm":"Planning"},{"content":"Build","status":"in_progress","activeForm":"Building"}]}"#
    );
    for params in [
        json!({}),
        json!({"todos": "nope"}),
        json!({"todos": [todo("New", "pending", "Newing"), {"content": ""}]}),
        json!({"todos": [todo("New", "pending", "Newing"), todo("x", "done", "y")]}),
        json!({"todos": [todo("New", "pending", "Newing"), todo("x", "pending", "")]}),
    ] {
        let r = run(&registry, "bad", "TodoWrite", params.clone()).await;
        assert!(r.is_error, "{params}");
        assert_eq!(read(&registry).await, before, "{params}");
    }
    let r = run(
        &registry,
        "toolu_w2",
        "TodoWrite",
        json!({"todos": [todo("x", "done", "y")]}),
    )
    .await;
    assert_eq!(
        js::stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_w2","content":"Todo at index 0: invalid status 'done'. Must be one of: pending, in_progress, completed","is_error":true}"#
    );
}

#[tokio::test]
async fn the_todo_handlers_from_get_tool_can_be_called_directly_on_the_shared_list() {
    let registry = todo_registry();
    let (_, write) = registry.get_tool("TodoWrite").unwrap();
    let (_, read_handler) = registry.get_tool("TodoRead").unwrap();
    let output = write(json!({"todos": [todo("Direct", "pending", "Calling directly")]}))
        .await
        .unwrap();
    assert_eq!(output, ToolOutput::ok(r#"{"success":true,"count":1}"#));
    let expected =
        r#"{"todos":[{"content":"Direct","status":"pending","activeForm":"Calling directly"}]}"#;
    assert_eq!(read(&registry).await, expected);
    assert_eq!(
        read_handler(json!({})).await.unwrap(),
        ToolOutput::ok(expected)
    );
    let failure = write(json!({"todos": "nope"})).await.unwrap();
    assert_eq!(failure, ToolOutput::error("'todos' must be an array"));
    assert_eq!(read(&registry).await, expected);
}

#[tokio::test]
async fn register_todo_tools_twice_or_over_a_taken_name_registers_neither() {
    let mut registry = todo_registry();
    let err = register_todo_tools(&mut registry).unwrap_err();
    assert_eq!(err, RegisterError::Duplicate("TodoWrite".into()));
    assert_eq!(err.code(), "DUPLICATE_TOOL");
    assert_eq!(err.to_string(), r#"tool "TodoWrite" is already registered"#);
    assert_eq!(names(&registry), ["TodoWrite", "TodoRead"]);

    let mut taken = ToolRegistry::new();
    taken.register(def("TodoRead"), ok("mine")).unwrap();
    let err = register_todo_tools(&mut taken).unwrap_err();
    assert_eq!(err, RegisterError::Duplicate("TodoRead".into()));
    assert_eq!(err.to_string(), r#"tool "TodoRead" is already registered"#);
    assert_eq!(names(&taken), ["TodoRead"]);
    assert!(taken.get_tool("TodoWrite").is_none());
    let r = taken
        .execute_tool("t", "TodoRead", json!({}))
        .await
        .unwrap();
    assert_eq!(r.content, "mine");
}

#[tokio::test]
async fn each_register_todo_tools_call_has_its_own_list() {
    let one = todo_registry();
    let two = todo_registry();
    run(
        &one,
        "w",
        "TodoWrite",
        json!({"todos": [todo("One", "pending", "Doing one")]}),
    )
    .await;
    assert_eq!(read(&two).await, r#"{"todos":[]}"#);
    assert_eq!(
        read(&one).await,
        r#"{"todos":[{"content":"One","status":"pending","activeForm":"Doing one"}]}"#
    );
}

// ---------------------------------------------------------------------------------------
// Offload middleware
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn offload_at_the_default_threshold_of_1000_and_not_below() {
    let writer = Recording::default();
    let registry = offloading(&writer, None);
    let under = "x".repeat(999);
    let r = registry
        .execute_tool("toolu_1", "big", big(under.clone()))
        .await
        .unwrap();
    assert_eq!(r, result("toolu_1", under, false));
    assert!(writer.calls().is_empty());

    let at = "y".repeat(1000);
    let r = registry
        .execute_tool("toolu_2", "big", big(at.clone()))
        .await
        .unwrap();
    assert_eq!(
        r,
        result(
            "toolu_2",
            "[Tool result offloaded to file: /virtual/out/s1/toolu_2.md]",
            false
        )
    );
    assert!(r.to_value().get("is_error").is_none());
    assert_eq!(
        writer.calls(),
        ["mkdir /virtual/out/s1", "write /virtual/out/s1/toolu_2.md"]
    );
    assert_eq!(writer.read("/virtual/out/s1/toolu_2.md"), Some(at));
}

#[tokio::test]
async fn offload_threshold_counts_utf16_units() {
    let writer = Recording::default();
    let registry = offloading(&writer, None);
    // 500 emoji: 1000 UTF-16 units (2000 bytes) → offloaded.
    let emoji = "😀".repeat(500);
    let r = registry
        .execute_tool("e1", "big", big(emoji.clone()))
        .await
        .unwrap();
    assert_eq!(r.content, placeholder("/virtual/out/s1/e1.md"));
    assert_eq!(writer.read("/virtual/out/s1/e1.md"), Some(emoji));
    // 499 emoji + "a": 999 units (1997 bytes) → kept; 999 × "é": 999 units → kept.
    for content in [format!("{}a", "😀".repeat(499)), "é".repeat(999)] {
        let r = registry
            .execute_tool("e2", "big", big(content.clone()))
            .await
            .unwrap();
        assert_eq!(r, result("e2", content, false));
    }
    assert_eq!(writer.inner.files().len(), 1);
}

#[tokio::test]
async fn offload_with_a_custom_threshold_including_zero() {
    let writer = Recording::default();
    let registry = offloading(&writer, Some(10));
    let r = registry
        .execute_tool("a", "big", big("123456789"))
        .await
        .unwrap();
    assert_eq!(r.content, "123456789");
    let r = registry
        .execute_tool("b", "big", big("1234567890"))
        .await
        .unwrap();
    assert_eq!(r.content, placeholder("/virtual/out/s1/b.md"));
    assert_eq!(
        writer.read("/virtual/out/s1/b.md").as_deref(),
        Some("1234567890")
    );

    // 0: everything is offloaded, even empty content and the not-found result.
    let all = Recording::default();
    let zero = offloading(&all, Some(0));
    let r = zero.execute_tool("empty", "big", big("")).await.unwrap();
    assert_eq!(
        r,
        result("empty", placeholder("/virtual/out/s1/empty.md"), false)
    );
    assert_eq!(all.read("/virtual/out/s1/empty.md").as_deref(), Some(""));
    let r = zero.execute_tool("nf", "nope", json!({})).await.unwrap();
    assert_eq!(r, result("nf", placeholder("/virtual/out/s1/nf.md"), true));
    assert_eq!(
        all.read("/virtual/out/s1/nf.md").as_deref(),
        Some("Tool 'nope' not found")
    );
}

#[tokio::test]
async fn offload_error_results_too_keeping_is_error() {
    let writer = Recording::default();
    let mut registry = offloading(&writer, None);
    let long = "E".repeat(1500);
    registry
        .register(def("fails"), |_| ready(Err("F".repeat(1200).into())))
        .unwrap();
    registry
        .register(def("panics"), |_: Value| -> Ready<HandlerResult> {
            panic!("{}", "P".repeat(1100))
        })
        .unwrap();
    let r = registry
        .execute_tool(
            "toolu_soft",
            "big",
            json!({"content": long, "is_error": true}),
        )
        .await
        .unwrap();
    assert_eq!(
        js::stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_soft","content":"[Tool result offloaded to file: /virtual/out/s1/toolu_soft.md]","is_error":true}"#
    );
    assert_eq!(writer.read("/virtual/out/s1/toolu_soft.md"), Some(long));
    for (id, name, content) in [
        ("toolu_err", "fails", "F".repeat(1200)),
        ("toolu_panic", "panics", "P".repeat(1100)),
    ] {
        let r = registry.execute_tool(id, name, json!({})).await.unwrap();
        let path = format!("/virtual/out/s1/{id}.md");
        assert_eq!(r, result(id, placeholder(&path), true));
        assert_eq!(writer.read(&path), Some(content));
    }
    // A short error result passes through untouched.
    let r = registry
        .execute_tool("toolu_nf", "missing", json!({}))
        .await
        .unwrap();
    assert_eq!(r, not_found("toolu_nf", "missing"));
    assert_eq!(writer.inner.files().len(), 3);
}

#[tokio::test]
async fn offload_writes_the_content_byte_for_byte_and_the_same_id_overwrites() {
    let writer = Recording::default();
    let registry = offloading(&writer, None);
    let content = format!(
        "{}\r\n\"quoted\" \\ \u{2028} \u{FEFF}é😀\t\0end  ",
        "line\n".repeat(300)
    );
    let r = registry
        .execute_tool("toolu_b", "big", big(content.clone()))
        .await
        .unwrap();
    assert_eq!(r.content, placeholder("/virtual/out/s1/toolu_b.md"));
    assert_eq!(
        writer
            .read("/virtual/out/s1/toolu_b.md")
            .map(String::into_bytes),
        Some(content.into_bytes())
    );
    let json_like = format!("[{}]", "{\"a\":1.0},".repeat(200).trim_end_matches(','));
    registry
        .execute_tool("toolu_b", "big", big(json_like.clone()))
        .await
        .unwrap();
    assert_eq!(writer.read("/virtual/out/s1/toolu_b.md"), Some(json_like));
    assert_eq!(writer.inner.files().len(), 1);
}

#[tokio::test]
async fn offload_failing_write_is_write_failed_and_the_result_is_not_inlined() {
    let writer = Recording::failing_write();
    let registry = offloading(&writer, None);
    let err = registry
        .execute_tool("toolu_1", "big", big("x".repeat(1000)))
        .await
        .expect_err("a failed write must not resolve to a result");
    assert_eq!(err.code(), ErrorCode::WriteFailed);
    assert_eq!(err.code().as_str(), "WRITE_FAILED");
    assert_eq!(
        err.to_string(),
        "failed to write /virtual/out/s1/toolu_1.md: disk full"
    );
    match &err {
        OffloadError::WriteFailed { path, source } => {
            assert_eq!(path, "/virtual/out/s1/toolu_1.md");
            assert_eq!(source.message(), "disk full");
        }
        other => panic!("expected WriteFailed, got {other:?}"),
    }
    // The writer's own error is reachable through source().
    let source = std::error::Error::source(&err).expect("a source");
    assert_eq!(source.to_string(), "disk full");
    let io = std::error::Error::source(source).expect("the io::Error");
    assert!(io.downcast_ref::<std::io::Error>().is_some());
    assert_eq!(
        writer.calls(),
        ["mkdir /virtual/out/s1", "write /virtual/out/s1/toolu_1.md"]
    );
    assert!(writer.inner.files().is_empty());

    // A failing mkdir, on an error result.
    let mkdir_fails = Recording {
        fail_mkdir: true,
        ..Recording::default()
    };
    let err = offloading(&mkdir_fails, None)
        .execute_tool(
            "toolu_2",
            "big",
            json!({"content": "x".repeat(2000), "is_error": true}),
        )
        .await
        .expect_err("a failed mkdir must not resolve to a result");
    assert_eq!(err.code(), ErrorCode::WriteFailed);
    assert_eq!(
        err.to_string(),
        "failed to write /virtual/out/s1: permission denied"
    );
    assert_eq!(mkdir_fails.calls(), ["mkdir /virtual/out/s1"]);

    // Below the threshold the failing writer is never called.
    let before = writer.calls().len();
    let r = registry
        .execute_tool("toolu_3", "big", big("small"))
        .await
        .unwrap();
    assert_eq!(r, result("toolu_3", "small", false));
    assert_eq!(writer.calls().len(), before);
}

#[tokio::test]
async fn offload_an_unsafe_tool_use_id_is_invalid_id_only_when_offloading() {
    let too_long = "a".repeat(253);
    for id in [
        "../x",
        "a/b",
        "..",
        ".",
        "",
        "a\\b",
        "a\0b",
        too_long.as_str(),
    ] {
        let writer = Recording::default();
        let registry = offloading(&writer, None);
        let err = registry
            .execute_tool(id, "big", big("x".repeat(1000)))
            .await
            .expect_err("an unsafe id cannot name a file");
        assert_eq!(err.code(), ErrorCode::InvalidId, "{id:?}");
        assert!(err.to_string().contains("tool_use_id"), "{err}");
        assert!(writer.calls().is_empty());
        let r = registry
            .execute_tool(id, "big", big("small"))
            .await
            .unwrap();
        assert_eq!(r, result(id, "small", false));
    }
    let writer = Recording::default();
    let longest = "a".repeat(252);
    offloading(&writer, None)
        .execute_tool(&longest, "big", big("x".repeat(1000)))
        .await
        .unwrap();
    assert!(writer
        .read(&format!("/virtual/out/s1/{longest}.md"))
        .is_some());
}

#[tokio::test]
async fn offload_a_result_that_already_is_a_placeholder_is_returned_unchanged() {
    let writer = Recording::default();
    let registry = offloading(&writer, Some(10));
    for content in [
        "[Tool result offloaded to file: /elsewhere/s0/toolu_0.md]",
        "[Content offloaded to: ./tool-result-toolu_0.md]",
    ] {
        let r = registry.execute_tool("toolu_p", "big", big(content)).await;
        assert_eq!(r.ok(), Some(result("toolu_p", content, false)));
    }
    assert!(writer.calls().is_empty());
}

#[tokio::test]
async fn offload_a_relative_output_dir_resolves_against_the_process_cwd() {
    let writer = Recording::default();
    let mut registry =
        ToolRegistry::with_offload_writer(RegistryOffload::new("rel/out", "s1"), writer.clone())
            .unwrap();
    registry.register(def("big"), echo).unwrap();
    let cwd = std::env::current_dir().unwrap();
    let dir = cwd.join("rel").join("out").join("s1");
    let file = dir.join("t.md");
    let r = registry
        .execute_tool("t", "big", big("z".repeat(1000)))
        .await
        .unwrap();
    assert_eq!(r.content, placeholder(file.to_str().unwrap()));
    assert_eq!(
        writer.calls(),
        [
            format!("mkdir {}", dir.display()),
            format!("write {}", file.display())
        ]
    );
}

#[tokio::test]
async fn with_offload_writes_real_files_with_exact_bytes() {
    let (_tmp, root) = tempdir();
    let output_dir = root.join("artifacts");
    let mut registry = ToolRegistry::with_offload(RegistryOffload::new(&output_dir, "sess-1"))
        .expect("valid options");
    let content = format!(
        "{}\u{2028}\0tail",
        "😀 résumé \"quoted\" \\ \r\n".repeat(100)
    );
    let expected = content.clone();
    registry
        .register(def("dump"), move |_| {
            ready(Ok(ToolOutput::ok(content.clone())))
        })
        .unwrap();
    registry.register(def("small"), ok("tiny")).unwrap();
    let dir = output_dir.join("sess-1");
    let file = dir.join("toolu_01A.md");
    let r = registry
        .execute_tool("toolu_01A", "dump", json!({}))
        .await
        .unwrap();
    assert_eq!(
        r,
        result("toolu_01A", placeholder(file.to_str().unwrap()), false)
    );
    assert_eq!(std::fs::read(&file).unwrap(), expected.as_bytes());
    assert_eq!(entries(&dir), BTreeSet::from(["toolu_01A.md".to_owned()]));

    let r = registry
        .execute_tool("toolu_02", "small", json!({}))
        .await
        .unwrap();
    assert_eq!(r, result("toolu_02", "tiny", false));
    assert_eq!(entries(&dir), BTreeSet::from(["toolu_01A.md".to_owned()]));

    // A large TodoRead is offloaded like any other result.
    register_todo_tools(&mut registry).unwrap();
    let todos: Vec<Value> = (0..40)
        .map(|i| todo(&format!("Task {i}"), "pending", &format!("Doing task {i}")))
        .collect();
    let r = registry
        .execute_tool("toolu_w", "TodoWrite", json!({ "todos": todos }))
        .await
        .unwrap();
    assert_eq!(r.content, r#"{"success":true,"count":40}"#);
    let r = registry
        .execute_tool("toolu_r", "TodoRead", json!({}))
        .await
        .unwrap();
    let read_file = dir.join("toolu_r.md");
    assert_eq!(r.content, placeholder(read_file.to_str().unwrap()));
    assert_eq!(
        std::fs::read_to_string(&read_file).unwrap(),
        js::stringify(&json!({ "todos": todos }))
    );
}

#[test]
fn invalid_offload_options_are_errors_at_construction() {
    for session_id in ["..", ".", "", "a/b", "a\\b", "a\0b"] {
        let err = ToolRegistry::with_offload(RegistryOffload::new("/out", session_id))
            .err()
            .expect("an unusable session id is refused");
        assert_eq!(err.code(), ErrorCode::InvalidId, "{session_id:?}");
        assert_eq!(err.code().as_str(), "INVALID_ID");
    }
    let err = ToolRegistry::with_offload(RegistryOffload::new("/out", ".."))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        r#"invalid sessionId "..": is a relative path component ("." or "..")"#
    );
    let err =
        ToolRegistry::with_offload_writer(RegistryOffload::new("/out", ".."), MemoryWriter::new())
            .err()
            .unwrap();
    assert_eq!(err.code(), ErrorCode::InvalidId);

    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let not_utf8 = Path::new(std::ffi::OsStr::from_bytes(b"/tmp/\xff"));
        let err = ToolRegistry::with_offload(RegistryOffload::new(not_utf8, "s1"))
            .err()
            .expect("a non-UTF-8 output dir is refused");
        assert_eq!(err.code(), ErrorCode::InvalidArgument);
        assert!(
            err.to_string()
                .starts_with("invalid argument: output directory is not valid UTF-8"),
            "{err}"
        );
    }

    // Valid options: the default threshold is 1000.
    assert_eq!(RegistryOffload::new("/out", "s1").threshold_chars, 1000);
    assert!(ToolRegistry::with_offload(RegistryOffload::new("/out", "s1")).is_ok());
}

#[tokio::test]
async fn without_offload_nothing_is_offloaded() {
    for mut registry in [ToolRegistry::new(), ToolRegistry::default()] {
        registry.register(def("big"), echo).unwrap();
        let huge = "x".repeat(100_000);
        let r = registry
            .execute_tool("t", "big", big(huge.clone()))
            .await
            .unwrap();
        assert_eq!(r, result("t", huge, false));
    }
}
