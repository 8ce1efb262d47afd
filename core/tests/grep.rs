//! grep through core's one pattern engine: `Materializer::grep` and the model's
//! `context_grep` tool never hang on a pattern, and refuse bad ones as INVALID_PATTERN.

use futures_executor::block_on;
use serde_json::json;
use tool_offload_core::materialize::{
    compile_pattern, Materialized, Materializer, MaterializerOptions, ToolOutputRef,
};
use tool_offload_core::{ErrorCode, MemoryWriter, OffloadError};

/// A materializer and an artifact holding `text`; its ref.
fn artifact(text: &str) -> (Materializer, MemoryWriter, String) {
    let fs = MemoryWriter::new();
    let m = Materializer::new(MaterializerOptions::new("/data", "conv-1", "/")).unwrap();
    let out = ToolOutputRef {
        tool_call_id: "call_1",
        tool_name: "bash",
        server_name: None,
        text,
        was_value: false,
    };
    match block_on(m.materialize(&out, &fs)).unwrap() {
        Materialized::Artifact { reference, .. } => (m, fs, reference.id),
        other => panic!("expected an artifact, got {other:?}"),
    }
}

/// The `context_grep` call's output: (is_error, content).
fn context_grep(
    m: &Materializer,
    fs: &MemoryWriter,
    reference: &str,
    pattern: &str,
) -> (bool, String) {
    let input = json!({ "ref": reference, "pattern": pattern, "context": 0 });
    let out = block_on(m.run_read_tool("context_grep", &input, fs));
    (out.is_error, out.content)
}

#[test]
fn a_catastrophic_backtracking_pattern_finds_its_rows() {
    // Lines are read as parts of at most 2000 characters and `$` ends each part: 49 of
    // the 50 parts end in `a`; the last is 1999 `a` then `b`, where a backtracking engine
    // tries every way to split the run of `a`.
    let (m, fs, reference) = artifact(&format!("{}b\nok", "a".repeat(99_999)));
    let pattern = compile_pattern("(a+)+$", false).unwrap();
    let page = block_on(m.grep(&reference, &pattern, 0, 1000, &fs)).unwrap();
    let same = block_on(m.grep(
        &reference,
        &compile_pattern("a$", false).unwrap(),
        0,
        1000,
        &fs,
    ))
    .unwrap();
    // The same rows match; what each shows differs: `(a+)+$` matches a whole part,
    // `a$` its last character (200 characters of window before it).
    let count = |page: &str| page.split(',').next().unwrap().to_owned();
    assert_eq!(count(&page), count(&same));
    assert!(
        page.starts_with("[ctx://conv-1/tool/call_1.txt: 49 matching rows in 2 lines"),
        "{}",
        &page[..200]
    );
    let (is_error, content) = context_grep(&m, &fs, &reference, "(a+)+$");
    assert!(!is_error);
    assert!(
        content.starts_with("[ctx://conv-1/tool/call_1.txt: 49 matching rows"),
        "{}",
        &content[..200]
    );
}

#[test]
fn a_pattern_over_the_length_limit_is_invalid_pattern() {
    let (m, fs, reference) = artifact(&"line\n".repeat(1000));
    let long = "a".repeat(60_000);
    let err = compile_pattern(&long, false).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidPattern);
    let (is_error, content) = context_grep(&m, &fs, &reference, &long);
    assert!(is_error);
    assert_eq!(content, err.to_string());
    assert!(
        content.ends_with(": the pattern is 60,000 characters long; at most 1,000 are allowed"),
        "{content}"
    );
    assert!(
        content.len() < 300,
        "the message does not echo the whole pattern"
    );
}

#[test]
fn look_around_and_backreferences_are_invalid_pattern_with_the_reason() {
    let (m, fs, reference) = artifact(&"line\n".repeat(1000));
    for (pattern, reason) in [
        ("error(?=:)", "look-around is not supported"),
        (r"(\w)\1", "backreferences are not supported"),
    ] {
        match compile_pattern(pattern, false) {
            Err(OffloadError::InvalidPattern {
                pattern: p,
                reason: r,
            }) => {
                assert_eq!((p.as_str(), r.as_str()), (pattern, reason));
            }
            other => panic!("{pattern:?}: {other:?}"),
        }
        assert_eq!(
            context_grep(&m, &fs, &reference, pattern),
            (true, format!("invalid pattern {pattern:?}: {reason}"))
        );
    }
}
