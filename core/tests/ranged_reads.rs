//! Read-back costs a page, not the artifact: what `read`, `tail` and `grep` ask the
//! reader for, and the line index written beside large artifacts.

use std::sync::atomic::{AtomicU64, Ordering};

use futures_executor::block_on;
use tool_offload_core::materialize::{
    compile_pattern, read_page, tail_page, Materialized, Materializer, MaterializerOptions,
    ToolOutputRef, INDEX_STEP,
};
use tool_offload_core::{FileReader, FileWriter, IoError, MemoryWriter};

/// A reader that counts what it is asked for.
#[derive(Default)]
struct Counting {
    inner: MemoryWriter,
    range_bytes: AtomicU64,
    whole_reads: AtomicU64,
}

impl Counting {
    fn take(&self) -> (u64, u64) {
        (
            self.range_bytes.swap(0, Ordering::SeqCst),
            self.whole_reads.swap(0, Ordering::SeqCst),
        )
    }
}

impl FileReader for Counting {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.whole_reads.fetch_add(1, Ordering::SeqCst);
        self.inner.read_file(path).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.inner.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.inner.size(path).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        let bytes = self.inner.read_range(path, start, end).await?;
        self.range_bytes
            .fetch_add(bytes.len() as u64, Ordering::SeqCst);
        Ok(bytes)
    }
}

/// A log of `mib` MiB: numbered lines, a rare needle near the end.
fn log(mib: u64) -> String {
    let mut text = String::new();
    let mut i = 0;
    while (text.len() as u64) < mib * INDEX_STEP {
        text.push_str(&format!("2026-11-23 INFO item {i} processed status=ok\n"));
        i += 1;
    }
    text.push_str("FATAL needle here\nlast line\n");
    text
}

fn materialized(fs: &MemoryWriter, text: &str) -> (Materializer, String, String) {
    let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    let out = ToolOutputRef {
        tool_call_id: "big",
        tool_name: "bash",
        server_name: None,
        text,
        was_value: false,
    };
    let Materialized::Artifact {
        reference, path, ..
    } = block_on(m.materialize(&out, fs)).unwrap()
    else {
        panic!("not materialized")
    };
    (m, reference.id, path)
}

#[test]
fn tail_and_read_near_the_end_read_about_a_chunk_not_the_artifact() {
    let text = log(8);
    let fs = Counting::default();
    let (m, reference, _) = materialized(&fs.inner, &text);
    let tail = block_on(m.tail(&reference, 200, &fs)).unwrap();
    assert_eq!(tail, tail_page(&text, &reference, 200, m.page_chars()));
    let (ranged, whole) = fs.take();
    // One chunk backwards and one forwards, plus the index file: far from 8 MiB.
    assert!(ranged <= 2 * INDEX_STEP, "tail read {ranged} bytes");
    assert_eq!(whole, 1, "the index beside the artifact");

    let lines = text.lines().count();
    let read = block_on(m.read(&reference, lines - 50, 20, &fs)).unwrap();
    assert_eq!(
        read,
        read_page(&text, &reference, lines - 50, 1, 20, m.page_chars())
    );
    let (ranged, _) = fs.take();
    assert!(ranged <= 2 * INDEX_STEP, "read read {ranged} bytes");
}

#[test]
fn grep_reads_the_artifact_once_and_finds_what_the_text_pager_finds() {
    let text = log(3);
    let fs = Counting::default();
    let (m, reference, _) = materialized(&fs.inner, &text);
    let pattern = compile_pattern("fatal|NEEDLE", true).unwrap();
    let page = block_on(m.grep(&reference, &pattern, 2, 50, &fs)).unwrap();
    assert!(
        page.starts_with(&format!("[{reference}: 1 matching row in ")),
        "{page}"
    );
    assert!(page.contains("| FATAL needle here\n"), "{page}");
    let expected = tool_offload_core::materialize::grep_page(
        &text,
        &reference,
        |row| pattern.is_match(row),
        2,
        50,
        m.page_chars(),
    );
    assert_eq!(page, expected);
    let (ranged, _) = fs.take();
    // The whole artifact once, and the rows around the match again.
    assert!(ranged < text.len() as u64 + INDEX_STEP, "{ranged}");
    assert!(ranged >= text.len() as u64);
}

#[test]
fn a_large_artifact_gets_its_line_index_beside_it_and_a_small_one_does_not() {
    let text = log(2);
    let fs = MemoryWriter::new();
    let (m, _, path) = materialized(&fs, &text);
    assert_eq!(path, "/d/context/c/artifacts/tool/big.txt");
    let index = fs.read("/d/context/c/index/tool/big.txt.lines").unwrap();
    assert!(index.starts_with(&format!(
        "tool-offload line index 1\nbytes {}\nlines {}\n",
        text.len(),
        text.lines().count()
    )));
    let small = "x\n".repeat(5000);
    let out = ToolOutputRef {
        tool_call_id: "small",
        tool_name: "bash",
        server_name: None,
        text: &small,
        was_value: false,
    };
    block_on(m.materialize(&out, &fs)).unwrap();
    assert!(fs.read("/d/context/c/index/tool/small.txt.lines").is_none());
}

#[test]
fn a_missing_or_stale_index_is_rebuilt_and_pages_stay_right() {
    let text = log(2);
    let fs = Counting::default();
    let (m, reference, path) = materialized(&fs.inner, &text);
    let index_path = "/d/context/c/index/tool/big.txt.lines";
    // Stale: an index for another artifact of another size.
    block_on(fs.inner.write_file(
        index_path,
        "tool-offload line index 1\nbytes 5\nlines 1\nstep 1048576\n1 0\n",
    ))
    .unwrap();
    let expected = tail_page(&text, &reference, 10, m.page_chars());
    assert_eq!(block_on(m.tail(&reference, 10, &fs)).unwrap(), expected);
    let (first, _) = fs.take();
    assert!(first >= text.len() as u64, "the index was built by a scan");
    // Built once: kept in memory.
    assert_eq!(block_on(m.tail(&reference, 10, &fs)).unwrap(), expected);
    let (second, whole) = fs.take();
    assert!(second <= 2 * INDEX_STEP, "{second}");
    assert_eq!(whole, 0, "no index file read again");
    // The artifact replaced by hand (another size): the cached index is not used.
    let changed = format!("{text}one more\n");
    block_on(fs.inner.write_file(&path, &changed)).unwrap();
    let page = block_on(m.tail(&reference, 1, &fs)).unwrap();
    assert_eq!(page, tail_page(&changed, &reference, 1, m.page_chars()));
}

#[test]
fn a_read_failure_names_the_artifact() {
    struct Broken(MemoryWriter);
    impl FileReader for Broken {
        async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
            self.0.read_file(path).await
        }
        async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
            self.0.list_dir(dir).await
        }
        async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
            self.0.size(path).await
        }
        async fn read_range(&self, _: &str, _: u64, _: u64) -> Result<Vec<u8>, IoError> {
            Err(IoError::new("EIO: i/o error"))
        }
    }
    let fs = MemoryWriter::new();
    let (m, reference, _) = materialized(&fs, &log(2));
    let err = block_on(m.tail(&reference, 10, &Broken(fs))).unwrap_err();
    assert_eq!(err.code(), tool_offload_core::ErrorCode::ReadFailed);
    assert!(
        err.to_string()
            .contains("/d/context/c/artifacts/tool/big.txt"),
        "{err}"
    );
    assert!(err.to_string().contains("EIO: i/o error"), "{err}");
}

#[test]
fn an_imported_large_artifact_gets_its_line_index_too() {
    use tool_offload_core::materialize::import_conversation;
    let (old, new) = (MemoryWriter::new(), MemoryWriter::new());
    let m = Materializer::new(MaterializerOptions::new("/a", "c1", "/")).unwrap();
    let messages = serde_json::json!([
        {"role": "tool", "tool_call_id": "big", "content": log(2)},
        {"role": "tool", "tool_call_id": "small", "content": "x\n".repeat(5000)},
    ]);
    let views: Vec<_> = messages.as_array().unwrap().iter().collect();
    let done = block_on(m.materialize_messages(&views, &old)).unwrap();
    let mut slim = messages.clone();
    for (i, edits) in done.changed {
        tool_offload_core::apply_edits(&mut slim[i], edits);
    }
    let bundle = block_on(m.export_conversation(&slim, &old)).unwrap();
    assert!(
        !bundle.to_string().contains(".lines"),
        "indexes are not exported"
    );
    block_on(import_conversation(&bundle, "/b", "/", &new)).unwrap();
    let index = new.read("/b/context/c1/index/tool/big.txt.lines").unwrap();
    assert_eq!(
        index,
        old.read("/a/context/c1/index/tool/big.txt.lines").unwrap()
    );
    assert!(new
        .read("/b/context/c1/index/tool/small.txt.lines")
        .is_none());
}
