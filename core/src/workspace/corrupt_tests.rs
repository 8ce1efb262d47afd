//! One record file that holds no record (truncated, emptied, garbage, another id's)
//! never takes the namespace down: walks skip and report it, the rest answer.

use super::*;
use crate::{error::ErrorCode, io::FileWriter, memory::MemoryWriter};
use futures_executor::block_on;
use serde_json::json;
use serde_json::Map;

const RECORDS: &str = "/data/context/default/records";

/// A namespace with two good tool results and three bad record files.
fn damaged() -> (Workspace, MemoryWriter) {
    let ws = Workspace::new(WorkspaceOptions::new("/data", "/")).unwrap();
    let io = MemoryWriter::new();
    for call in ["a", "b"] {
        let mut input = ToolResultInput::text(call, "bash", "some output");
        input.metadata = json!({"offload": true}).as_object().unwrap().clone();
        block_on(ws.offload_tool_result(&input, None, 1.0, &io)).unwrap();
    }
    block_on(async {
        io.write_file(&format!("{RECORDS}/truncated.json"), r#"{"id":"trunc"#)
            .await
            .unwrap();
        io.write_file(&format!("{RECORDS}/empty.json"), "")
            .await
            .unwrap();
        let other = io.read(&format!("{RECORDS}/tool_result_a.json")).unwrap();
        io.write_file(&format!("{RECORDS}/copied.json"), &other)
            .await
            .unwrap();
    });
    (ws, io)
}

#[test]
fn queries_answer_around_a_bad_record_and_report_it() {
    let (ws, io) = damaged();
    let all = block_on(ws.query(&Query::new(Map::new()), &io)).unwrap();
    let mut ids: Vec<_> = all.into_iter().map(|r| r.id).collect();
    ids.sort();
    assert_eq!(ids, ["tool_result_a", "tool_result_b"]);
    let skipped: Vec<_> = ws.skipped_records().into_iter().map(|(id, _)| id).collect();
    assert_eq!(skipped, ["copied", "empty", "truncated"]);
    let (_, why) = &ws.skipped_records()[0];
    assert!(why.contains("its id is \"tool_result_a\""), "{why}");
    let infos = block_on(ws.tool_result_offload_info(None, None, &io)).unwrap();
    assert_eq!(infos.len(), 2);
    // A fresh workspace (another process) lists the directory itself.
    let other = Workspace::new(WorkspaceOptions::new("/data", "/")).unwrap();
    assert_eq!(block_on(other.records(&io)).unwrap().len(), 2);
    assert_eq!(other.skipped_records().len(), 3);
}

#[test]
fn the_model_sees_what_was_left_out_and_a_read_of_it_still_fails_clearly() {
    let (ws, io) = damaged();
    let out = block_on(ws.run_knowledge_tool(QUERY_ARTIFACTS, &json!({}), &io));
    assert!(
        out.content.starts_with("[2 artifacts, newest first, from offset 0.] [3 record files left out: not a readable record (copied, empty, truncated).]\n"),
        "{}",
        out.content
    );
    let err = block_on(ws.get_by_id("truncated", &io)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ReadFailed);
    assert!(err.to_string().contains("not a knowledge record"), "{err}");
    // Repaired, it is listed again and no longer reported.
    let good = io.read(&format!("{RECORDS}/tool_result_a.json")).unwrap();
    let repaired = good.replace("\"id\":\"tool_result_a\"", "\"id\":\"truncated\"");
    block_on(io.write_file(&format!("{RECORDS}/truncated.json"), &repaired)).unwrap();
    assert_eq!(
        block_on(ws.query(&Query::new(Map::new()), &io))
            .unwrap()
            .len(),
        3
    );
    assert_eq!(ws.skipped_records().len(), 2);
}
