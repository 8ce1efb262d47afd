//! Binary outputs end to end in core: stored as they are, never shown, refused by
//! read-back with their size and kind, skipped by a search of every artifact, and
//! carried by export and import in base64.

use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::materialize::{import_conversation, MaterializeWhen, MaterializerOptions, ToolLimits};
use crate::{io::CreateOutcome, io::IoError, memory::MemoryWriter};

/// A PNG signature, then every byte value (far from UTF-8).
fn png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend(0..=255u8);
    bytes
}

fn output(bytes: &[u8]) -> BinaryOutputRef<'_> {
    BinaryOutputRef {
        tool_call_id: "shot",
        tool_name: "screenshot",
        server_name: None,
        bytes,
    }
}

fn materializer() -> Materializer {
    Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap()
}

fn artifact(done: Materialized) -> (String, String, String) {
    match done {
        Materialized::Artifact {
            summary,
            reference,
            path,
        } => (summary, reference.id, path),
        other => panic!("not an artifact: {other:?}"),
    }
}

#[test]
fn stored_as_they_are_reused_when_equal_and_never_shown() {
    let (m, io) = (materializer(), MemoryWriter::new());
    let bytes = png();
    let (summary, id, path) =
        artifact(block_on(m.materialize_binary(&output(&bytes), &io)).unwrap());
    assert_eq!(path, "/d/context/c/artifacts/tool/shot.bin");
    assert_eq!(id, "ctx://c/tool/shot.bin");
    assert_eq!(io.read_bytes(&path).unwrap(), bytes);
    assert!(summary.contains("binary data, 264 bytes, looks like a PNG image; not shown"));
    assert!(!summary.contains("PNG\r"));
    // The same bytes again: the same artifact; other bytes under the same id: `-1`.
    let again = artifact(block_on(m.materialize_binary(&output(&bytes), &io)).unwrap());
    assert_eq!(again.2, path);
    let other = artifact(block_on(m.materialize_binary(&output(b"\0\x01"), &io)).unwrap());
    assert_eq!(other.2, "/d/context/c/artifacts/tool/shot-1.bin");
    assert_eq!(m.stats().hits, 3);
}

#[test]
fn read_back_says_what_the_data_is_and_grep_all_passes_it_by() {
    let (m, io) = (materializer(), MemoryWriter::new());
    let bytes = png();
    let (_, id, _) = artifact(block_on(m.materialize_binary(&output(&bytes), &io)).unwrap());
    let expected = "invalid argument: ctx://c/tool/shot.bin is binary data (264 bytes, looks like a PNG image): it has no text to read or search";
    let read = block_on(m.read(&id, 0, 10, &io)).unwrap_err();
    assert_eq!(read.to_string(), expected);
    assert_eq!(
        block_on(m.tail(&id, 5, &io)).unwrap_err().to_string(),
        expected
    );
    let json = block_on(m.read_json(&id, "$.a", 0, 1, 10, &io)).unwrap_err();
    assert_eq!(json.to_string(), expected);
    let pattern = crate::materialize::compile_pattern("PNG", false).unwrap();
    let all = block_on(m.grep_all(&pattern, 0, 10, &io)).unwrap();
    assert!(!all.contains("shot.bin"), "{all}");
}

#[test]
fn a_tool_kept_inline_stays_inline_and_a_bad_id_is_refused() {
    let mut options = MaterializerOptions::new("/d", "c", "/");
    let never = ToolLimits {
        materialize: Some(MaterializeWhen::Never),
        ..ToolLimits::default()
    };
    options.tools = vec![("screenshot".into(), never)];
    let (m, io) = (Materializer::new(options).unwrap(), MemoryWriter::new());
    let done = block_on(m.materialize_binary(&output(&png()), &io)).unwrap();
    assert_eq!(done, Materialized::Inline);
    assert!(io.files().is_empty());
    let bad = BinaryOutputRef {
        tool_call_id: "../x",
        ..output(b"x")
    };
    let err = block_on(materializer().materialize_binary(&bad, &io)).unwrap_err();
    assert_eq!(err.code().as_str(), "INVALID_ID");
}

/// A writer that writes text only (the trait's default `create_bytes`).
struct TextOnly(MemoryWriter);
impl crate::io::FileWriter for TextOnly {
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
impl crate::io::FileReader for TextOnly {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.0.read_file(path).await
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

#[test]
fn a_writer_without_bytes_fails_clearly() {
    let io = TextOnly(MemoryWriter::new());
    let err = block_on(materializer().materialize_binary(&output(b"\0"), &io)).unwrap_err();
    assert_eq!(err.code().as_str(), "WRITE_FAILED");
    assert!(
        err.to_string()
            .contains("this writer does not write binary data"),
        "{err}"
    );
}

#[test]
fn export_and_import_carry_the_bytes_in_base64() {
    let (m, io) = (materializer(), MemoryWriter::new());
    let bytes = png();
    let (summary, _, _) = artifact(block_on(m.materialize_binary(&output(&bytes), &io)).unwrap());
    let messages = json!([{"role": "tool", "tool_call_id": "shot", "content": summary}]);
    let bundle = block_on(m.export_conversation(&messages, &io)).unwrap();
    let entry = &bundle["artifacts"][0];
    assert_eq!(entry["encoding"], "base64");
    assert_eq!(entry["content"], crate::base64::encode(&bytes));
    assert_eq!(entry["sha256"], crate::sha256::sha256_hex_of(&bytes));
    let fresh = MemoryWriter::new();
    let done = block_on(import_conversation(&bundle, "/e", "/", &fresh)).unwrap();
    assert_eq!(done.paths, ["/e/context/c/artifacts/tool/shot.bin"]);
    assert_eq!(fresh.read_bytes(&done.paths[0]).unwrap(), bytes);
    // Importing again finds the same bytes; a tampered bundle is refused.
    block_on(import_conversation(&bundle, "/e", "/", &fresh)).unwrap();
    let mut bad = bundle.clone();
    bad["artifacts"][0]["content"] = json!("AAAA");
    let err = block_on(import_conversation(&bad, "/f", "/", &fresh)).unwrap_err();
    assert!(err.to_string().contains("fails its SHA-256 check"), "{err}");
    bad["artifacts"][0]["content"] = json!("not base64!");
    let err = block_on(import_conversation(&bad, "/f", "/", &fresh)).unwrap_err();
    assert!(err.to_string().contains("not padded base64"), "{err}");
    bad["artifacts"][0]["encoding"] = json!("hex");
    let err = block_on(import_conversation(&bad, "/f", "/", &fresh)).unwrap_err();
    assert!(
        err.to_string().contains("only \"base64\" is known"),
        "{err}"
    );
}
