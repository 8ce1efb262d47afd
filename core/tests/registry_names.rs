//! An offloading registry never overwrites: a reused `tool_use_id` takes the next free
//! name, an id too long for a suffix is refused, and a writer that reports every name
//! taken ends with an error instead of looping.

use futures_executor::block_on;
use tool_offload_core::tools::{ResultOffload, ToolResult};
use tool_offload_core::{CreateOutcome, ErrorCode, FileWriter, IoError, MemoryWriter};

fn result(id: &str, content: &str) -> ToolResult {
    ToolResult {
        tool_use_id: id.into(),
        content: content.into(),
        is_error: false,
    }
}

#[test]
fn a_reused_id_takes_the_next_free_name_and_leaves_the_first() {
    let writer = MemoryWriter::new();
    let offload = ResultOffload::new("out", "s", "/w");
    let first = block_on(offload.apply(result("t", &"a".repeat(1000)), &writer)).unwrap();
    let second = block_on(offload.apply(result("t", &"b".repeat(1000)), &writer)).unwrap();
    let third = block_on(offload.apply(result("t", &"a".repeat(1000)), &writer)).unwrap();
    assert_eq!(
        first.content,
        "[Tool result offloaded to file: /w/out/s/t.md]"
    );
    assert_eq!(
        second.content,
        "[Tool result offloaded to file: /w/out/s/t-1.md]"
    );
    // Never compared, so never reused: the same text again gets a name of its own.
    assert_eq!(
        third.content,
        "[Tool result offloaded to file: /w/out/s/t-2.md]"
    );
    assert_eq!(writer.read("/w/out/s/t.md").unwrap(), "a".repeat(1000));
    assert_eq!(writer.read("/w/out/s/t-1.md").unwrap(), "b".repeat(1000));
}

#[test]
fn an_id_with_no_room_for_a_suffix_is_invalid_once_its_name_is_taken() {
    let writer = MemoryWriter::new();
    let offload = ResultOffload::new("/out", "s", "/");
    let id = "i".repeat(252); // "<id>.md" is 255 bytes, "<id>-1.md" 257
    block_on(offload.apply(result(&id, &"x".repeat(1000)), &writer)).unwrap();
    let err = block_on(offload.apply(result(&id, &"y".repeat(1000)), &writer)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidId);
    assert!(err.to_string().contains("longer than 255 bytes"), "{err}");
    assert_eq!(
        writer.read(&format!("/out/s/{id}.md")).unwrap(),
        "x".repeat(1000)
    );
}

/// A store on which every name is taken.
struct Full;

impl FileWriter for Full {
    async fn mkdir(&self, _: &str) -> Result<(), IoError> {
        Ok(())
    }
    async fn write_file(&self, path: &str, _: &str) -> Result<(), IoError> {
        panic!("nothing may be overwritten: {path}")
    }
    async fn create_file(&self, _: &str, _: &str) -> Result<CreateOutcome, IoError> {
        Ok(CreateOutcome::Exists)
    }
}

#[test]
fn a_store_with_every_name_taken_ends_with_write_failed() {
    let offload = ResultOffload::new("/out", "s", "/");
    let err = block_on(offload.apply(result("t", &"x".repeat(1000)), &Full)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::WriteFailed);
    assert!(err.to_string().contains("no free file name"), "{err}");
}
