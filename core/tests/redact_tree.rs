//! `redact_tree`: artifacts already stored are rewritten with their secrets replaced, in
//! place; what is not ours and binary data are left as they are.

use futures_executor::block_on;
use tool_offload_core::{
    redact_tree, CreateOutcome, FileLifecycle, FileReader, FileStat, FileWriter, IoError,
    MemoryWriter,
};

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
        // Found in path order: a password first, then a key; reported in rule order.
        put(
            "/d/context/c/artifacts/tool/a.txt",
            "password=hunter22\n".into(),
        )
        .await;
        put("/d/context/c/index/tool/a.txt.lines", "stale index".into()).await;
        put(
            "/d/context/c/artifacts/tool/clean.txt",
            "nothing to hide\n".into(),
        )
        .await;
        put("/d/out/tool-result-t1.md", format!("export AWS={KEY}\n")).await;
        put("/d/out/tool-result-t2.md", format!("again {KEY}\n")).await;
        put("/d/out/notes.md", format!("mine: {KEY}\n")).await;
        // Another writer's file in progress.
        put(
            "/d/context/c/artifacts/tool/.tool-offload-42-7-9f3a.tmp",
            format!("{KEY}\n"),
        )
        .await;
        put(
            "/d/context/ns/artifacts/knowledge/tool_result_k.txt",
            format!("{KEY}\n"),
        )
        .await;
        io.create_bytes("/d/context/c/artifacts/tool/shot.bin", &[0, 0xFF, 1])
            .await
            .unwrap();
        // Text that is not UTF-8 (Latin-1): not ours to decode and rewrite.
        let latin1 = b"caf\xe9 AKIAIOSFODNN7EXAMPLE\n";
        io.create_bytes("/d/context/c/artifacts/tool/latin1.txt", latin1)
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
            "/d/context/ns/artifacts/knowledge/tool_result_k.txt",
            "/d/out/tool-result-t1.md",
            "/d/out/tool-result-t2.md"
        ]
    );
    assert_eq!(report.scanned, 5);
    assert_eq!(
        report.counts,
        [("aws-access-key".to_owned(), 3), ("password".to_owned(), 1)]
    );
    assert_eq!(
        report.skipped,
        [
            "/d/context/c/artifacts/tool/latin1.txt",
            "/d/context/c/artifacts/tool/shot.bin",
        ]
    );
    // Knowledge without a record (a store stopped before its commit point): the
    // content alone, no namespace's index to rebuild.
    assert!(report.namespaces.is_empty());
    assert_eq!(
        io.read("/d/context/c/artifacts/tool/a.txt").unwrap(),
        "password=[REDACTED:password]\n"
    );
    assert_eq!(
        io.read("/d/out/tool-result-t1.md").unwrap(),
        "export AWS=[REDACTED:aws-access-key]\n"
    );
    assert_eq!(
        block_on(io.size("/d/context/c/index/tool/a.txt.lines")).unwrap(),
        None
    );
    assert!(
        io.read("/d/out/notes.md").unwrap().contains(KEY),
        "not ours: untouched"
    );
    assert!(!io
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
    assert_eq!(report.rewritten.len(), 4);
    assert_eq!(io.files(), before);
}

/// A reader that fails on one path, as a disk or a server can.
struct FailingRead(MemoryWriter, &'static str);

impl FileReader for FailingRead {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        match path == self.1 {
            true => Err(IoError::new("injected failure")),
            false => self.0.read_file(path).await,
        }
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.0.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.0.size(path).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.0.read_range(path, start, end).await
    }
}

impl FileWriter for FailingRead {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.0.mkdir(dir).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.0.write_file(path, data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.0.create_file(path, data).await
    }
}

impl FileLifecycle for FailingRead {
    async fn stat(&self, path: &str) -> Result<Option<FileStat>, IoError> {
        self.0.stat(path).await
    }
    async fn remove(&self, path: &str) -> Result<(), IoError> {
        self.0.remove(path).await
    }
}

#[test]
fn a_file_that_cannot_be_read_is_read_failed_not_skipped() {
    let io = FailingRead(tree(), "/d/out/tool-result-t1.md");
    let err = block_on(redact_tree("/d", false, &io)).unwrap_err();
    assert_eq!(err.code().as_str(), "READ_FAILED");
    assert!(err.to_string().contains("tool-result-t1.md"), "{err}");
}
