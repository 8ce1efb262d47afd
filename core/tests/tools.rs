//! The tool registry, the TodoWrite/TodoRead pair and the offload middleware, tested
//! against the contract in the issue: exact strings (error texts, JSON outputs,
//! placeholders) are pinned verbatim because hosts and models depend on them.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use futures_executor::block_on;
use serde_json::json;
use tool_offload_core::json::stringify;
use tool_offload_core::tools::{
    register_todo_tools, ResultOffload, TodoList, TodoStatus, ToolDefinition, ToolOutput,
    ToolRegistry, ToolResult, DEFAULT_THRESHOLD_CHARS, TODO_READ, TODO_WRITE,
};
use tool_offload_core::{ErrorCode, MemoryWriter, Value};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

fn def(name: &str) -> ToolDefinition {
    ToolDefinition::new(name, format!("The {name} tool."), json!({"type": "object"}))
}

/// `TodoList::write` on a serde_json value.
fn write(list: &mut TodoList, params: Value) -> ToolOutput {
    list.write(&&params)
}

fn todo(content: &str, status: &str, active_form: &str) -> Value {
    json!({"content": content, "status": status, "activeForm": active_form})
}

fn result(id: &str, content: impl Into<String>, is_error: bool) -> ToolResult {
    ToolResult {
        tool_use_id: id.into(),
        content: content.into(),
        is_error,
    }
}

// ---------------------------------------------------------------------------------------
// valid_tool_name / register
// ---------------------------------------------------------------------------------------

#[test]
fn invalid_name_display_is_exact() {
    let err = ToolRegistry::new().register(def("a b"), ()).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid tool name "a b": must match ^[a-zA-Z0-9_-]{1,64}$"#
    );
    let err = ToolRegistry::new().register(def(""), ()).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid tool name "": must match ^[a-zA-Z0-9_-]{1,64}$"#
    );
}

#[test]
fn get_returns_the_definition_and_handler_or_none() {
    let mut registry = ToolRegistry::new();
    let weather = ToolDefinition::new(
        "get_weather",
        "Current weather.",
        json!({"type": "object", "properties": {"city": {"type": "string"}}}),
    );
    registry.register(weather.clone(), 7u8).unwrap();
    registry.register(def("other"), 8u8).unwrap();
    let (definition, handler) = registry.get("get_weather").unwrap();
    assert_eq!(definition, &weather);
    assert_eq!(*handler, 7);
    assert_eq!(registry.get("other").map(|(_, h)| *h), Some(8));
    assert!(registry.get("missing").is_none());
    assert!(registry.get("").is_none());
    assert!(ToolRegistry::<u8>::new().get("get_weather").is_none());
}

// ---------------------------------------------------------------------------------------
// execute / ToolResult
// ---------------------------------------------------------------------------------------

#[test]
fn execute_passes_the_handler_registered_under_the_name() {
    let mut registry = ToolRegistry::new();
    registry.register(def("a"), "handler-a").unwrap();
    registry.register(def("b"), "handler-b").unwrap();
    let seen = RefCell::new(Vec::new());
    for name in ["b", "a"] {
        let r = block_on(registry.execute("toolu_1", name, |h| {
            seen.borrow_mut().push(*h);
            let content = format!("ran {h}");
            async move { Ok(ToolOutput::ok(content)) }
        }));
        assert_eq!(r.content, format!("ran handler-{name}"));
    }
    assert_eq!(*seen.borrow(), ["handler-b", "handler-a"]);
}

#[test]
fn execute_calls_the_handler_exactly_once() {
    let mut registry = ToolRegistry::new();
    registry.register(def("t"), ()).unwrap();
    let calls = Cell::new(0);
    block_on(registry.execute("i", "t", |_| {
        calls.set(calls.get() + 1);
        async { Err("boom".to_owned()) }
    }));
    assert_eq!(calls.get(), 1);
}

#[test]
fn execute_reports_a_handler_panic_caught_by_the_host() {
    type Handler = Box<dyn Fn(&Value) -> ToolOutput>;
    let mut registry: ToolRegistry<Handler> = ToolRegistry::new();
    registry
        .register(
            def("explode"),
            Box::new(|_: &Value| panic!("handler exploded")),
        )
        .unwrap();
    let input = json!({});
    let r = block_on(registry.execute("toolu_p", "explode", |h| {
        // What a host does: run the handler, turn a panic into Err(message).
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h(&input))).map_err(
            |payload| {
                payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .unwrap_or_else(|| "panic".to_owned())
            },
        );
        async move { outcome }
    }));
    assert_eq!(r, result("toolu_p", "handler exploded", true));
}

// ---------------------------------------------------------------------------------------
// TodoWrite / TodoRead: success paths
// ---------------------------------------------------------------------------------------

#[test]
fn todo_status_strings() {
    assert_eq!(TodoStatus::Pending.as_str(), "pending");
    assert_eq!(TodoStatus::InProgress.as_str(), "in_progress");
    assert_eq!(TodoStatus::Completed.as_str(), "completed");
}

// ---------------------------------------------------------------------------------------
// TodoWrite: validation
// ---------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------
// Definitions and registration of the todo tools
// ---------------------------------------------------------------------------------------

#[test]
fn todo_tool_names_are_exact() {
    assert_eq!(TODO_WRITE, "TodoWrite");
    assert_eq!(TODO_READ, "TodoRead");
    assert_eq!(TodoList::write_definition().name, "TodoWrite");
    assert_eq!(TodoList::read_definition().name, "TodoRead");
}

#[test]
fn todo_descriptions_say_when_to_use_the_tools() {
    for definition in [TodoList::write_definition(), TodoList::read_definition()] {
        let description = definition.description.to_lowercase();
        assert!(!description.trim().is_empty(), "{}", definition.name);
        assert!(description.contains("use"), "{}", definition.name);
    }
    let write = TodoList::write_definition().description;
    assert!(write.contains("replaces the whole list"), "{write}");
}

#[test]
fn todo_write_schema() {
    let schema = TodoList::write_definition().input_schema;
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["todos"]));
    let todos = &schema["properties"]["todos"];
    assert_eq!(todos["type"], "array");
    let items = &todos["items"];
    assert_eq!(items["type"], "object");
    assert_eq!(items["additionalProperties"], json!(false));
    assert_eq!(
        items["required"],
        json!(["content", "status", "activeForm"])
    );
    let props = items["properties"].as_object().unwrap();
    assert_eq!(
        props.keys().map(String::as_str).collect::<Vec<_>>(),
        ["content", "status", "activeForm"]
    );
    assert_eq!(props["content"]["type"], "string");
    assert_eq!(props["content"]["minLength"], 1);
    assert_eq!(props["activeForm"]["type"], "string");
    assert_eq!(props["activeForm"]["minLength"], 1);
    assert_eq!(props["status"]["type"], "string");
    assert_eq!(
        stringify(&props["status"]["enum"]),
        r#"["pending","in_progress","completed"]"#
    );
    // The schema's status enum is exactly what validation accepts.
    for status in props["status"]["enum"].as_array().unwrap() {
        let mut list = TodoList::default();
        let out = write(
            &mut list,
            json!({"todos": [{"content": "c", "status": status, "activeForm": "a"}]}),
        );
        assert!(!out.is_error, "{status}");
    }
    // additionalProperties sits at item level, not at the top.
    assert!(schema.get("additionalProperties").is_none());
}

#[test]
fn todo_read_schema_is_exact() {
    assert_eq!(
        stringify(&TodoList::read_definition().input_schema),
        r#"{"type":"object","properties":{}}"#
    );
}

// ---------------------------------------------------------------------------------------
// End to end: execute through a registry sharing one list
// ---------------------------------------------------------------------------------------

type SyncHandler = Box<dyn Fn(&Value) -> ToolOutput>;

fn run_sync(
    registry: &ToolRegistry<SyncHandler>,
    id: &str,
    name: &str,
    input: Value,
) -> ToolResult {
    block_on(registry.execute(id, name, |h| {
        let out = h(&input);
        async move { Ok(out) }
    }))
}

#[test]
fn todo_round_trip_through_execute_with_refcell() {
    let list = Rc::new(RefCell::new(TodoList::default()));
    let mut registry: ToolRegistry<SyncHandler> = ToolRegistry::new();
    let for_write = Rc::clone(&list);
    let for_read = Rc::clone(&list);
    register_todo_tools(
        &mut registry,
        Box::new(move |input: &Value| for_write.borrow_mut().write(&input)),
        Box::new(move |_: &Value| for_read.borrow().read()),
    )
    .unwrap();

    let r = run_sync(&registry, "toolu_r0", "TodoRead", json!({}));
    assert_eq!(
        stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_r0","content":"{\"todos\":[]}"}"#
    );

    let r = run_sync(
        &registry,
        "toolu_w1",
        "TodoWrite",
        json!({"todos": [
            todo("Write tests", "in_progress", "Writing tests"),
            todo("Fix bugs", "pending", "Fixing bugs"),
        ]}),
    );
    assert_eq!(
        stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_w1","content":"{\"success\":true,\"count\":2}"}"#
    );

    let r = run_sync(&registry, "toolu_r1", "TodoRead", json!({}));
    assert_eq!(r.tool_use_id, "toolu_r1");
    assert!(!r.is_error);
    assert_eq!(
        r.content,
        r#"{"todos":[{"content":"Write tests","status":"in_progress","activeForm":"Writing tests"},{"content":"Fix bugs","status":"pending","activeForm":"Fixing bugs"}]}"#
    );

    // An invalid write through execute is an error result and changes nothing.
    let r = run_sync(
        &registry,
        "toolu_w2",
        "TodoWrite",
        json!({"todos": [todo("x", "done", "y")]}),
    );
    assert_eq!(
        stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_w2","content":"Todo at index 0: invalid status 'done'. Must be one of: pending, in_progress, completed","is_error":true}"#
    );
    let r = run_sync(&registry, "toolu_r2", "TodoRead", json!({}));
    assert!(r.content.contains("Write tests"));
    assert_eq!(list.borrow().items().len(), 2);

    // Clearing through execute.
    let r = run_sync(&registry, "toolu_w3", "TodoWrite", json!({"todos": []}));
    assert_eq!(r.content, r#"{"success":true,"count":0}"#);
    let r = run_sync(&registry, "toolu_r3", "TodoRead", json!({}));
    assert_eq!(r.content, r#"{"todos":[]}"#);
    assert!(list.borrow().items().is_empty());
}

#[test]
fn todo_round_trip_through_execute_with_mutex_across_threads() {
    type Handler = Box<dyn Fn(&Value) -> ToolOutput + Send + Sync>;
    let list = Arc::new(Mutex::new(TodoList::default()));
    let mut registry: ToolRegistry<Handler> = ToolRegistry::new();
    let for_write = Arc::clone(&list);
    let for_read = Arc::clone(&list);
    register_todo_tools(
        &mut registry,
        Box::new(move |input: &Value| for_write.lock().unwrap().write(&input)),
        Box::new(move |_: &Value| for_read.lock().unwrap().read()),
    )
    .unwrap();
    let run = |id: &str, name: &str, input: Value| {
        block_on(registry.execute(id, name, |h| {
            let out = h(&input);
            async move { Ok(out) }
        }))
    };

    let lists = [
        json!({"todos": [todo("A", "pending", "Doing A")]}),
        json!({"todos": [todo("B", "completed", "Doing B")]}),
    ];
    std::thread::scope(|scope| {
        for (i, params) in lists.iter().enumerate() {
            let run = &run;
            scope.spawn(move || {
                let r = run(&format!("toolu_w{i}"), TODO_WRITE, params.clone());
                assert_eq!(
                    r,
                    result(
                        &format!("toolu_w{i}"),
                        r#"{"success":true,"count":1}"#,
                        false
                    )
                );
            });
        }
    });
    let r = run("toolu_read", TODO_READ, json!({}));
    assert_eq!(r.tool_use_id, "toolu_read");
    // One write replaced the other entirely: never a mix of both.
    let a = r#"{"todos":[{"content":"A","status":"pending","activeForm":"Doing A"}]}"#;
    let b = r#"{"todos":[{"content":"B","status":"completed","activeForm":"Doing B"}]}"#;
    assert!(r.content == a || r.content == b, "{}", r.content);
    assert_eq!(list.lock().unwrap().items().len(), 1);
}

// ---------------------------------------------------------------------------------------
// ResultOffload middleware
// ---------------------------------------------------------------------------------------

#[test]
fn default_threshold_is_1000() {
    assert_eq!(DEFAULT_THRESHOLD_CHARS, 1000);
    let offload = ResultOffload::new("out", "s1", "/work");
    assert_eq!(offload.threshold_chars, 1000);
    assert_eq!(offload.output_dir, "out");
    assert_eq!(offload.session_id, "s1");
    assert_eq!(offload.cwd, "/work");
}

#[test]
fn output_dir_resolves_against_cwd() {
    let cases = [
        ("out", "/work", "/work/out/s1/t.md"),
        ("./out/", "/work", "/work/out/s1/t.md"),
        ("../out", "/srv/app", "/srv/out/s1/t.md"),
        ("a/./b/../c", "/w", "/w/a/c/s1/t.md"),
        ("", "/work", "/work/s1/t.md"),
        ("/abs/dir", "/work", "/abs/dir/s1/t.md"),
        ("/", "/work", "/s1/t.md"),
    ];
    for (output_dir, cwd, path) in cases {
        let offload = ResultOffload::new(output_dir, "s1", cwd);
        let writer = MemoryWriter::new();
        let out = block_on(offload.apply(result("t", "z".repeat(1000), false), &writer)).unwrap();
        assert_eq!(
            out.content,
            format!("[Tool result offloaded to file: {path}]"),
            "{output_dir} in {cwd}"
        );
        assert_eq!(writer.read(path).map(|s| s.len()), Some(1000), "{path}");
    }
}

#[test]
fn an_unsafe_session_id_over_the_threshold_is_invalid_id() {
    for session_id in ["..", "a/b", ""] {
        let offload = ResultOffload::new("out", session_id, "/work");
        let writer = MemoryWriter::new();
        let err =
            block_on(offload.apply(result("t", "x".repeat(1000), false), &writer)).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidId, "{session_id:?}");
        assert!(writer.calls().is_empty());
    }
}
