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
use tool_offload::tools::{ToolDefinition, ToolOutput, ToolResult};
use tool_offload::{
    json as js, register_todo_tools, ErrorCode, HandlerResult, MemoryWriter, ResultOffload,
    ToolRegistry,
};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

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

fn placeholder(path: &str) -> String {
    format!("[Tool result offloaded to file: {path}]")
}

fn todo(content: &str, status: &str, active_form: &str) -> Value {
    json!({"content": content, "status": status, "activeForm": active_form})
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

/// A registry offloading to `/virtual/out/s1` through `writer`, with tool `big` = [`echo`].
fn offloading(
    writer: &MemoryWriter,
    threshold_chars: Option<usize>,
) -> ToolRegistry<&MemoryWriter> {
    let mut options = ResultOffload::at("/virtual/out", "s1");
    if let Some(threshold) = threshold_chars {
        options.threshold_chars = threshold;
    }
    let mut registry =
        ToolRegistry::with_offload_writer(options, writer).expect("valid offload options");
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
fn registries_are_send_and_sync() {
    assert_send_sync::<ToolRegistry>();
    assert_send_sync::<ToolRegistry<MemoryWriter>>();
    assert_send_sync::<ToolRegistry<&MemoryWriter>>();
}

// ---------------------------------------------------------------------------------------
// execute_tool
// ---------------------------------------------------------------------------------------

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
    let writer = MemoryWriter::new();
    let registry = offloading(&writer, None);
    assert_send(&registry.execute_tool("t", "big", json!({})));
    let tokio_registry =
        ToolRegistry::with_offload(ResultOffload::at("/tmp/tool-offload-never", "s")).unwrap();
    assert_send(&tokio_registry.execute_tool("t", "big", json!({})));
}

// ---------------------------------------------------------------------------------------
// TodoWrite / TodoRead
// ---------------------------------------------------------------------------------------

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
async fn offload_a_relative_output_dir_resolves_against_the_process_cwd() {
    let writer = MemoryWriter::new();
    let mut registry =
        ToolRegistry::with_offload_writer(ResultOffload::at("rel/out", "s1"), &writer).unwrap();
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
            format!("create {}", file.display())
        ]
    );
}

#[tokio::test]
async fn with_offload_writes_real_files_with_exact_bytes() {
    let (_tmp, root) = tempdir();
    let output_dir = root.join("artifacts");
    let mut registry =
        ToolRegistry::with_offload(ResultOffload::at(output_dir.to_str().unwrap(), "sess-1"))
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
        let err = ToolRegistry::with_offload(ResultOffload::at("/out", session_id))
            .err()
            .expect("an unusable session id is refused");
        assert_eq!(err.code(), ErrorCode::InvalidId, "{session_id:?}");
        assert_eq!(err.code().as_str(), "INVALID_ID");
    }
    let err = ToolRegistry::with_offload(ResultOffload::at("/out", ".."))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        r#"invalid sessionId "..": is a relative path component ("." or "..")"#
    );
    let err =
        ToolRegistry::with_offload_writer(ResultOffload::at("/out", ".."), MemoryWriter::new())
            .err()
            .unwrap();
    assert_eq!(err.code(), ErrorCode::InvalidId);

    // Valid options: the default threshold is 1000.
    assert_eq!(ResultOffload::at("/out", "s1").threshold_chars, 1000);
    assert!(ToolRegistry::with_offload(ResultOffload::at("/out", "s1")).is_ok());
}
