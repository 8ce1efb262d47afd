//! Materializer: limits, artifact naming, refs and their scope.

use futures_executor::block_on;
use tool_offload_core::materialize::{
    compile_pattern, Materialized, Materializer, MaterializerOptions, ToolOutputRef,
};
use tool_offload_core::{ErrorCode, MemoryWriter};

fn materializer() -> Materializer {
    Materializer::new(MaterializerOptions::new("data", "conv-1", "/srv")).unwrap()
}

fn output(text: &str) -> ToolOutputRef<'_> {
    ToolOutputRef {
        tool_call_id: "call_1",
        tool_name: "fetch",
        server_name: Some("web"),
        text,
        was_value: false,
    }
}

fn artifact(
    m: &Materializer,
    out: &ToolOutputRef<'_>,
    fs: &MemoryWriter,
) -> (String, String, String) {
    match block_on(m.materialize(out, fs)).unwrap() {
        Materialized::Artifact {
            summary,
            reference,
            path,
        } => (summary, reference.id, path),
        other => panic!("expected an artifact, got {other:?}"),
    }
}

#[test]
fn at_each_limit_stays_inline_and_one_over_is_materialized() {
    let fs = MemoryWriter::new();
    let m = materializer();
    assert_eq!(
        block_on(m.materialize(&output(&"a".repeat(4000)), &fs)).unwrap(),
        Materialized::Inline
    );
    assert!(matches!(
        block_on(m.materialize(&output(&"a".repeat(4001)), &fs)).unwrap(),
        Materialized::Artifact { .. }
    ));
    // Bytes can trip before characters: 1,999 × "😀" is 3,998 characters (under 4,000)
    // but 7,996 bytes, over a 7,995-byte limit.
    let tight = Materializer::new(MaterializerOptions {
        max_inline_bytes: 7_995,
        ..MaterializerOptions::new("/d", "c", "/")
    })
    .unwrap();
    assert!(matches!(
        block_on(tight.materialize(&output(&"😀".repeat(1999)), &fs)).unwrap(),
        Materialized::Artifact { .. }
    ));
    assert_eq!(
        block_on(tight.materialize(&output(&"😀".repeat(1998)), &fs)).unwrap(),
        Materialized::Inline
    );
    let stats = m.stats();
    assert_eq!((stats.hits, stats.inlined), (1, 1));
    assert!(stats.saved_chars > 0 && stats.avg_saved_chars() > 0.0);
}

#[test]
fn writes_before_returning_with_json_or_txt_extension() {
    let fs = MemoryWriter::new();
    let m = materializer();
    let text = "x".repeat(5000);
    let (summary, id, path) = artifact(&m, &output(&text), &fs);
    assert_eq!(id, "ctx://conv-1/tool/call_1.txt");
    assert_eq!(path, "/srv/data/context/conv-1/artifacts/tool/call_1.txt");
    assert_eq!(fs.read(&path).as_deref(), Some(text.as_str()));
    assert!(summary
        .starts_with("[Output of web/fetch (call call_1) stored as ctx://conv-1/tool/call_1.txt"));

    let json = format!("  {{\"rows\": [{}1]}}", "1, ".repeat(2000));
    let (_, id, _) = artifact(
        &m,
        &ToolOutputRef {
            tool_call_id: "call_2",
            ..output(&json)
        },
        &fs,
    );
    assert_eq!(id, "ctx://conv-1/tool/call_2.json");
    let not_json = format!("[{}", "1,".repeat(3000));
    let (_, id, _) = artifact(
        &m,
        &ToolOutputRef {
            tool_call_id: "call_3",
            ..output(&not_json)
        },
        &fs,
    );
    assert_eq!(id, "ctx://conv-1/tool/call_3.txt");
    let value = "\"a string value\"".repeat(300);
    let (summary, id, _) = artifact(
        &m,
        &ToolOutputRef {
            tool_call_id: "call_4",
            was_value: true,
            ..output(&value)
        },
        &fs,
    );
    assert_eq!(id, "ctx://conv-1/tool/call_4.json");
    assert!(summary.contains("JSON: yes."));
}

#[test]
fn refs_are_readable_at_once_and_scoped_to_the_conversation() {
    let fs = MemoryWriter::new();
    let m = materializer();
    let text: String = (1..=300)
        .map(|i| format!("line {i} {}\n", "-".repeat(20)))
        .collect();
    let (_, id, _) = artifact(&m, &output(&text), &fs);
    let page = block_on(m.read(&id, 0, 2, &fs)).unwrap();
    assert!(
        page.starts_with("[ctx://conv-1/tool/call_1.txt: lines 1-2 of 300. More: context_read("),
        "{page}"
    );
    let grep = block_on(m.grep(
        &id,
        &compile_pattern("line 150 ", false).unwrap(),
        0,
        50,
        &fs,
    ))
    .unwrap();
    assert!(
        grep.ends_with("150| line 150 --------------------"),
        "{grep}"
    );

    for reference in [
        "ctx://conv-2/tool/call_1.txt",
        "ctx://conv-1/tool/../tool/call_1.txt",
        "ctx://conv-1/tool/..",
        "ctx://conv-1/secrets/call_1.txt",
        "ctx://conv-1/tool/a/b.txt",
        "file:///etc/passwd",
        "ctx://conv-1",
    ] {
        let err = block_on(m.read(reference, 0, 10, &fs)).unwrap_err();
        assert_eq!(err.code(), ErrorCode::RefOutOfScope, "{reference}");
    }
    let err = block_on(m.tail("ctx://conv-1/tool/missing.txt", 10, &fs)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::RefNotFound);
    assert_eq!(
        err.to_string(),
        "no artifact for ref \"ctx://conv-1/tool/missing.txt\""
    );
}

#[test]
fn unusable_ids_are_refused_before_writing() {
    let fs = MemoryWriter::new();
    let m = materializer();
    let text = "x".repeat(5000);
    let err = block_on(m.materialize(
        &ToolOutputRef {
            tool_call_id: "../x",
            ..output(&text)
        },
        &fs,
    ))
    .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidId);
    assert!(fs.files().is_empty());
    let err = Materializer::new(MaterializerOptions::new("/d", "..", "/")).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidId);
}

/// Whatever the limits and the text, nothing handed to the model (summary, read, tail or
/// grep page) is over either limit, so it could never be materialized again.
#[test]
fn summaries_and_pages_stay_within_both_limits() {
    let texts = [
        "x".repeat(30_000),
        "ascii line\n".repeat(3_000),
        "漢字のログ行\n".repeat(2_000),
        "😀".repeat(9_000),
        format!("{}\nerror: boom\n{}", "é".repeat(7_000), "y\n".repeat(500)),
    ];
    for (chars, bytes) in [(4000, 16384), (4000, 6000), (1000, 100_000), (1000, 3000)] {
        let m = Materializer::new(MaterializerOptions {
            max_inline_chars: chars,
            max_inline_bytes: bytes,
            ..MaterializerOptions::new("data", "conv-1", "/srv")
        })
        .unwrap();
        for text in &texts {
            let fs = MemoryWriter::new();
            let (summary, reference, _) = artifact(&m, &output(text), &fs);
            let within = |what: &str, s: &str, strict: bool| {
                let units = s.encode_utf16().count();
                let ok = if strict {
                    units < chars
                } else {
                    units <= chars
                };
                assert!(
                    ok && s.len() <= bytes,
                    "{what} at ({chars}, {bytes}): {units} units, {} bytes",
                    s.len()
                );
            };
            within("summary", &summary, true);
            for offset in [0, 1, 10_000] {
                within(
                    "read",
                    &block_on(m.read(&reference, offset, 200, &fs)).unwrap(),
                    false,
                );
            }
            within(
                "tail",
                &block_on(m.tail(&reference, 200, &fs)).unwrap(),
                false,
            );
            let grep =
                block_on(m.grep(&reference, &compile_pattern("", false).unwrap(), 2, 50, &fs))
                    .unwrap();
            within("grep", &grep, false);
        }
    }
}

fn named<'a>(id: &'a str, text: &'a str) -> ToolOutputRef<'a> {
    ToolOutputRef {
        tool_call_id: id,
        ..output(text)
    }
}

#[test]
fn a_page_read_back_is_never_stored_again() {
    // A page of a reader with a larger limit (a workspace's 40,000) read back into a
    // conversation whose Materializer keeps 4,000: inline, nothing written.
    let big = Materializer::new(MaterializerOptions {
        max_inline_chars: 40_000,
        ..MaterializerOptions::new("/d", "c", "/")
    })
    .unwrap();
    let fs = MemoryWriter::new();
    let log: String = (1..=900)
        .map(|i| format!("line {i} of the log\n"))
        .collect();
    let Materialized::Artifact { reference, .. } =
        block_on(big.materialize(&named("a", &log.repeat(3)), &fs)).unwrap()
    else {
        panic!("materialized");
    };
    let page = block_on(big.read(&reference.id, 0, 900, &fs)).unwrap();
    assert!(
        page.len() > 4_000 && tool_offload_core::materialize::is_read_back_page(&page),
        "{}",
        &page[..80]
    );
    let small = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    let calls = fs.calls().len();
    let done = block_on(small.materialize(&named("b", &page), &fs)).unwrap();
    assert!(matches!(done, Materialized::Inline));
    assert_eq!(fs.calls().len(), calls, "nothing written");
    // Output that only looks like a page header is stored as any other.
    let lookalike = format!("[INFO] lines 1-40 compiled\n{log}");
    let done = block_on(small.materialize(&named("c", &lookalike), &fs)).unwrap();
    assert!(matches!(done, Materialized::Artifact { .. }));
}
