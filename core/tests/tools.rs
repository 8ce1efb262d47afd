//! The tool registry, the TodoWrite/TodoRead pair and the offload middleware, tested
//! against the contract in the issue: exact strings (error texts, JSON outputs,
//! placeholders) are pinned verbatim because hosts and models depend on them.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use futures_executor::block_on;
use serde_json::json;
use tool_offload_core::json::stringify;
use tool_offload_core::tools::{
    register_todo_tools, valid_tool_name, RegisterError, ResultOffload, TodoList, TodoStatus,
    ToolDefinition, ToolOutput, ToolRegistry, ToolResult, DEFAULT_THRESHOLD_CHARS, TODO_READ,
    TODO_WRITE,
};
use tool_offload_core::{CreateOutcome, ErrorCode, FileWriter, IoError, MemoryWriter, Value};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

fn def(name: &str) -> ToolDefinition {
    ToolDefinition::new(name, format!("The {name} tool."), json!({"type": "object"}))
}

fn names<H>(registry: &ToolRegistry<H>) -> Vec<String> {
    registry.definitions().map(|d| d.name.clone()).collect()
}

/// `TodoList::write` on a serde_json value.
fn write(list: &mut TodoList, params: Value) -> ToolOutput {
    list.write(&&params)
}

fn todo(content: &str, status: &str, active_form: &str) -> Value {
    json!({"content": content, "status": status, "activeForm": active_form})
}

/// The error output of writing `params` to an empty list (which must stay empty).
fn write_error(params: Value) -> String {
    let mut list = TodoList::default();
    let out = write(&mut list, params.clone());
    assert!(out.is_error, "expected an error for {params}, got {out:?}");
    assert!(list.items().is_empty(), "a failed write changed the list");
    out.content
}

/// The error output of a write whose only item is `item`.
fn item_error(item: Value) -> String {
    write_error(json!({ "todos": [item] }))
}

fn status_error(index: usize, rendered: &str) -> String {
    format!(
        "Todo at index {index}: invalid status '{rendered}'. Must be one of: pending, in_progress, completed"
    )
}

fn content_error(index: usize) -> String {
    format!("Todo at index {index}: content is required and cannot be empty")
}

fn active_form_error(index: usize) -> String {
    format!("Todo at index {index}: activeForm is required and cannot be empty")
}

fn result(id: &str, content: impl Into<String>, is_error: bool) -> ToolResult {
    ToolResult {
        tool_use_id: id.into(),
        content: content.into(),
        is_error,
    }
}

/// A writer that records every call and fails the operations it is told to.
#[derive(Default)]
struct Recording {
    calls: Mutex<Vec<String>>,
    inner: MemoryWriter,
    fail_mkdir: bool,
    fail_write: bool,
}

impl Recording {
    fn calls(&self) -> Vec<String> {
        self.calls.lock().unwrap().clone()
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
            return Err(IoError::new("disk full"));
        }
        self.inner.write_file(path, data).await
    }

    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.calls.lock().unwrap().push(format!("create {path}"));
        if self.fail_write {
            return Err(IoError::new("disk full"));
        }
        self.inner.create_file(path, data).await
    }
}

// ---------------------------------------------------------------------------------------
// valid_tool_name / register
// ---------------------------------------------------------------------------------------

#[test]
fn tool_name_length_bounds() {
    assert!(!valid_tool_name(""));
    assert!(valid_tool_name("a"));
    assert!(valid_tool_name(&"a".repeat(64)));
    assert!(!valid_tool_name(&"a".repeat(65)));
}

#[test]
fn tool_name_character_set() {
    for ok in [
        "get_weather",
        "Get-Weather-2",
        "_",
        "-",
        "0",
        "AZaz09_-",
        "TodoWrite",
    ] {
        assert!(valid_tool_name(ok), "{ok:?} should be valid");
    }
    for bad in [
        "a b",
        " a",
        "a ",
        "a.b",
        "é",
        "工具",
        "a\n",
        "a\0",
        "a/b",
        "a:b",
        "a😀",
        "a\u{200B}",
    ] {
        assert!(!valid_tool_name(bad), "{bad:?} should be invalid");
    }
    // 32 × "é" is 64 bytes, 32 characters: still not in the alphabet.
    assert!(!valid_tool_name(&"é".repeat(32)));
}

#[test]
fn register_accepts_names_of_1_and_64_characters() {
    let mut registry = ToolRegistry::new();
    let long = "x".repeat(64);
    registry.register(def("a"), 1).unwrap();
    registry.register(def(&long), 2).unwrap();
    assert_eq!(names(&registry), ["a".to_owned(), long]);
}

#[test]
fn register_rejects_invalid_names_with_code_and_text() {
    let long = "a".repeat(65);
    for name in ["", long.as_str(), "a b", "a.b", "café", "工具"] {
        let mut registry = ToolRegistry::new();
        let err = registry.register(def(name), ()).unwrap_err();
        assert_eq!(err, RegisterError::InvalidName(name.to_owned()));
        assert_eq!(err.code(), "INVALID_TOOL_NAME");
        assert_eq!(
            err.to_string(),
            format!("invalid tool name {name:?}: must match ^[a-zA-Z0-9_-]{{1,64}}$")
        );
        assert_eq!(registry.definitions().count(), 0);
        assert!(registry.get(name).is_none());
    }
}

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
fn register_rejects_a_duplicate_and_keeps_the_first() {
    let mut registry = ToolRegistry::new();
    registry.register(def("echo"), "first").unwrap();
    let second = ToolDefinition::new("echo", "Another echo.", json!({"type": "object"}));
    let err = registry.register(second, "second").unwrap_err();
    assert_eq!(err, RegisterError::Duplicate("echo".into()));
    assert_eq!(err.code(), "DUPLICATE_TOOL");
    assert_eq!(err.to_string(), r#"tool "echo" is already registered"#);

    assert_eq!(names(&registry), ["echo"]);
    let (definition, handler) = registry.get("echo").unwrap();
    assert_eq!(*handler, "first");
    assert_eq!(definition.description, "The echo tool.");
}

#[test]
fn names_are_case_sensitive() {
    let mut registry = ToolRegistry::new();
    registry.register(def("echo"), 1).unwrap();
    registry.register(def("Echo"), 2).unwrap();
    assert_eq!(names(&registry), ["echo", "Echo"]);
    assert_eq!(registry.get("Echo").map(|(_, h)| *h), Some(2));
    assert!(registry.get("ECHO").is_none());
}

#[test]
fn register_rejects_a_non_object_input_schema() {
    for schema in [
        json!(null),
        json!([]),
        json!("object"),
        json!(true),
        json!(1),
        json!([{"type": "object"}]),
    ] {
        let mut registry = ToolRegistry::new();
        registry.register(def("before"), 0).unwrap();
        let err = registry
            .register(ToolDefinition::new("t", "d", schema.clone()), 1)
            .unwrap_err();
        assert!(
            matches!(err, RegisterError::InvalidDefinition(_)),
            "{schema}: {err:?}"
        );
        assert_eq!(err.code(), "INVALID_TOOL_DEFINITION");
        assert_eq!(
            err.to_string(),
            "invalid tool definition: input_schema must be a JSON Schema object"
        );
        assert_eq!(names(&registry), ["before"]);
        assert!(registry.get("t").is_none());
    }
}

#[test]
fn register_accepts_an_empty_object_schema() {
    let mut registry = ToolRegistry::new();
    registry
        .register(ToolDefinition::new("t", "d", json!({})), ())
        .unwrap();
    assert_eq!(names(&registry), ["t"]);
}

#[test]
fn failed_registrations_leave_the_registry_usable_and_ordered() {
    let mut registry = ToolRegistry::new();
    registry.register(def("a"), 'a').unwrap();
    assert!(registry.register(def("bad name"), 'x').is_err());
    assert!(registry.register(def("a"), 'y').is_err());
    assert!(registry
        .register(ToolDefinition::new("c", "d", json!(null)), 'z')
        .is_err());
    registry.register(def("b"), 'b').unwrap();
    // "c" was refused for its schema, so the name is still free.
    registry.register(def("c"), 'c').unwrap();
    assert_eq!(names(&registry), ["a", "b", "c"]);
    let handlers: Vec<char> = ["a", "b", "c"]
        .iter()
        .map(|n| *registry.get(n).unwrap().1)
        .collect();
    assert_eq!(handlers, ['a', 'b', 'c']);
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

#[test]
fn definitions_are_in_registration_order() {
    let mut registry = ToolRegistry::new();
    for name in ["zeta", "alpha", "mid", "Beta"] {
        registry.register(def(name), ()).unwrap();
    }
    assert_eq!(names(&registry), ["zeta", "alpha", "mid", "Beta"]);
    assert_eq!(ToolRegistry::<()>::default().definitions().count(), 0);
}

#[test]
fn definition_to_value_has_name_description_schema_in_order() {
    let definition = ToolDefinition::new(
        "get_weather",
        "Current weather for a city.",
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    );
    assert_eq!(
        stringify(&definition.to_value()),
        r#"{"name":"get_weather","description":"Current weather for a city.","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}"#
    );
}

#[test]
fn definitions_serialise_as_the_api_tools_array() {
    let mut registry = ToolRegistry::new();
    registry.register(def("b"), ()).unwrap();
    registry.register(def("a"), ()).unwrap();
    let tools = Value::Array(registry.definitions().map(|d| d.to_value()).collect());
    assert_eq!(
        stringify(&tools),
        r#"[{"name":"b","description":"The b tool.","input_schema":{"type":"object"}},{"name":"a","description":"The a tool.","input_schema":{"type":"object"}}]"#
    );
}

// ---------------------------------------------------------------------------------------
// execute / ToolResult
// ---------------------------------------------------------------------------------------

#[test]
fn tool_result_to_value_omits_is_error_when_false() {
    assert_eq!(
        stringify(&result("toolu_1", "hi", false).to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_1","content":"hi"}"#
    );
    assert_eq!(
        stringify(&result("toolu_1", "bad", true).to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_1","content":"bad","is_error":true}"#
    );
}

#[test]
fn not_found_result_is_exact() {
    let r = ToolResult::not_found("toolu_x", "nope");
    assert_eq!(r, result("toolu_x", "Tool 'nope' not found", true));
    assert_eq!(
        stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_x","content":"Tool 'nope' not found","is_error":true}"#
    );
}

#[test]
fn execute_unknown_name_does_not_call_the_handler() {
    let mut registry = ToolRegistry::new();
    registry.register(def("echo"), ()).unwrap();
    let called = Cell::new(false);
    let r = block_on(registry.execute("toolu_42", "Echo", |_| {
        called.set(true);
        async { Ok(ToolOutput::ok("should not happen")) }
    }));
    assert!(!called.get());
    assert_eq!(
        stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_42","content":"Tool 'Echo' not found","is_error":true}"#
    );
}

#[test]
fn execute_on_an_empty_registry_is_not_found() {
    let registry = ToolRegistry::<()>::new();
    let r = block_on(registry.execute("id-1", "", |_| async { Ok(ToolOutput::ok("x")) }));
    assert_eq!(r, result("id-1", "Tool '' not found", true));
}

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
fn execute_passes_content_and_is_error_through() {
    let mut registry = ToolRegistry::new();
    registry.register(def("t"), ()).unwrap();
    let ok = block_on(registry.execute("toolu_ok", "t", |_| async {
        Ok(ToolOutput::ok("line 1\nline \"2\""))
    }));
    assert_eq!(ok, result("toolu_ok", "line 1\nline \"2\"", false));
    assert_eq!(
        stringify(&ok.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_ok","content":"line 1\nline \"2\""}"#
    );

    let failed = block_on(registry.execute("toolu_bad", "t", |_| async {
        Ok(ToolOutput::error("City not found"))
    }));
    assert_eq!(failed, result("toolu_bad", "City not found", true));
    assert_eq!(
        stringify(&failed.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_bad","content":"City not found","is_error":true}"#
    );

    let empty = block_on(registry.execute("toolu_e", "t", |_| async { Ok(ToolOutput::ok("")) }));
    assert_eq!(
        stringify(&empty.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_e","content":""}"#
    );
}

#[test]
fn execute_turns_a_reported_error_into_an_error_result() {
    let mut registry = ToolRegistry::new();
    registry.register(def("t"), ()).unwrap();
    let r = block_on(registry.execute("toolu_7", "t", |_| async {
        Err("TypeError: cannot read properties of undefined".to_owned())
    }));
    assert_eq!(
        r,
        result(
            "toolu_7",
            "TypeError: cannot read properties of undefined",
            true
        )
    );
    assert_eq!(
        stringify(&r.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_7","content":"TypeError: cannot read properties of undefined","is_error":true}"#
    );
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

#[test]
fn execute_keeps_the_tool_use_id_on_every_path() {
    let mut registry = ToolRegistry::new();
    registry.register(def("ok"), 0).unwrap();
    registry.register(def("soft"), 1).unwrap();
    registry.register(def("hard"), 2).unwrap();
    let run = |id: &str, name: &str| {
        block_on(registry.execute(id, name, |h: &i32| {
            let out = match *h {
                0 => Ok(ToolOutput::ok("fine")),
                1 => Ok(ToolOutput::error("soft failure")),
                _ => Err("hard failure".to_owned()),
            };
            async move { out }
        }))
    };
    for id in ["toolu_01A", "call_abc", "", "../weird id", "😀"] {
        for name in ["ok", "soft", "hard", "missing"] {
            let r = run(id, name);
            assert_eq!(r.tool_use_id, id, "{name}");
            assert_eq!(r.to_value()["tool_use_id"], id, "{name}");
        }
        assert_eq!(run(id, "ok"), result(id, "fine", false));
        assert_eq!(run(id, "soft"), result(id, "soft failure", true));
        assert_eq!(run(id, "hard"), result(id, "hard failure", true));
        assert_eq!(
            run(id, "missing"),
            result(id, "Tool 'missing' not found", true)
        );
    }
}

#[test]
fn execute_awaits_an_async_handler() {
    type Handler = Box<dyn Fn(Value) -> Pin<Box<dyn Future<Output = Result<ToolOutput, String>>>>>;
    let mut registry: ToolRegistry<Handler> = ToolRegistry::new();
    registry
        .register(
            def("shout"),
            Box::new(|input: Value| {
                Box::pin(async move {
                    match input["text"].as_str() {
                        Some(text) => Ok(ToolOutput::ok(text.to_uppercase())),
                        None => Err("text missing".to_owned()),
                    }
                })
            }),
        )
        .unwrap();
    let r = block_on(registry.execute("toolu_s", "shout", |h| h(json!({"text": "hey"}))));
    assert_eq!(r, result("toolu_s", "HEY", false));
    let r = block_on(registry.execute("toolu_t", "shout", |h| h(json!({}))));
    assert_eq!(r, result("toolu_t", "text missing", true));
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

#[test]
fn read_of_an_empty_list_is_an_empty_array() {
    let list = TodoList::default();
    assert_eq!(list.read(), ToolOutput::ok(r#"{"todos":[]}"#));
}

#[test]
fn write_replaces_the_list_and_reports_the_count() {
    let mut list = TodoList::default();
    let out = write(
        &mut list,
        json!({"todos": [
            todo("Plan", "completed", "Planning"),
            todo("Build", "in_progress", "Building"),
            todo("Ship", "pending", "Shipping"),
        ]}),
    );
    assert_eq!(out, ToolOutput::ok(r#"{"success":true,"count":3}"#));
    assert_eq!(
        list.read(),
        ToolOutput::ok(
            r#"{"todos":[{"content":"Plan","status":"completed","activeForm":"Planning"},{"content":"Build","status":"in_progress","activeForm":"Building"},{"content":"Ship","status":"pending","activeForm":"Shipping"}]}"#
        )
    );
    let statuses: Vec<TodoStatus> = list.items().iter().map(|t| t.status).collect();
    assert_eq!(
        statuses,
        [
            TodoStatus::Completed,
            TodoStatus::InProgress,
            TodoStatus::Pending
        ]
    );
    assert_eq!(list.items()[1].content, "Build");
    assert_eq!(list.items()[1].active_form, "Building");

    // A second write replaces everything; nothing is merged.
    let out = write(
        &mut list,
        json!({"todos": [todo("Only", "pending", "Doing only")]}),
    );
    assert_eq!(out.content, r#"{"success":true,"count":1}"#);
    assert_eq!(
        list.read().content,
        r#"{"todos":[{"content":"Only","status":"pending","activeForm":"Doing only"}]}"#
    );
}

#[test]
fn writing_an_empty_array_clears_the_list() {
    let mut list = TodoList::default();
    write(&mut list, json!({"todos": [todo("a", "pending", "b")]}));
    let out = write(&mut list, json!({"todos": []}));
    assert_eq!(out, ToolOutput::ok(r#"{"success":true,"count":0}"#));
    assert!(list.items().is_empty());
    assert_eq!(list.read(), ToolOutput::ok(r#"{"todos":[]}"#));
}

#[test]
fn read_emits_exactly_content_status_active_form_in_order() {
    let mut list = TodoList::default();
    let out = write(
        &mut list,
        json!({"todos": [{
            "activeForm": "Testing",
            "priority": "high",
            "id": "1",
            "status": "pending",
            "content": "Test",
            "extra": {"nested": true}
        }], "other": "ignored"}),
    );
    assert_eq!(out.content, r#"{"success":true,"count":1}"#);
    assert_eq!(
        list.read().content,
        r#"{"todos":[{"content":"Test","status":"pending","activeForm":"Testing"}]}"#
    );
}

#[test]
fn one_character_fields_are_valid_and_text_is_kept_verbatim() {
    let mut list = TodoList::default();
    let out = write(
        &mut list,
        json!({"todos": [
            todo("x", "pending", "y"),
            todo("  padded  ", "completed", "\tpadded\n"),
        ]}),
    );
    assert_eq!(out.content, r#"{"success":true,"count":2}"#);
    assert_eq!(list.items()[0].content, "x");
    assert_eq!(list.items()[0].active_form, "y");
    // Validation trims; storage does not.
    assert_eq!(list.items()[1].content, "  padded  ");
    assert_eq!(list.items()[1].active_form, "\tpadded\n");
}

#[test]
fn read_escapes_like_json_stringify() {
    let mut list = TodoList::default();
    write(
        &mut list,
        json!({"todos": [todo("say \"hi\"\n\\ é 😀 \u{2028}", "pending", "a\u{1}")]}),
    );
    assert_eq!(
        list.read().content,
        "{\"todos\":[{\"content\":\"say \\\"hi\\\"\\n\\\\ é 😀 \u{2028}\",\"status\":\"pending\",\"activeForm\":\"a\\u0001\"}]}"
    );
}

#[test]
fn characters_js_trim_keeps_make_valid_content() {
    // U+0085 is not whitespace for JavaScript (Rust's trim removes it); U+200B and
    // U+180E are format characters, not whitespace.
    for text in ["\u{85}", "\u{200B}", "\u{180E}", "\u{85}\u{85}"] {
        let mut list = TodoList::default();
        let out = write(&mut list, json!({"todos": [todo(text, "pending", text)]}));
        assert_eq!(
            out,
            ToolOutput::ok(r#"{"success":true,"count":1}"#),
            "{text:?}"
        );
        assert_eq!(list.items()[0].content, text);
        assert_eq!(list.items()[0].active_form, text);
    }
}

// ---------------------------------------------------------------------------------------
// TodoWrite: validation
// ---------------------------------------------------------------------------------------

#[test]
fn missing_todos_is_required() {
    for params in [
        json!({}),
        json!({"todo": []}),
        json!({"Todos": []}),
        json!(null),
        json!([]),
        json!([[]]),
        json!("todos"),
        json!(42),
        json!(true),
    ] {
        assert_eq!(
            write_error(params.clone()),
            "'todos' array is required",
            "{params}"
        );
    }
}

#[test]
fn non_array_todos_must_be_an_array() {
    for todos in [
        json!({}),
        json!({"0": todo("a", "pending", "b")}),
        json!("[]"),
        json!(1),
        json!(true),
    ] {
        assert_eq!(
            write_error(json!({ "todos": todos })),
            "'todos' must be an array",
            "{todos}"
        );
    }
}

#[test]
fn blank_or_missing_content_is_refused() {
    let blanks = [
        json!(""),
        json!("   "),
        json!("\t\n"),
        json!("\u{FEFF}"),
        json!("\u{A0}\u{3000}\u{2028}\u{2029}\u{B}\u{C}\r"),
        json!("\u{1680}\u{2000}\u{200A}\u{202F}\u{205F}"),
        json!(null),
        json!(42),
        json!(["a"]),
        json!({"text": "a"}),
        json!(true),
    ];
    for content in blanks {
        assert_eq!(
            item_error(json!({"content": content, "status": "pending", "activeForm": "Doing"})),
            content_error(0),
            "{content}"
        );
    }
    assert_eq!(
        item_error(json!({"status": "pending", "activeForm": "Doing"})),
        content_error(0)
    );
    assert_eq!(
        content_error(0),
        "Todo at index 0: content is required and cannot be empty"
    );
}

#[test]
fn blank_or_missing_active_form_is_refused() {
    let blanks = [
        json!(""),
        json!("   "),
        json!("\t\n"),
        json!("\u{FEFF}"),
        json!(null),
        json!(7),
        json!(["Doing"]),
    ];
    for active_form in blanks {
        assert_eq!(
            item_error(json!({"content": "Do", "status": "pending", "activeForm": active_form})),
            active_form_error(0),
            "{active_form}"
        );
    }
    assert_eq!(
        item_error(json!({"content": "Do", "status": "pending"})),
        active_form_error(0)
    );
    // The field name is camelCase; the Rust-style spelling does not count.
    assert_eq!(
        item_error(json!({"content": "Do", "status": "pending", "active_form": "Doing"})),
        active_form_error(0)
    );
    assert_eq!(
        active_form_error(0),
        "Todo at index 0: activeForm is required and cannot be empty"
    );
}

#[test]
fn invalid_status_is_rendered_like_js_string() {
    let cases = [
        (json!(null), "null"),
        (json!(42), "42"),
        (json!(1.5), "1.5"),
        (json!(-3), "-3"),
        (json!(0.1), "0.1"),
        (json!(1e21), "1e+21"),
        (json!(-0.0), "0"),
        (json!(true), "true"),
        (json!(false), "false"),
        (json!("done"), "done"),
        (json!("Pending"), "Pending"),
        (json!("PENDING"), "PENDING"),
        (json!(" pending"), " pending"),
        (json!("in-progress"), "in-progress"),
        (json!(""), ""),
        (json!(["a", "b"]), "a,b"),
        (json!([["a", "b"], "c"]), "a,b,c"),
        (json!([null, 1, "x"]), ",1,x"),
        (json!(["pending"]), "pending"),
        (json!([]), ""),
        (json!({}), "[object Object]"),
        (json!({"status": "pending"}), "[object Object]"),
        (json!([{}]), "[object Object]"),
    ];
    for (status, rendered) in cases {
        assert_eq!(
            item_error(json!({"content": "Do", "status": status, "activeForm": "Doing"})),
            status_error(0, rendered),
            "{status}"
        );
    }
}

#[test]
fn missing_status_is_rendered_as_undefined() {
    assert_eq!(
        item_error(json!({"content": "Do", "activeForm": "Doing"})),
        "Todo at index 0: invalid status 'undefined'. Must be one of: pending, in_progress, completed"
    );
}

#[test]
fn invalid_status_text_is_exact() {
    assert_eq!(
        item_error(todo("Do", "done", "Doing")),
        "Todo at index 0: invalid status 'done'. Must be one of: pending, in_progress, completed"
    );
}

#[test]
fn non_object_items_fail_on_content() {
    for item in [
        json!("Plan"),
        json!(null),
        json!(1),
        json!([]),
        json!(["Plan", "pending", "Planning"]),
    ] {
        assert_eq!(item_error(item.clone()), content_error(0), "{item}");
    }
    assert_eq!(
        write_error(json!({"todos": [todo("ok", "pending", "ok"), null]})),
        "Todo at index 1: content is required and cannot be empty"
    );
}

#[test]
fn checks_within_an_item_run_content_status_active_form() {
    // Everything wrong: content is reported.
    assert_eq!(item_error(json!({"status": "bad"})), content_error(0));
    assert_eq!(
        item_error(json!({"content": "", "status": "bad", "activeForm": ""})),
        content_error(0)
    );
    // Content fine, status and activeForm wrong: status is reported.
    assert_eq!(
        item_error(json!({"content": "Do", "status": "bad", "activeForm": ""})),
        status_error(0, "bad")
    );
    assert_eq!(
        item_error(json!({"content": "Do"})),
        status_error(0, "undefined")
    );
}

#[test]
fn earlier_items_are_reported_first() {
    let params = json!({"todos": [
        {"content": "Do", "status": "pending", "activeForm": ""},
        {"content": "", "status": "pending", "activeForm": "Doing"},
    ]});
    assert_eq!(write_error(params), active_form_error(0));

    let params = json!({"todos": [
        todo("a", "pending", "A"),
        todo("b", "completed", "B"),
        {"content": "c", "status": "later", "activeForm": ""},
        {"status": "nope"},
    ]});
    assert_eq!(
        write_error(params),
        "Todo at index 2: invalid status 'later'. Must be one of: pending, in_progress, completed"
    );

    let params = json!({"todos": [
        todo("a", "pending", "A"),
        todo("b", "pending", "B"),
        todo("c", "pending", "C"),
        todo("d", "pending", "D"),
        todo("e", "pending", "E"),
        todo("f", "pending", "F"),
        todo("g", "pending", "G"),
        todo("h", "pending", "H"),
        todo("i", "pending", "I"),
        todo("j", "pending", "J"),
        todo("k", "pending", " "),
    ]});
    assert_eq!(
        write_error(params),
        "Todo at index 10: activeForm is required and cannot be empty"
    );
}

#[test]
fn a_failed_write_leaves_the_list_unchanged() {
    let mut list = TodoList::default();
    let first = json!({"todos": [
        todo("Plan", "completed", "Planning"),
        todo("Build", "in_progress", "Building"),
    ]});
    assert_eq!(
        write(&mut list, first).content,
        r#"{"success":true,"count":2}"#
    );
    let before_items = list.items().to_vec();
    let before_read = list.read();

    let invalid = [
        json!({}),
        json!({"todos": "nope"}),
        json!({"todos": [todo("New", "pending", "Newing"), {"content": ""}]}),
        json!({"todos": [todo("New", "pending", "Newing"), todo("x", "done", "y")]}),
        json!({"todos": [todo("New", "pending", "Newing"), todo("x", "pending", "")]}),
    ];
    for params in invalid {
        let out = write(&mut list, params.clone());
        assert!(out.is_error, "{params}");
        assert_eq!(list.items(), before_items.as_slice(), "{params}");
        assert_eq!(list.read(), before_read, "{params}");
    }
    assert_eq!(
        list.read().content,
        r#"{"todos":[{"content":"Plan","status":"completed","activeForm":"Planning"},{"content":"Build","status":"in_progress","activeForm":"Building"}]}"#
    );
}

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

#[test]
fn register_todo_tools_registers_write_then_read() {
    let mut registry = ToolRegistry::new();
    registry.register(def("first"), "f").unwrap();
    register_todo_tools(&mut registry, "w", "r").unwrap();
    assert_eq!(names(&registry), ["first", "TodoWrite", "TodoRead"]);
    let (write_def, write_handler) = registry.get(TODO_WRITE).unwrap();
    assert_eq!(write_def, &TodoList::write_definition());
    assert_eq!(*write_handler, "w");
    let (read_def, read_handler) = registry.get(TODO_READ).unwrap();
    assert_eq!(read_def, &TodoList::read_definition());
    assert_eq!(*read_handler, "r");
}

#[test]
fn register_todo_tools_twice_is_a_duplicate() {
    let mut registry = ToolRegistry::new();
    register_todo_tools(&mut registry, 1, 2).unwrap();
    let err = register_todo_tools(&mut registry, 3, 4).unwrap_err();
    assert_eq!(err, RegisterError::Duplicate("TodoWrite".into()));
    assert_eq!(err.code(), "DUPLICATE_TOOL");
    assert_eq!(err.to_string(), r#"tool "TodoWrite" is already registered"#);
    assert_eq!(names(&registry), ["TodoWrite", "TodoRead"]);
    assert_eq!(registry.get(TODO_WRITE).map(|(_, h)| *h), Some(1));
    assert_eq!(registry.get(TODO_READ).map(|(_, h)| *h), Some(2));
}

#[test]
fn register_todo_tools_registers_neither_when_read_is_taken() {
    let mut registry = ToolRegistry::new();
    registry.register(def("TodoRead"), 0).unwrap();
    let err = register_todo_tools(&mut registry, 1, 2).unwrap_err();
    assert_eq!(err, RegisterError::Duplicate("TodoRead".into()));
    assert_eq!(names(&registry), ["TodoRead"]);
    assert!(registry.get(TODO_WRITE).is_none());
    assert_eq!(registry.get(TODO_READ).map(|(_, h)| *h), Some(0));
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

#[test]
fn todo_read_through_execute_then_offload() {
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
    let todos: Vec<Value> = (0..40)
        .map(|i| todo(&format!("Task {i}"), "pending", &format!("Doing task {i}")))
        .collect();
    run_sync(&registry, "toolu_w", TODO_WRITE, json!({ "todos": todos }));
    let read = run_sync(&registry, "toolu_r", TODO_READ, json!({}));
    assert!(read.content.len() >= DEFAULT_THRESHOLD_CHARS);
    let original = read.content.clone();

    let writer = MemoryWriter::new();
    let offload = ResultOffload::new("out", "s1", "/work");
    let slim = block_on(offload.apply(read, &writer)).unwrap();
    assert_eq!(
        slim,
        result(
            "toolu_r",
            "[Tool result offloaded to file: /work/out/s1/toolu_r.md]",
            false
        )
    );
    assert_eq!(writer.read("/work/out/s1/toolu_r.md"), Some(original));
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
fn under_the_threshold_is_unchanged_and_nothing_is_written() {
    let offload = ResultOffload::new("out", "s1", "/work");
    for content in [String::new(), "short".into(), "x".repeat(999)] {
        for is_error in [false, true] {
            let writer = Recording::default();
            let input = result("toolu_1", content.clone(), is_error);
            let out = block_on(offload.apply(input.clone(), &writer)).unwrap();
            assert_eq!(out, input);
            assert!(writer.calls().is_empty(), "{:?}", writer.calls());
        }
    }
}

#[test]
fn at_the_threshold_is_offloaded() {
    let offload = ResultOffload::new("out", "s1", "/work");
    let writer = Recording::default();
    let content = "x".repeat(1000);
    let out = block_on(offload.apply(result("toolu_1", content.clone(), false), &writer)).unwrap();
    assert_eq!(
        out,
        result(
            "toolu_1",
            "[Tool result offloaded to file: /work/out/s1/toolu_1.md]",
            false
        )
    );
    assert_eq!(
        writer.calls(),
        ["mkdir /work/out/s1", "write /work/out/s1/toolu_1.md"]
    );
    assert_eq!(writer.inner.read("/work/out/s1/toolu_1.md"), Some(content));
    assert_eq!(writer.inner.files().len(), 1);
}

#[test]
fn threshold_counts_utf16_units() {
    let offload = ResultOffload::new("out", "s1", "/work");

    // 500 emoji: 500 code points, 2000 bytes, 1000 UTF-16 units → offloaded.
    let writer = MemoryWriter::new();
    let emoji = "😀".repeat(500);
    let out = block_on(offload.apply(result("t", emoji.clone(), false), &writer)).unwrap();
    assert_eq!(
        out.content,
        "[Tool result offloaded to file: /work/out/s1/t.md]"
    );
    assert_eq!(writer.read("/work/out/s1/t.md"), Some(emoji));

    // 499 emoji + "a": 999 units (though 1997 bytes) → kept.
    let writer = MemoryWriter::new();
    let under = format!("{}a", "😀".repeat(499));
    let input = result("t", under, false);
    let out = block_on(offload.apply(input.clone(), &writer)).unwrap();
    assert_eq!(out, input);
    assert!(writer.files().is_empty());

    // 999 "é": 1998 bytes, 999 units → kept; 1000 → offloaded.
    let writer = MemoryWriter::new();
    let input = result("t", "é".repeat(999), false);
    assert_eq!(
        block_on(offload.apply(input.clone(), &writer)).unwrap(),
        input
    );
    let out = block_on(offload.apply(result("t", "é".repeat(1000), false), &writer)).unwrap();
    assert_eq!(
        out.content,
        "[Tool result offloaded to file: /work/out/s1/t.md]"
    );
}

#[test]
fn custom_threshold() {
    let mut offload = ResultOffload::new("/o", "s", "/work");
    offload.threshold_chars = 10;
    let writer = MemoryWriter::new();
    let input = result("id", "123456789", false);
    assert_eq!(
        block_on(offload.apply(input.clone(), &writer)).unwrap(),
        input
    );
    assert!(writer.files().is_empty());
    let out = block_on(offload.apply(result("id", "1234567890", false), &writer)).unwrap();
    assert_eq!(out.content, "[Tool result offloaded to file: /o/s/id.md]");
    assert_eq!(writer.read("/o/s/id.md").as_deref(), Some("1234567890"));
}

#[test]
fn offloaded_file_holds_the_content_byte_for_byte() {
    let offload = ResultOffload::new("out", "s1", "/work");
    let writer = MemoryWriter::new();
    let content = format!(
        "{}\r\n\"quoted\" \\ \u{2028} \u{FEFF}é😀\t\0end  ",
        "line\n".repeat(300)
    );
    let out = block_on(offload.apply(result("toolu_b", content.clone(), false), &writer)).unwrap();
    assert_eq!(
        out.content,
        "[Tool result offloaded to file: /work/out/s1/toolu_b.md]"
    );
    assert_eq!(
        writer
            .read("/work/out/s1/toolu_b.md")
            .map(String::into_bytes),
        Some(content.into_bytes())
    );
}

#[test]
fn content_that_looks_like_json_is_written_as_text() {
    let offload = ResultOffload::new("out", "s1", "/work");
    let writer = MemoryWriter::new();
    let content = format!("[{}]", "{\"a\":1.0},".repeat(200).trim_end_matches(','));
    block_on(offload.apply(result("j", content.clone(), false), &writer)).unwrap();
    assert_eq!(writer.read("/work/out/s1/j.md"), Some(content));
}

#[test]
fn error_results_are_offloaded_and_keep_is_error() {
    let offload = ResultOffload::new("out", "s1", "/work");
    let writer = MemoryWriter::new();
    let content = "E".repeat(1500);
    let out = block_on(offload.apply(result("toolu_e", content.clone(), true), &writer)).unwrap();
    assert_eq!(
        out,
        result(
            "toolu_e",
            "[Tool result offloaded to file: /work/out/s1/toolu_e.md]",
            true
        )
    );
    assert_eq!(
        stringify(&out.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_e","content":"[Tool result offloaded to file: /work/out/s1/toolu_e.md]","is_error":true}"#
    );
    assert_eq!(writer.read("/work/out/s1/toolu_e.md"), Some(content));
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
fn the_same_id_overwrites_its_file() {
    let offload = ResultOffload::new("out", "s1", "/work");
    let writer = MemoryWriter::new();
    block_on(offload.apply(result("t", "a".repeat(1000), false), &writer)).unwrap();
    block_on(offload.apply(result("t", "b".repeat(1000), false), &writer)).unwrap();
    assert_eq!(writer.read("/work/out/s1/t.md"), Some("b".repeat(1000)));
    assert_eq!(writer.files().len(), 1);
}

#[test]
fn a_failing_write_is_write_failed() {
    let offload = ResultOffload::new("out", "s1", "/work");
    let writer = Recording {
        fail_write: true,
        ..Recording::default()
    };
    let content = "x".repeat(1000);
    let err = block_on(offload.apply(result("toolu_1", content, false), &writer)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::WriteFailed);
    assert_eq!(err.code().as_str(), "WRITE_FAILED");
    assert_eq!(
        err.to_string(),
        "failed to write /work/out/s1/toolu_1.md: disk full"
    );
    assert_eq!(
        writer.calls(),
        ["mkdir /work/out/s1", "write /work/out/s1/toolu_1.md"]
    );
    assert!(writer.inner.files().is_empty());
}

#[test]
fn a_failing_mkdir_is_write_failed_and_nothing_is_written() {
    let offload = ResultOffload::new("out", "s1", "/work");
    let writer = Recording {
        fail_mkdir: true,
        ..Recording::default()
    };
    let err =
        block_on(offload.apply(result("toolu_1", "x".repeat(2000), true), &writer)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::WriteFailed);
    assert_eq!(
        err.to_string(),
        "failed to write /work/out/s1: permission denied"
    );
    assert_eq!(writer.calls(), ["mkdir /work/out/s1"]);
}

#[test]
fn a_failing_writer_does_not_matter_under_the_threshold() {
    let offload = ResultOffload::new("out", "s1", "/work");
    let writer = Recording {
        fail_mkdir: true,
        fail_write: true,
        ..Recording::default()
    };
    let input = result("toolu_1", "x".repeat(999), false);
    assert_eq!(
        block_on(offload.apply(input.clone(), &writer)).unwrap(),
        input
    );
    assert!(writer.calls().is_empty());
}

#[test]
fn an_unsafe_tool_use_id_over_the_threshold_is_invalid_id() {
    let offload = ResultOffload::new("out", "s1", "/work");
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
        let err =
            block_on(offload.apply(result(id, "x".repeat(1000), false), &writer)).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidId, "{id:?}");
        assert_eq!(err.code().as_str(), "INVALID_ID");
        assert!(err.to_string().contains("tool_use_id"), "{err}");
        assert!(writer.calls().is_empty(), "{id:?}: {:?}", writer.calls());
    }
    // 252 bytes + ".md" is the longest file name allowed.
    let writer = MemoryWriter::new();
    let longest = "a".repeat(252);
    block_on(offload.apply(result(&longest, "x".repeat(1000), false), &writer)).unwrap();
    assert!(writer.read(&format!("/work/out/s1/{longest}.md")).is_some());
}

#[test]
fn an_unsafe_session_id_over_the_threshold_is_invalid_id() {
    for session_id in ["..", "a/b", ""] {
        let offload = ResultOffload::new("out", session_id, "/work");
        let writer = Recording::default();
        let err =
            block_on(offload.apply(result("t", "x".repeat(1000), false), &writer)).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidId, "{session_id:?}");
        assert!(writer.calls().is_empty());
    }
}

#[test]
fn the_middleware_follows_execute() {
    let mut registry = ToolRegistry::new();
    registry.register(def("logs"), ()).unwrap();
    let offload = ResultOffload::new("artifacts", "sess", "/home/me");
    let writer = MemoryWriter::new();
    let log = "log line\n".repeat(200);
    let executed = block_on(registry.execute("toolu_L", "logs", |_| {
        let log = log.clone();
        async move { Ok(ToolOutput::ok(log)) }
    }));
    let slim = block_on(offload.apply(executed, &writer)).unwrap();
    assert_eq!(
        stringify(&slim.to_value()),
        r#"{"type":"tool_result","tool_use_id":"toolu_L","content":"[Tool result offloaded to file: /home/me/artifacts/sess/toolu_L.md]"}"#
    );
    assert_eq!(writer.read("/home/me/artifacts/sess/toolu_L.md"), Some(log));

    // A not-found result is short and passes through untouched.
    let missing =
        block_on(registry.execute("toolu_M", "nope", |_| async { Ok(ToolOutput::ok("")) }));
    let out = block_on(offload.apply(missing.clone(), &writer)).unwrap();
    assert_eq!(out, missing);
}
