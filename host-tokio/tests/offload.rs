//! The tokio host against a real file system: path resolution against the process's
//! working directory, the atomic `TokioFileWriter`, `Send` futures and concurrency.
//!
//! Only `relative_output_dir_resolves_against_the_process_cwd` changes the working
//! directory; every other test uses absolute paths, so running in parallel is safe.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::json;
use tool_offload::{
    offload_tool_result, offload_tool_result_to_file, ErrorCode, FileWriter, IoError,
    TokioFileWriter, Value,
};

/// Names of the entries of `dir`, sorted.
fn entries(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect()
}

fn temp_files(dir: &Path) -> Vec<String> {
    entries(dir)
        .into_iter()
        .filter(|name| name.starts_with(".tool-offload-") || name.ends_with(".tmp"))
        .collect()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A canonical temporary directory, so paths compare equal to what `getcwd` returns.
fn tempdir() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    (tmp, root)
}

/// Restores the working directory when dropped, even if the test panics.
struct RestoreCwd(PathBuf);

impl Drop for RestoreCwd {
    fn drop(&mut self) {
        std::env::set_current_dir(&self.0).unwrap();
    }
}

// ---------------------------------------------------------------------------------------
// offload_tool_result_to_file
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn relative_output_dir_resolves_against_the_process_cwd() {
    let (_tmp, root) = tempdir();
    let original = std::env::current_dir().unwrap();
    assert_ne!(original, root);
    std::env::set_current_dir(&root).unwrap();
    let _restore = RestoreCwd(original.clone());

    // String content with non-ASCII, astral characters, CRLF, a NUL and JSON-looking
    // text: written as its UTF-8, unescaped. Array content: its JSON.stringify, where
    // 1.0 becomes 1 and keys keep their order.
    let text = "héllo 😀\r\n\"quoted\" \\ tab\t nul\0 {\"a\": 1.0}\n";
    let array: Value =
        serde_json::from_str(r#"[{"type":"text","text":"ü 😀\n"},{"z":1.0,"a":-0.0,"big":1e21}]"#)
            .unwrap();
    let message = json!({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_text", "content": text},
        {"type": "tool_result", "tool_use_id": "toolu_array", "content": array},
    ]});

    let done = offload_tool_result_to_file(&message, "sess", "./x/../artifacts")
        .await
        .unwrap();

    let dir = root.join("artifacts").join("sess");
    let text_path = dir.join("toolu_text.md");
    let array_path = dir.join("toolu_array.md");
    assert!(Path::new(&done.file).is_absolute(), "{}", done.file);
    assert!(done.files.iter().all(|f| Path::new(f).is_absolute()));
    assert_eq!(done.file, s(&text_path));
    assert_eq!(done.files, [s(&text_path), s(&array_path)]);
    assert_eq!(
        done.message["content"][0]["content"],
        format!("[Tool result offloaded to file: {}]", s(&text_path))
    );
    assert_eq!(
        done.message["content"][1]["content"],
        format!("[Tool result offloaded to file: {}]", s(&array_path))
    );

    assert_eq!(std::fs::read(&text_path).unwrap(), text.as_bytes());
    assert_eq!(
        std::fs::read(&array_path).unwrap(),
        r#"[{"type":"text","text":"ü 😀\n"},{"z":1,"a":0,"big":1e+21}]"#.as_bytes()
    );
    // `x` was only a path segment, never created; nothing else was written.
    assert_eq!(entries(&root), BTreeSet::from(["artifacts".to_owned()]));
    assert_eq!(
        entries(&dir),
        BTreeSet::from(["toolu_array.md".to_owned(), "toolu_text.md".to_owned()])
    );

    // The generic entry point resolves the same way.
    let openai = json!({"role": "tool", "tool_call_id": "call_1", "content": "openai"});
    let done = offload_tool_result(&openai, "sess", "artifacts", &TokioFileWriter::new())
        .await
        .unwrap();
    assert_eq!(done.file, s(&dir.join("call_1.md")));
    assert_eq!(std::fs::read(dir.join("call_1.md")).unwrap(), b"openai");

    drop(_restore);
    assert_eq!(std::env::current_dir().unwrap(), original);
}

#[tokio::test]
async fn non_utf8_output_dir_is_invalid_argument() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let (_tmp, root) = tempdir();
    let output_dir = root.join(OsStr::from_bytes(b"\xff"));
    let message = json!({"role": "tool", "tool_call_id": "c1", "content": "x"});

    let err = offload_tool_result_to_file(&message, "s1", &output_dir)
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidArgument);
    assert_eq!(
        err.to_string(),
        format!(
            "invalid argument: output directory is not valid UTF-8: {}/\u{FFFD}",
            s(&root)
        )
    );
    let err = offload_tool_result(&message, "s1", &output_dir, &TokioFileWriter::durable())
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidArgument);
    assert!(entries(&root).is_empty(), "{:?}", entries(&root));
}

#[tokio::test]
async fn write_into_a_directory_path_is_write_failed_and_leaves_it_intact() {
    let (_tmp, root) = tempdir();
    let blocker = root.join("s1").join("t1.md");
    std::fs::create_dir_all(&blocker).unwrap();
    std::fs::write(blocker.join("inner.txt"), "keep").unwrap();

    let message = json!({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "x"}
    ]});
    let err = offload_tool_result_to_file(&message, "s1", &root)
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::WriteFailed);
    assert!(
        err.to_string()
            .starts_with(&format!("failed to write {}: ", s(&blocker))),
        "{err}"
    );
    assert!(blocker.is_dir());
    assert_eq!(std::fs::read(blocker.join("inner.txt")).unwrap(), b"keep");
    assert_eq!(
        entries(&root.join("s1")),
        BTreeSet::from(["t1.md".to_owned()])
    );
}

// ---------------------------------------------------------------------------------------
// TokioFileWriter
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn overwrite_replaces_the_whole_content() {
    let (_tmp, root) = tempdir();
    let path = root.join("a.md");
    let writer = TokioFileWriter::new();
    writer
        .write_file(s(&path), "a long first version\nwith two lines")
        .await
        .unwrap();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"a long first version\nwith two lines"
    );
    writer.write_file(s(&path), "short").await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"short");
    writer.write_file(s(&path), "").await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"");
    assert_eq!(entries(&root), BTreeSet::from(["a.md".to_owned()]));
}

#[tokio::test]
async fn no_temporary_files_remain_after_success() {
    let (_tmp, root) = tempdir();
    for writer in [TokioFileWriter::new(), TokioFileWriter::durable()] {
        for i in 0..5 {
            let path = root.join(format!("f{i}.md"));
            writer
                .write_file(s(&path), &"x".repeat(i * 1000))
                .await
                .unwrap();
        }
    }
    assert!(temp_files(&root).is_empty(), "{:?}", temp_files(&root));
    assert_eq!(entries(&root).len(), 5);
}

#[tokio::test]
async fn writing_into_a_missing_directory_fails_and_leaves_nothing() {
    let (_tmp, root) = tempdir();
    let missing = root.join("missing");
    let path = missing.join("a.md");
    for writer in [TokioFileWriter::new(), TokioFileWriter::durable()] {
        let err: IoError = writer.write_file(s(&path), "data").await.unwrap_err();
        let io = std::error::Error::source(&err)
            .and_then(|e| e.downcast_ref::<std::io::Error>())
            .expect("the std::io::Error is kept as the source");
        assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
        assert_eq!(err.message(), io.to_string());
        assert!(!missing.exists());
        assert!(entries(&root).is_empty(), "{:?}", entries(&root));
    }
}

#[tokio::test]
async fn writing_over_a_directory_fails_keeps_it_and_removes_the_temp_file() {
    let (_tmp, root) = tempdir();
    let target = root.join("target.md");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("child"), "child data").unwrap();
    for writer in [TokioFileWriter::new(), TokioFileWriter::durable()] {
        let err = writer.write_file(s(&target), "data").await.unwrap_err();
        assert!(!err.message().is_empty());
        assert!(target.is_dir());
        assert_eq!(entries(&target), BTreeSet::from(["child".to_owned()]));
        assert_eq!(std::fs::read(target.join("child")).unwrap(), b"child data");
        assert!(temp_files(&root).is_empty(), "{:?}", temp_files(&root));
        assert_eq!(entries(&root), BTreeSet::from(["target.md".to_owned()]));
    }
}

#[tokio::test]
async fn durable_writes_the_same_bytes() {
    let (_tmp, root) = tempdir();
    let data = "durable ✓ 😀\r\n\0end";
    let fast = root.join("fast.md");
    let durable = root.join("durable.md");
    TokioFileWriter::new()
        .write_file(s(&fast), data)
        .await
        .unwrap();
    TokioFileWriter::durable()
        .write_file(s(&durable), data)
        .await
        .unwrap();
    assert_eq!(std::fs::read(&durable).unwrap(), data.as_bytes());
    assert_eq!(
        std::fs::read(&fast).unwrap(),
        std::fs::read(&durable).unwrap()
    );

    // And through the offload entry point.
    let message = json!({"role": "tool", "tool_call_id": "c1", "content": [{"n": 2.50}]});
    let done = offload_tool_result(&message, "s1", &root, &TokioFileWriter::durable())
        .await
        .unwrap();
    assert_eq!(std::fs::read(&done.file).unwrap(), br#"[{"n":2.5}]"#);
    assert!(temp_files(&root.join("s1")).is_empty());
}

#[tokio::test]
async fn a_255_byte_file_name_can_be_written() {
    let (_tmp, root) = tempdir();
    let name = format!("{}.md", "a".repeat(252));
    assert_eq!(name.len(), 255);
    let path = root.join(&name);
    for writer in [TokioFileWriter::new(), TokioFileWriter::durable()] {
        writer.write_file(s(&path), "max").await.unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"max");
    }
    assert_eq!(entries(&root), BTreeSet::from([name]));
}

#[tokio::test]
async fn mkdir_creates_parents_and_accepts_an_existing_directory() {
    let (_tmp, root) = tempdir();
    let deep = root.join("a").join("b").join("c");
    let writer = TokioFileWriter::new();
    writer.mkdir(s(&deep)).await.unwrap();
    assert!(deep.is_dir());
    writer.mkdir(s(&deep)).await.unwrap();

    // A file in the way is an error, not silently replaced.
    let file = root.join("file");
    std::fs::write(&file, "f").unwrap();
    let err = writer.mkdir(s(&file.join("sub"))).await.unwrap_err();
    assert!(!err.message().is_empty());
    assert_eq!(std::fs::read(&file).unwrap(), b"f");
}

// ---------------------------------------------------------------------------------------
// Send, spawn, concurrency
// ---------------------------------------------------------------------------------------

fn assert_send<T: Send>(_: &T) {}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_offload_future_is_send_and_can_be_spawned() {
    let (_tmp, root) = tempdir();
    let message = json!({"role": "tool", "tool_call_id": "c1", "content": "sent"});
    let writer = TokioFileWriter::new();

    let future = offload_tool_result(&message, "s1", root.as_path(), &writer);
    assert_send(&future);
    let done = future.await.unwrap();
    assert_eq!(std::fs::read(&done.file).unwrap(), b"sent");

    let future = offload_tool_result_to_file(&message, "s2", root.as_path());
    assert_send(&future);
    future.await.unwrap();

    // Owned data moved into a spawned task.
    let owned_message = json!({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "spawned"}
    ]});
    let owned_session = String::from("s3");
    let owned_dir = root.clone();
    let handle = tokio::spawn(async move {
        offload_tool_result(
            &owned_message,
            &owned_session,
            owned_dir,
            &TokioFileWriter::new(),
        )
        .await
    });
    let done = handle.await.unwrap().unwrap();
    let expected = root.join("s3").join("t1.md");
    assert_eq!(done.file, s(&expected));
    assert_eq!(std::fs::read(&expected).unwrap(), b"spawned");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_concurrent_offloads_into_one_directory() {
    let (_tmp, root) = tempdir();
    let content = |i: usize| format!("result {i}: {}\n", "abcdefghij".repeat(i * 37 + 1));

    let mut handles = Vec::new();
    for i in 0..50 {
        let dir = root.clone();
        let message = if i % 2 == 0 {
            json!({"role": "tool", "tool_call_id": format!("call_{i}"), "content": content(i)})
        } else {
            json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": format!("call_{i}"), "content": content(i)}
            ]})
        };
        let writer = if i % 3 == 0 {
            TokioFileWriter::durable()
        } else {
            TokioFileWriter::new()
        };
        handles.push(tokio::spawn(async move {
            offload_tool_result(&message, "shared", dir, &writer).await
        }));
    }

    let session = root.join("shared");
    for (i, handle) in handles.into_iter().enumerate() {
        let done = handle.await.unwrap().unwrap();
        let path = session.join(format!("call_{i}.md"));
        assert_eq!(done.file, s(&path));
        assert_eq!(done.files, [s(&path)]);
    }
    for i in 0..50 {
        let path = session.join(format!("call_{i}.md"));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            content(i),
            "call_{i}"
        );
    }
    let names = entries(&session);
    assert_eq!(names.len(), 50, "{names:?}");
    assert!(
        temp_files(&session).is_empty(),
        "{:?}",
        temp_files(&session)
    );
}
