//! `Workspace::offload_tool_result` against `Materializer::materialize` of the same text
//! (issue 33, "The workspace at the Materializer's speed"), natively: 1, 10 and 50 MB
//! build logs, each stored fresh on disk, the two taking turns; ms, best of 5. The npm
//! package's twin is `bench/workspace-speed.mjs`. Numbers, not pass/fail.
//!
//! `cargo bench -p tool-offload --bench workspace_speed [-- --quick]` (`--quick`: 1 and 10 MB)

use std::time::Instant;

use serde_json::Value;
use tool_offload::{Materializer, ToolOutputInput, ToolResultCall, Workspace};

/// A build log of `bytes` bytes, as `bench/workspace-speed.mjs` writes it.
fn log(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 100);
    let mut i = 0;
    while out.len() < bytes {
        if i % 5000 == 4999 {
            out.push_str(&format!(
                "error[E0308]: mismatched types at src/lib.rs:{i}\n"
            ));
        } else {
            out.push_str(&format!(
                "[{i:07}] INFO compiling crate_{} v0.{}.0 in {}ms\n",
                i % 97,
                i % 13,
                i % 900
            ));
        }
        i += 1;
    }
    out
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let sizes: &[usize] = match std::env::args().any(|a| a == "--quick") {
        true => &[1, 10],
        false => &[1, 10, 50],
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    println!("| output | Materializer::materialize | Workspace::offload_tool_result | × |");
    println!("|---|---:|---:|---:|");
    let mut n = 0;
    for &mb in sizes {
        let text = Value::String(log(mb * 1_000_000));
        let m = Materializer::in_dir(dir.path().join("m"), "c").expect("a materializer");
        let ws = Workspace::in_dir(dir.path().join("w")).expect("a workspace");
        let (mut materialize, mut offload) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..5 {
            n += 1;
            let id = format!("m{n}");
            let start = Instant::now();
            let output = ToolOutputInput {
                tool_call_id: &id,
                tool_name: "bash",
                server_name: None,
                output: &text,
            };
            m.materialize(&output).await.expect("materialized");
            materialize = materialize.min(start.elapsed().as_secs_f64() * 1e3);
            let id = format!("w{n}");
            let start = Instant::now();
            let call = ToolResultCall {
                tool_call_id: &id,
                tool_name: "bash",
                action_name: None,
                content: &text,
                metadata: None,
            };
            ws.offload_tool_result(&call).await.expect("offloaded");
            offload = offload.min(start.elapsed().as_secs_f64() * 1e3);
        }
        println!(
            "| {mb} MB | {materialize:.0} | {offload:.0} | {:.2} |",
            offload / materialize
        );
    }
}
