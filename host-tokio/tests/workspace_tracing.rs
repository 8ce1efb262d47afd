//! The tokio Workspace's `tracing` events: one per decision and one per store, each with
//! `context_type` and `biz_id`. In a test binary of its own (see common/recorder.rs).

#[path = "common/recorder.rs"]
mod recorder;

use recorder::{field, Recorder};
use serde_json::json;
use tool_offload::{ToolResultCall, Workspace};

#[tokio::test(flavor = "current_thread")]
async fn every_decision_and_store_is_an_event_with_context_type_and_biz_id() {
    let recorder = Recorder::new("tool_offload::workspace");
    let _guard = tracing::subscriber::set_default(recorder.clone());
    let root = tempfile::tempdir().unwrap();
    let ws = Workspace::in_dir(root.path()).unwrap();
    let small = json!("ok");
    let big = json!("x".repeat(50_000));
    for (id, content) in [("c_small", &small), ("c_big", &big)] {
        let call = ToolResultCall {
            tool_call_id: id,
            tool_name: "bash",
            action_name: None,
            content,
            metadata: None,
        };
        ws.offload_tool_result(&call).await.unwrap();
    }
    let events = recorder.events.lock().unwrap().clone();
    let summary: Vec<_> = events
        .iter()
        .map(|e| {
            [
                field(e, "message"),
                field(e, "context_type"),
                field(e, "biz_id"),
                field(e, "reason"),
                field(e, "replaced"),
            ]
        })
        .collect();
    assert_eq!(
        summary,
        [
            [
                "offload decision",
                "tool_result",
                "c_small",
                "under_threshold",
                ""
            ],
            [
                "offload decision",
                "tool_result",
                "c_big",
                "over_threshold",
                ""
            ],
            ["stored tool result", "tool_result", "c_big", "", "true"],
        ]
    );
    assert!(field(&events[2], "path")
        .ends_with("/context/default/artifacts/knowledge/tool_result_c_big.txt"));
}
