//! Retention under load (issue 48): reads of refs while a gc removes their artifacts in
//! the same user-data directory. Each read gives the page it gave before the gc, or says
//! the artifact was removed by retention; never `READ_FAILED` (the reader found the
//! file, then gc removed it before the read's next call: `ENOENT`).
//!
//! Whether a read hits the window is chance; what it gets when it does is not, so the
//! test finds the race often and fails only when a read answers wrongly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tool_offload::core::materialize::Materialized;
use tool_offload::{
    ErrorCode, GcOptions, GrepOptions, Materializer, OffloadError, ToolOutputInput,
};

/// Outputs per round, readers per round, and how long rounds go on.
const OUTPUTS: usize = 120;
const READERS: usize = 6;
const ROUNDS_FOR: Duration = Duration::from_secs(2);

/// The text of output `i`: small (read whole), but for one over a megabyte (read a chunk
/// at a time, through its line index).
fn output(round: usize, i: usize) -> String {
    let lines = if i == 7 { 24_000 } else { 200 };
    (0..lines)
        .map(|n| format!("round {round} output {i} line {n} of the tool's output\n"))
        .collect()
}

/// Read `i` of a ref: its head, its tail or a grep, as a model would.
async fn read(m: &Materializer, reference: &str, i: usize) -> Result<String, OffloadError> {
    match i % 3 {
        0 => m.read(reference, 0, 20).await,
        1 => m.tail(reference, 20).await,
        _ => {
            let options = GrepOptions {
                context: 1,
                max_matches: 5,
                ..GrepOptions::default()
            };
            m.grep(reference, "line [0-9]*7 of", options).await
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reads_racing_a_gc_give_the_page_or_say_removed() {
    let root = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let (mut reads, mut removed, mut wrong) = (0usize, 0usize, Vec::new());
    let mut round = 0;
    while round < 2 || started.elapsed() < ROUNDS_FOR {
        let m = Arc::new(Materializer::in_dir(root.path(), format!("conv-{round}")).unwrap());
        // Each ref with the pages it gives before the gc.
        let mut refs = Vec::new();
        for i in 0..OUTPUTS {
            let text = Value::String(output(round, i));
            let id = format!("call_{i}");
            let out = ToolOutputInput {
                tool_call_id: &id,
                tool_name: "bash",
                server_name: None,
                output: &text,
            };
            let Materialized::Artifact { reference, .. } = m.materialize(&out).await.unwrap()
            else {
                panic!("over the limits: an artifact")
            };
            let mut pages = Vec::new();
            for kind in 0..3 {
                pages.push(read(&m, &reference.id, kind).await.unwrap());
            }
            refs.push((reference.id, pages));
        }
        let refs = Arc::new(refs);
        let collected = Arc::new(AtomicBool::new(false));
        let readers: Vec<_> = (0..READERS)
            .map(|r| {
                let (m, refs, collected) = (m.clone(), refs.clone(), collected.clone());
                tokio::spawn(async move {
                    let mut answers = Vec::new();
                    // Until a whole pass starts after the gc is over.
                    loop {
                        let after = collected.load(Ordering::Acquire);
                        for k in 0..refs.len() {
                            let (reference, pages) = &refs[(k * 7 + r * 13) % refs.len()];
                            let kind = k + r;
                            let result = read(&m, reference, kind).await;
                            answers.push((reference.clone(), pages[kind % 3].clone(), result));
                        }
                        if after {
                            return answers;
                        }
                    }
                })
            })
            .collect();
        // Everything goes: no quota can be met.
        let options = GcOptions {
            max_bytes: Some(0),
            ..GcOptions::default()
        };
        let report = m.gc(&options).await.unwrap();
        collected.store(true, Ordering::Release);
        assert!(report.removed.len() >= OUTPUTS, "{report:?}");
        for reader in readers {
            for (reference, page, result) in reader.await.unwrap() {
                reads += 1;
                match result {
                    Ok(got) if got == page => {}
                    Err(OffloadError::RefRemoved(_)) => removed += 1,
                    other => wrong.push(format!("{reference}: {other:?}")),
                }
            }
        }
        // And once it is over, every ref says it was removed.
        for (reference, _) in refs.iter() {
            let err = m.read(reference, 0, 5).await.unwrap_err();
            assert_eq!(err.code(), ErrorCode::RefNotFound, "{err}");
        }
        round += 1;
    }
    assert!(
        wrong.is_empty(),
        "{} of {reads} reads in {round} rounds answered wrongly ({removed} said removed): {:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
    eprintln!("{reads} reads in {round} rounds, {removed} said removed");
}
