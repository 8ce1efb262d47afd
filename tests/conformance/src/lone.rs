//! Vectors whose JSON holds escaped lone surrogates (`"cut \ud83d"`), which serde_json
//! cannot hold: they are read as the CLI reads them, through core's
//! [`LoneSurrogates`], and run through the same plans `offload_tool_result(s)` use, over
//! a [`LoneView`](tool_offload_core::json::LoneView) instead of a plain `&Value`.

use std::borrow::Cow;

use tool_offload_core::json::LoneSurrogates;
use tool_offload_core::{
    apply_edits, BatchOffload, BatchOptions, BatchPlan, DirectOffload, DirectPlan, FileReader,
    FileWriter, OffloadError, Value,
};

/// [`tool_offload_core::offload_tool_result`] for a message read with `lone`.
pub async fn offload_tool_result<W: FileWriter>(
    lone: &LoneSurrogates,
    message: &Value,
    session_id: &str,
    output_dir: &str,
    cwd: &str,
    writer: &W,
) -> Result<DirectOffload, OffloadError> {
    let plan = DirectPlan::new(&lone.view(message), session_id, output_dir, cwd)?;
    plan.write(writer).await?;
    let mut copy = message.clone();
    apply_edits(&mut copy, plan.edits());
    let files = plan.files();
    Ok(DirectOffload {
        message: copy,
        freed_chars: plan.freed_chars,
        file: files[0].clone(),
        files,
    })
}

/// [`tool_offload_core::offload_tool_results`] for messages read with `lone`.
pub async fn offload_tool_results<'a, W: FileWriter + FileReader>(
    lone: &LoneSurrogates,
    messages: &'a [Value],
    options: &BatchOptions<'_>,
    writer: &W,
) -> Result<BatchOffload<'a>, OffloadError> {
    let views: Vec<_> = messages.iter().map(|m| lone.view(m)).collect();
    let mut plan = BatchPlan::new(&views, options)?;
    plan.write(writer).await?;
    let done = plan.edits();
    let mut out: Vec<Cow<'a, Value>> = messages.iter().map(Cow::Borrowed).collect();
    for (index, edits) in done.changed {
        let mut copy = messages[index].clone();
        apply_edits(&mut copy, edits);
        out[index] = Cow::Owned(copy);
    }
    Ok(BatchOffload {
        messages: out,
        offloaded_count: done.offloaded_count,
        freed_chars: done.freed_chars,
        files: done.files,
        tool_results: done.tool_results,
        tool_result_chars: done.tool_result_chars,
    })
}
