//! `redact_tree`: artifacts already stored are rewritten with their secrets replaced, in
//! place; what is not ours, binary data and workspace knowledge are left as they are.

use futures_executor::block_on;
use tool_offload_core::{redact_tree, FileReader, FileWriter, MemoryWriter};

const KEY: &str = "AKIAIOSFODNN7EXAMPLE";
const TOOL: &str = "/d/context/c/artifacts/tool";

fn tree() -> MemoryWriter {
    let io = MemoryWriter::new();
    block_on(async {
        for dir in [
            TOOL,
            "/d/context/c/index/tool",
            "/d/context/ns/artifacts/knowledge",
            "/d/out",
        ] {
            io.mkdir(dir).await.unwrap();
        }
        let put = |path: &'static str, text: String| {
            let io = &io;
            async move { io.write_file(path, &text).await.unwrap() }
        };
        put(
            "/d/context/c/artifacts/tool/a.txt",
            format!("key {KEY}\npassword=hunter22\n"),
        )
        .await;
        put("/d/context/c/index/tool/a.txt.lines", "stale index".into()).await;
        put(
            "/d/context/c/artifacts/tool/clean.txt",
            "nothing to hide\n".into(),
        )
        .await;
        put("/d/out/tool-result-t1.md", format!("export AWS={KEY}\n")).await;
        put("/d/out/notes.md", format!("mine: {KEY}\n")).await;
        put(
            "/d/context/ns/artifacts/knowledge/tool_result_k.txt",
            format!("{KEY}\n"),
        )
        .await;
        io.create_bytes("/d/context/c/artifacts/tool/shot.bin", &[0, 0xFF, 1])
            .await
            .unwrap();
    });
    io
}

#[test]
fn rewrites_ours_in_place_and_leaves_the_rest() {
    let io = tree();
    let report = block_on(redact_tree("/d/", false, &io)).unwrap();
    assert_eq!(
        report.rewritten,
        [
            "/d/context/c/artifacts/tool/a.txt",
            "/d/out/tool-result-t1.md"
        ]
    );
    assert_eq!(report.scanned, 3);
    assert_eq!(report.counts, [("aws-access-key", 2), ("password", 1)]);
    assert_eq!(
        report.skipped,
        [
            "/d/context/c/artifacts/tool/shot.bin",
            "/d/context/ns/artifacts/knowledge/tool_result_k.txt"
        ]
    );
    assert_eq!(
        io.read("/d/context/c/artifacts/tool/a.txt").unwrap(),
        "key [REDACTED:aws-access-key]\npassword=[REDACTED:password]\n"
    );
    assert_eq!(
        block_on(io.size("/d/context/c/index/tool/a.txt.lines")).unwrap(),
        None
    );
    assert!(
        io.read("/d/out/notes.md").unwrap().contains(KEY),
        "not ours: untouched"
    );
    assert!(io
        .read("/d/context/ns/artifacts/knowledge/tool_result_k.txt")
        .unwrap()
        .contains(KEY));
    assert_eq!(
        io.read_bytes("/d/context/c/artifacts/tool/shot.bin")
            .unwrap(),
        [0, 0xFF, 1]
    );
    // A second run finds nothing more.
    let again = block_on(redact_tree("/d", false, &io)).unwrap();
    assert!(again.rewritten.is_empty() && again.counts.is_empty());
}

#[test]
fn a_dry_run_writes_nothing() {
    let io = tree();
    let before = io.files();
    let report = block_on(redact_tree("/d", true, &io)).unwrap();
    assert_eq!(report.rewritten.len(), 2);
    assert_eq!(io.files(), before);
}
