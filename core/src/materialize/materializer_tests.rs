//! Directories made once, and the names artifacts are given.
use super::*;
use crate::memory::MemoryWriter;
use crate::read::line_index::INDEX_STEP;
use futures_executor::block_on;

fn output<'a>(id: &'a str, text: &'a str) -> ToolOutputRef<'a> {
    ToolOutputRef {
        tool_call_id: id,
        tool_name: "bash",
        server_name: None,
        text,
        was_value: false,
    }
}

fn mkdirs(fs: &MemoryWriter) -> Vec<String> {
    let calls = fs.calls().into_iter();
    calls.filter(|c| c.starts_with("mkdir ")).collect()
}

#[test]
fn each_artifacts_directory_is_made_once_and_again_when_gone() {
    let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    let log = "x\n".repeat(3000);
    let fs = MemoryWriter::new();
    for id in ["a", "b"] {
        block_on(m.materialize(&output(id, &log), &fs)).unwrap();
    }
    block_on(m.materialize_terminal("t1", &log, &fs)).unwrap();
    block_on(m.materialize_terminal("t2", &log, &fs)).unwrap();
    let (tool, terminal) = (
        "mkdir /d/context/c/artifacts/tool",
        "mkdir /d/context/c/artifacts/terminal",
    );
    assert_eq!(mkdirs(&fs), [tool, terminal]);
    assert_eq!(
        fs.calls()[..2],
        [tool, "create /d/context/c/artifacts/tool/a.txt"]
    );
    // A file system where the directories are gone: made again, then written.
    let fresh = MemoryWriter::new();
    let done = block_on(m.materialize(&output("c", &log), &fresh)).unwrap();
    assert!(matches!(done, Materialized::Artifact { .. }));
    assert_eq!(mkdirs(&fresh), [tool]);
    assert!(fresh.calls().iter().any(|c| c.ends_with("/tool/c.txt")));
    // A create that fails in a directory made earlier is tried once more, after a
    // mkdir; then its failure stands.
    let failing = MemoryWriter::new().fail_on("/d/context/c/artifacts/tool/d.txt");
    let err = block_on(m.materialize(&output("d", &log), &failing)).unwrap_err();
    assert_eq!(err.code(), crate::error::ErrorCode::WriteFailed);
    let create = "create /d/context/c/artifacts/tool/d.txt";
    assert_eq!(failing.calls(), [create, tool, create]);
    // A directory that cannot be made is WRITE_FAILED naming it.
    let m = Materializer::new(MaterializerOptions::new("/e", "c", "/")).unwrap();
    let blocked = MemoryWriter::new().fail_on("/e/context/c/artifacts/tool");
    let err = block_on(m.materialize(&output("a", &log), &blocked)).unwrap_err();
    assert_eq!(err.code(), crate::error::ErrorCode::WriteFailed);
    assert!(
        err.to_string()
            .contains("/e/context/c/artifacts/tool: injected failure"),
        "{err}"
    );
}

#[test]
fn each_index_directory_is_made_once_and_again_when_gone() {
    let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    // Over INDEX_STEP: each artifact gets a line index beside it.
    let log = "a line of a big log\n".repeat(60_000);
    let fs = MemoryWriter::new();
    for id in ["a", "b"] {
        block_on(m.materialize(&output(id, &log), &fs)).unwrap();
    }
    let index = "mkdir /d/context/c/index/tool";
    assert_eq!(
        mkdirs(&fs),
        ["mkdir /d/context/c/artifacts/tool", index],
        "{:?}",
        fs.calls()
    );
    let lines = fs.read("/d/context/c/index/tool/b.txt.lines").unwrap();
    assert!(lines.contains("\nlines 60000\n"), "{lines}");
    // Where the directories are gone, they are made again and the index written.
    let fresh = MemoryWriter::new();
    block_on(m.materialize(&output("c", &log), &fresh)).unwrap();
    assert_eq!(mkdirs(&fresh), ["mkdir /d/context/c/artifacts/tool", index]);
    assert!(fresh.read("/d/context/c/index/tool/c.txt.lines").is_some());
    // A failing index write is best effort: tried once after its mkdir, and once more
    // after a new mkdir where the directory was made earlier; the artifact stands.
    let path = "/d/context/c/index/tool/d.txt.lines";
    let writes = |fs: &MemoryWriter| {
        let calls = fs.calls();
        let write = format!("write {path}");
        (
            mkdirs(fs).len(),
            calls.iter().filter(|c| **c == write).count(),
        )
    };
    let failing = MemoryWriter::new().fail_on(path);
    let fresh = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    block_on(fresh.materialize(&output("d", &log), &failing)).unwrap();
    assert_eq!(writes(&failing), (2, 1), "{:?}", failing.calls());
    let failing = MemoryWriter::new().fail_on(path);
    block_on(m.materialize(&output("d", &log), &failing)).unwrap();
    assert_eq!(writes(&failing), (2, 2), "{:?}", failing.calls());
}

#[test]
fn only_artifacts_over_index_step_get_a_line_index() {
    let step = INDEX_STEP as usize;
    let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    let fs = MemoryWriter::new();
    let at_step = format!("{}\n", "x".repeat(step - 1));
    block_on(m.materialize(&output("a", &at_step), &fs)).unwrap();
    block_on(m.materialize(&output("b", &format!("{at_step}y")), &fs)).unwrap();
    let indexes: Vec<String> = fs
        .files()
        .into_keys()
        .filter(|p| p.ends_with(".lines"))
        .collect();
    assert_eq!(indexes, ["/d/context/c/index/tool/b.txt.lines"]);
}

/// Within the limits an output stays inline (and counts as such), over them it is stored,
/// with `always` any output is; a page the read-back tools returned never is.
#[test]
fn an_output_is_stored_when_over_the_limits_and_never_a_page() {
    let mut options = MaterializerOptions::new("/d", "c", "/");
    options.max_inline_chars = 100;
    let m = Materializer::new(options).unwrap();
    let fs = MemoryWriter::new();
    let small = "x".repeat(100);
    let big = "x".repeat(101);
    let store = |text: &str, always: bool| {
        let out = output("o", text);
        let decided = m.decide_store(ArtifactKind::Tool, "o", &out, (None, None), always, None);
        matches!(
            decided.unwrap(),
            crate::materialize::store::Decision::Store(_)
        )
    };
    assert!(!store(&small, false));
    assert!(store(&big, false));
    assert!(store(&small, true));
    let page = format!("[ctx://c/tool/x.txt: lines 1-1 of 1, the end.]\n1| {big}");
    assert!(super::super::is_read_back_page(&page));
    assert!(!store(&page, false) && !store(&page, true));
    assert_eq!(m.stats().inlined, 3);
    let done = block_on(m.materialize(&output("o", &big), &fs)).unwrap();
    assert!(matches!(done, Materialized::Artifact { .. }));
    assert_eq!(m.stats().hits, 1);
}

/// With `redact`, what is written and summarised is the redacted text, measured anew.
#[test]
fn a_redacted_output_is_written_and_summarised_without_its_secret() {
    let mut options = MaterializerOptions::new("/d", "c", "/");
    options.redact = true.into();
    let m = Materializer::new(options).unwrap();
    let fs = MemoryWriter::new();
    let steps: String = (0..400).map(|i| format!("step {i} ok\n")).collect();
    let text = format!("export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n{steps}");
    let done = block_on(m.materialize(&output("o", &text), &fs)).unwrap();
    let Materialized::Artifact { summary, path, .. } = done else {
        panic!("stored")
    };
    let written = fs.read(&path).unwrap();
    assert!(!written.contains("AKIA") && written.contains("[REDACTED:aws-access-key]"));
    assert!(
        !summary.contains("AKIA") && summary.contains("[REDACTED:aws-access-key]"),
        "{summary}"
    );
}
