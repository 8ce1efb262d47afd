//! Behaviour of `offload_tool_result` that the shared conformance vectors cannot see:
//! exact error texts and sources, call order against the writer, input immutability,
//! UTF-16 accounting and key order of OpenAI messages.

use std::error::Error as _;
use std::sync::Mutex;

use futures_executor::block_on;
use serde_json::json;
use tool_offload_core::{
    offload_tool_result, CreateOutcome, DirectOffload, ErrorCode, FileWriter, IoError,
    MemoryWriter, OffloadError, Value,
};

/// One call the core made on a writer.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Call {
    Mkdir(String),
    Write(String, String),
    Create(String, String),
}

/// A writer that records every call and fails on request. Successful calls are
/// forwarded to an inner [`MemoryWriter`].
#[derive(Default)]
struct Recording {
    calls: Mutex<Vec<Call>>,
    inner: MemoryWriter,
    fail_mkdir: Option<&'static str>,
    fail_write: Option<(&'static str, &'static str)>,
}

impl Recording {
    fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap().clone()
    }
}

impl FileWriter for Recording {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.calls.lock().unwrap().push(Call::Mkdir(dir.to_owned()));
        if let Some(message) = self.fail_mkdir {
            return Err(IoError::new(message));
        }
        self.inner.mkdir(dir).await
    }

    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.calls
            .lock()
            .unwrap()
            .push(Call::Write(path.to_owned(), data.to_owned()));
        if let Some((fail_path, message)) = self.fail_write {
            if path == fail_path {
                return Err(IoError::new(message));
            }
        }
        self.inner.write_file(path, data).await
    }

    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.calls
            .lock()
            .unwrap()
            .push(Call::Create(path.to_owned(), data.to_owned()));
        if let Some((fail_path, message)) = self.fail_write {
            if path == fail_path {
                return Err(IoError::new(message));
            }
        }
        self.inner.create_file(path, data).await
    }
}

fn run(message: &Value, session_id: &str) -> Result<DirectOffload, OffloadError> {
    block_on(offload_tool_result(
        message,
        session_id,
        "out",
        "/work",
        &MemoryWriter::new(),
    ))
}

fn anthropic(blocks: Value) -> Value {
    json!({"role": "user", "content": blocks})
}

fn block(id: &str, content: Value) -> Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": content})
}

/// `to_string` of a `Value` keeps key order (unlike `Value`'s `PartialEq`, which
/// ignores it), so this is "identical, byte for byte".
fn exact(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

/// `err` is WRITE_FAILED for `path`, with the writer's `message` verbatim.
fn assert_write_failed(err: &OffloadError, path: &str, message: &str) {
    assert_eq!(err.code(), ErrorCode::WriteFailed);
    assert_eq!(
        err.to_string(),
        format!("failed to write {path}: {message}")
    );
    match err {
        OffloadError::WriteFailed { path: p, source } => {
            assert_eq!(p, path);
            assert_eq!(source.message(), message);
        }
        other => panic!("expected WriteFailed, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// Exact error texts
// ---------------------------------------------------------------------------------------

#[test]
fn no_tool_result_display() {
    let err = run(&anthropic(json!([{"type": "text", "text": "hi"}])), "s1").unwrap_err();
    assert_eq!(err.code(), ErrorCode::NoToolResult);
    assert_eq!(err.code().as_str(), "NO_TOOL_RESULT");
    assert_eq!(
        err.to_string(),
        "message has no tool result: expected a \"tool_result\" content block (Anthropic), \
         a message with role \"tool\" (OpenAI Chat) or a \"function_call_output\" item \
         (OpenAI Responses)"
    );
    assert!(err.source().is_none());
}

#[test]
fn invalid_session_id_dotdot_display() {
    let err = run(&anthropic(json!([block("t1", json!("x"))])), "..").unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidId);
    assert_eq!(
        err.to_string(),
        r#"invalid sessionId "..": is a relative path component ("." or "..")"#
    );
    assert!(err.source().is_none());
}

#[test]
fn missing_tool_use_id_display() {
    let message = anthropic(json!([{"type": "tool_result", "content": "x"}]));
    let err = run(&message, "s1").unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidId);
    assert_eq!(
        err.to_string(),
        "invalid content[0].tool_use_id: is missing"
    );
}

#[test]
fn non_string_tool_use_id_display_names_the_block_index() {
    let message = anthropic(json!([
        {"type": "text", "text": "before"},
        {"type": "tool_result", "tool_use_id": 7, "content": "x"}
    ]));
    let err = run(&message, "s1").unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidId);
    assert_eq!(
        err.to_string(),
        "invalid content[1].tool_use_id: must be a string"
    );

    let first = anthropic(json!([{"type": "tool_result", "tool_use_id": null, "content": "x"}]));
    assert_eq!(
        run(&first, "s1").unwrap_err().to_string(),
        "invalid content[0].tool_use_id: must be a string"
    );
}

#[test]
fn missing_openai_tool_call_id_display() {
    let err = run(&json!({"role": "tool", "content": "x"}), "s1").unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidId);
    assert_eq!(err.to_string(), "invalid tool_call_id: is missing");
}

#[test]
fn unsafe_tool_use_id_display_quotes_the_value() {
    let message = anthropic(json!([block("a/b", json!("x"))]));
    let err = run(&message, "s1").unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid content[0].tool_use_id "a/b": contains "/""#
    );
}

#[test]
fn non_object_message_display() {
    let cases = [
        (
            json!(null),
            "invalid message: a message must be a JSON object, got null",
        ),
        (
            json!("hello"),
            "invalid message: a message must be a JSON object, got a string",
        ),
        (
            json!([{"type": "tool_result"}]),
            "invalid message: a message must be a JSON object, got an array",
        ),
        (
            json!(3),
            "invalid message: a message must be a JSON object, got a number",
        ),
        (
            json!(true),
            "invalid message: a message must be a JSON object, got a boolean",
        ),
    ];
    for (message, want) in cases {
        let err = run(&message, "s1").unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidMessage, "{message}");
        assert_eq!(err.code().as_str(), "INVALID_MESSAGE");
        assert_eq!(err.to_string(), want, "{message}");
    }
}

#[test]
fn numeric_content_display() {
    let message = anthropic(json!([block("t1", json!(42))]));
    let err = run(&message, "s1").unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidMessage);
    assert_eq!(
        err.to_string(),
        "invalid message: content[0].content must be a string or an array of content blocks, \
         got a number"
    );

    let openai = json!({"role": "tool", "tool_call_id": "c1", "content": 42});
    assert_eq!(
        run(&openai, "s1").unwrap_err().to_string(),
        "invalid message: content must be a string or an array of content blocks, got a number"
    );

    let object = anthropic(json!([block("t1", json!({"text": "x"}))]));
    assert_eq!(
        run(&object, "s1").unwrap_err().to_string(),
        "invalid message: content[0].content must be a string or an array of content blocks, \
         got an object"
    );
}

#[test]
fn relative_cwd_display() {
    let message = anthropic(json!([block("t1", json!("x"))]));
    let writer = Recording::default();
    let err = block_on(offload_tool_result(&message, "s1", "out", "work", &writer)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidArgument);
    assert_eq!(err.code().as_str(), "INVALID_ARGUMENT");
    assert_eq!(
        err.to_string(),
        r#"invalid argument: working directory must be an absolute path, got "work""#
    );
    assert!(writer.calls().is_empty(), "{:?}", writer.calls());
}

#[test]
fn write_failed_display_and_source() {
    let message = anthropic(json!([block("t1", json!("x"))]));
    let writer = Recording {
        fail_write: Some(("/work/out/s1/t1.md", "disk full")),
        ..Recording::default()
    };
    let err = block_on(offload_tool_result(&message, "s1", "out", "/work", &writer)).unwrap_err();
    assert_eq!(err.code().as_str(), "WRITE_FAILED");
    assert_write_failed(&err, "/work/out/s1/t1.md", "disk full");
    let source = err.source().expect("WRITE_FAILED has a source");
    let io = source
        .downcast_ref::<IoError>()
        .expect("the source is the writer's IoError");
    assert_eq!(io.message(), "disk full");
    assert_eq!(source.to_string(), "disk full");
}

#[test]
fn write_failed_source_keeps_the_underlying_error_chain() {
    // An IoError built from another error exposes it as its own source.
    #[derive(Debug)]
    struct Enospc;
    impl std::fmt::Display for Enospc {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("No space left on device")
        }
    }
    impl std::error::Error for Enospc {}

    struct Full;
    impl FileWriter for Full {
        async fn mkdir(&self, _: &str) -> Result<(), IoError> {
            Ok(())
        }
        async fn write_file(&self, _: &str, _: &str) -> Result<(), IoError> {
            Err(IoError::from_error(Enospc))
        }
        async fn create_file(&self, _: &str, _: &str) -> Result<CreateOutcome, IoError> {
            Err(IoError::from_error(Enospc))
        }
    }

    let message = json!({"role": "tool", "tool_call_id": "c1", "content": "x"});
    let err = block_on(offload_tool_result(&message, "s1", "/o", "/", &Full)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "failed to write /o/s1/c1.md: No space left on device"
    );
    let io = err.source().unwrap();
    assert!(io.is::<IoError>());
    assert!(io.source().unwrap().is::<Enospc>());
}

// ---------------------------------------------------------------------------------------
// Input immutability, independence of the result
// ---------------------------------------------------------------------------------------

fn two_results() -> Value {
    json!({
        "role": "user",
        "z_first": true,
        "content": [
            {"type": "text", "text": "intro"},
            {"type": "tool_result", "tool_use_id": "t1", "content": "one", "is_error": false},
            {"type": "tool_result", "tool_use_id": "t2", "content": [{"type": "text", "text": "two"}]}
        ],
        "a_last": 1.5
    })
}

#[test]
fn input_is_unchanged_after_success() {
    let message = two_results();
    let before = exact(&message);
    let writer = MemoryWriter::new();
    let done = block_on(offload_tool_result(&message, "s1", "out", "/work", &writer)).unwrap();
    assert_eq!(exact(&message), before);
    assert_eq!(message["content"][1]["content"], "one");
    assert_eq!(
        done.message["content"][1]["content"],
        "[Tool result offloaded to file: /work/out/s1/t1.md]"
    );
    assert_eq!(
        done.message["content"][2]["content"],
        "[Tool result offloaded to file: /work/out/s1/t2.md]"
    );
    // Everything but the two contents is as in the input, in the same order.
    let mut expected = message.clone();
    expected["content"][1]["content"] =
        json!("[Tool result offloaded to file: /work/out/s1/t1.md]");
    expected["content"][2]["content"] =
        json!("[Tool result offloaded to file: /work/out/s1/t2.md]");
    assert_eq!(exact(&done.message), exact(&expected));
}

#[test]
fn input_is_unchanged_after_a_failed_write() {
    let message = two_results();
    let before = exact(&message);
    let writer = Recording {
        fail_write: Some(("/work/out/s1/t2.md", "EIO")),
        ..Recording::default()
    };
    let err = block_on(offload_tool_result(&message, "s1", "out", "/work", &writer)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::WriteFailed);
    assert_eq!(err.to_string(), "failed to write /work/out/s1/t2.md: EIO");
    assert_eq!(exact(&message), before);
    // The first file was written before the failure; the failing one was attempted.
    assert_eq!(
        writer.calls(),
        [
            Call::Mkdir("/work/out/s1".into()),
            Call::Write("/work/out/s1/t1.md".into(), "one".into()),
            Call::Write(
                "/work/out/s1/t2.md".into(),
                r#"[{"type":"text","text":"two"}]"#.into()
            ),
        ]
    );
}

#[test]
fn result_is_independent_of_the_input() {
    let mut input = two_results();
    let done = block_on(offload_tool_result(
        &input,
        "s1",
        "out",
        "/work",
        &MemoryWriter::new(),
    ))
    .unwrap();
    let result_before = exact(&done.message);

    // Mutating the input afterwards does not reach the result...
    input["content"][0]["text"] = json!("changed");
    input["content"][1]["content"] = json!("changed");
    input["z_first"] = json!(false);
    assert_eq!(exact(&done.message), result_before);
    assert_eq!(done.message["content"][0]["text"], "intro");
    assert_eq!(done.message["z_first"], true);

    // ...and mutating the result does not reach the input.
    let mut result = done.message.clone();
    result["content"][2]["tool_use_id"] = json!("other");
    assert_eq!(input["content"][2]["tool_use_id"], "t2");

    // The result owns its data: it outlives the input.
    let owned = {
        let temporary = two_results();
        block_on(offload_tool_result(
            &temporary,
            "s1",
            "out",
            "/work",
            &MemoryWriter::new(),
        ))
        .unwrap()
    };
    assert_eq!(owned.files, ["/work/out/s1/t1.md", "/work/out/s1/t2.md"]);
    assert_eq!(owned.file, "/work/out/s1/t1.md");
}

// ---------------------------------------------------------------------------------------
// Order of writer calls; validation before IO
// ---------------------------------------------------------------------------------------

#[test]
fn mkdir_failure_reports_the_directory_and_writes_nothing() {
    let message = two_results();
    let writer = Recording {
        fail_mkdir: Some("EACCES: permission denied"),
        ..Recording::default()
    };
    let err = block_on(offload_tool_result(
        &message,
        "s1",
        "../out",
        "/work/app",
        &writer,
    ))
    .unwrap_err();
    assert_write_failed(&err, "/work/out/s1", "EACCES: permission denied");
    assert_eq!(writer.calls(), [Call::Mkdir("/work/out/s1".into())]);
    assert!(writer.inner.files().is_empty());
}

#[test]
fn successful_run_makes_one_mkdir_then_writes_in_message_order() {
    let message = two_results();
    let writer = Recording::default();
    let done = block_on(offload_tool_result(&message, "s1", "out", "/work", &writer)).unwrap();
    assert_eq!(
        writer.calls(),
        [
            Call::Mkdir("/work/out/s1".into()),
            Call::Write("/work/out/s1/t1.md".into(), "one".into()),
            Call::Write(
                "/work/out/s1/t2.md".into(),
                r#"[{"type":"text","text":"two"}]"#.into()
            ),
        ]
    );
    assert_eq!(done.files, ["/work/out/s1/t1.md", "/work/out/s1/t2.md"]);
}

#[test]
fn unsafe_id_in_second_block_fails_before_any_writer_call() {
    let message = anthropic(json!([
        block("good", json!("first content")),
        block("..", json!("second content")),
    ]));
    let writer = Recording::default();
    let err = block_on(offload_tool_result(&message, "s1", "out", "/work", &writer)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidId);
    assert_eq!(
        err.to_string(),
        r#"invalid content[1].tool_use_id "..": is a relative path component ("." or "..")"#
    );
    assert_eq!(writer.calls(), []);
}

#[test]
fn bad_content_in_second_block_fails_before_any_writer_call() {
    let message = anthropic(json!([
        block("good", json!("x")),
        block("also_good", json!(false))
    ]));
    let writer = Recording::default();
    let err = block_on(offload_tool_result(&message, "s1", "out", "/work", &writer)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidMessage);
    assert_eq!(
        err.to_string(),
        "invalid message: content[1].content must be a string or an array of content blocks, \
         got a boolean"
    );
    assert_eq!(writer.calls(), []);
}

#[test]
fn bad_session_id_fails_before_any_writer_call() {
    let message = anthropic(json!([block("t1", json!("x"))]));
    for (session, reason) in [
        ("..", r#"is a relative path component ("." or "..")"#),
        ("a/b", r#"contains "/""#),
        ("", "is empty"),
    ] {
        let writer = Recording::default();
        let err = block_on(offload_tool_result(
            &message, session, "out", "/work", &writer,
        ))
        .unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidId, "{session:?}");
        assert_eq!(
            err.to_string(),
            format!("invalid sessionId {session:?}: {reason}")
        );
        assert_eq!(writer.calls(), [], "{session:?}");
    }
}

#[test]
fn no_tool_result_makes_no_writer_call() {
    let writer = Recording::default();
    let message = anthropic(json!([{"type": "tool_use", "id": "t1", "name": "x", "input": {}}]));
    let err = block_on(offload_tool_result(&message, "s1", "out", "/work", &writer)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::NoToolResult);
    assert_eq!(writer.calls(), []);
}

// ---------------------------------------------------------------------------------------
// freed_chars in UTF-16 code units
// ---------------------------------------------------------------------------------------

#[test]
fn freed_chars_counts_astral_characters_as_two() {
    // Placeholder "[Tool result offloaded to file: /w/out/s1/t1.md]" is 48 characters.
    let placeholder = "[Tool result offloaded to file: /w/out/s1/t1.md]";
    assert_eq!(placeholder.len(), 48);

    let content = "😀".repeat(100); // 100 code points, 200 UTF-16 units, 400 bytes
    let message = anthropic(json!([block("t1", json!(content))]));
    let writer = MemoryWriter::new();
    let done = block_on(offload_tool_result(&message, "s1", "out", "/w", &writer)).unwrap();
    assert_eq!(done.freed_chars, 200 - 48);
    assert_eq!(done.message["content"][0]["content"], placeholder);
    assert_eq!(
        writer.read("/w/out/s1/t1.md").as_deref(),
        Some(content.as_str())
    );

    // BMP non-ASCII counts 1 per character, not per byte.
    let bmp = anthropic(json!([block("t1", json!("é€".repeat(50)))]));
    let done = block_on(offload_tool_result(
        &bmp,
        "s1",
        "out",
        "/w",
        &MemoryWriter::new(),
    ))
    .unwrap();
    assert_eq!(done.freed_chars, 100 - 48);
}

#[test]
fn freed_chars_counts_astral_characters_in_the_placeholder_path() {
    // The session id and tool id appear in the placeholder; their astral characters
    // count 2 there too.
    let message = anthropic(json!([block("😀", json!("x".repeat(100)))]));
    let done = block_on(offload_tool_result(
        &message,
        "🎉",
        "out",
        "/w",
        &MemoryWriter::new(),
    ))
    .unwrap();
    let placeholder = "[Tool result offloaded to file: /w/out/🎉/😀.md]";
    assert_eq!(done.message["content"][0]["content"], placeholder);
    let placeholder_units = placeholder.encode_utf16().count() as i64;
    assert_eq!(placeholder_units, 48);
    assert_eq!(done.freed_chars, 100 - 48);
}

#[test]
fn freed_chars_is_negative_for_short_content() {
    let message = anthropic(json!([block("t1", json!("x"))]));
    let done = run(&message, "s1").unwrap();
    // "[Tool result offloaded to file: /work/out/s1/t1.md]" is 51 characters.
    assert_eq!(done.freed_chars, 1 - 51);

    // Two short results add up; empty content frees minus the whole placeholder.
    let two = anthropic(json!([block("t1", json!("")), block("t2", json!("ab"))]));
    let done = run(&two, "s1").unwrap();
    assert_eq!(done.freed_chars, (0 - 51) + (2 - 51));
    assert!(done.freed_chars < 0);
}

// ---------------------------------------------------------------------------------------
// OpenAI messages
// ---------------------------------------------------------------------------------------

#[test]
fn openai_tool_message_keeps_extra_keys_in_order() {
    let message: Value = serde_json::from_str(
        r#"{"name":"sql","role":"tool","zeta":{"b":1,"a":2},"tool_call_id":"call_9",
            "content":"SELECT result","alpha":[3,2,1],"meta":null}"#,
    )
    .unwrap();
    let writer = MemoryWriter::new();
    let done = block_on(offload_tool_result(&message, "s1", "out", "/work", &writer)).unwrap();
    assert_eq!(
        keys(&done.message),
        [
            "name",
            "role",
            "zeta",
            "tool_call_id",
            "content",
            "alpha",
            "meta"
        ]
    );
    assert_eq!(keys(&done.message["zeta"]), ["b", "a"]);
    assert_eq!(
        exact(&done.message),
        r#"{"name":"sql","role":"tool","zeta":{"b":1,"a":2},"tool_call_id":"call_9","content":"[Tool result offloaded to file: /work/out/s1/call_9.md]","alpha":[3,2,1],"meta":null}"#
    );
    assert_eq!(done.files, ["/work/out/s1/call_9.md"]);
    assert_eq!(
        writer.read("/work/out/s1/call_9.md").as_deref(),
        Some("SELECT result")
    );
    assert_eq!(done.freed_chars, 13 - 55);
}

#[test]
fn openai_tool_message_content_is_its_only_replaced_value() {
    // A "content" nested elsewhere (here in an extra key) is left alone.
    let message = json!({
        "role": "tool",
        "tool_call_id": "c1",
        "extra": {"content": "keep me"},
        "content": [{"type": "text", "text": "part"}]
    });
    let writer = MemoryWriter::new();
    let done = block_on(offload_tool_result(
        &message, "s1", "/abs", "/work", &writer,
    ))
    .unwrap();
    assert_eq!(
        keys(&done.message),
        ["role", "tool_call_id", "extra", "content"]
    );
    assert_eq!(done.message["extra"]["content"], "keep me");
    assert_eq!(
        done.message["content"],
        "[Tool result offloaded to file: /abs/s1/c1.md]"
    );
    assert_eq!(
        writer.read("/abs/s1/c1.md").as_deref(),
        Some(r#"[{"type":"text","text":"part"}]"#)
    );
}

#[test]
fn openai_tool_message_without_content_gets_the_placeholder_appended() {
    // Missing content counts as empty: an empty file is written and the placeholder is
    // added as the last key, like for an Anthropic block without content.
    let message = json!({"role": "tool", "tool_call_id": "c1", "name": "noop"});
    let writer = MemoryWriter::new();
    let done = block_on(offload_tool_result(&message, "s1", "out", "/work", &writer)).unwrap();
    assert_eq!(writer.read("/work/out/s1/c1.md").as_deref(), Some(""));
    assert_eq!(
        exact(&done.message),
        r#"{"role":"tool","tool_call_id":"c1","name":"noop","content":"[Tool result offloaded to file: /work/out/s1/c1.md]"}"#
    );
    // "[Tool result offloaded to file: /work/out/s1/c1.md]" is 51 characters.
    assert_eq!(done.freed_chars, -51);
    assert_eq!(
        exact(&message),
        r#"{"role":"tool","tool_call_id":"c1","name":"noop"}"#
    );
}

#[test]
fn anthropic_block_without_content_gets_the_placeholder_after_its_other_keys() {
    let message = anthropic(json!([
        {"tool_use_id": "t1", "type": "tool_result", "is_error": true}
    ]));
    let done = run(&message, "s1").unwrap();
    assert_eq!(
        keys(&done.message["content"][0]),
        ["tool_use_id", "type", "is_error", "content"]
    );
    assert_eq!(
        done.message["content"][0]["content"],
        "[Tool result offloaded to file: /work/out/s1/t1.md]"
    );
}

#[test]
fn repeated_id_gives_each_block_its_own_placeholder_and_writes_twice() {
    let message = anthropic(json!([
        block("same", json!("first")),
        {"type": "text", "text": "between"},
        block("same", json!("second")),
    ]));
    let writer = Recording::default();
    let done = block_on(offload_tool_result(&message, "s1", "out", "/work", &writer)).unwrap();
    let placeholder = "[Tool result offloaded to file: /work/out/s1/same.md]";
    assert_eq!(done.message["content"][0]["content"], placeholder);
    assert_eq!(done.message["content"][1]["text"], "between");
    assert_eq!(done.message["content"][2]["content"], placeholder);
    assert_eq!(done.files, ["/work/out/s1/same.md", "/work/out/s1/same.md"]);
    assert_eq!(
        writer.calls(),
        [
            Call::Mkdir("/work/out/s1".into()),
            Call::Write("/work/out/s1/same.md".into(), "first".into()),
            Call::Write("/work/out/s1/same.md".into(), "second".into()),
        ]
    );
    assert_eq!(
        writer.inner.read("/work/out/s1/same.md").as_deref(),
        Some("second")
    );
}
