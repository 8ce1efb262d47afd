//! Offloads decided but not yet written, shared by direct and batch offload: hosts that
//! must build their output copies before writing (the wasm host, whose copy step can
//! fail on JavaScript values) plan first, then write.

use crate::json::view::Text;
use crate::message::Slot;
use crate::{error::OffloadError, io::FileWriter};

/// One tool result chosen for offloading, with its file decided.
#[derive(Debug)]
pub struct PlannedOffload<T> {
    /// The tool result's id (its file is named after it).
    pub id: String,
    /// Where the content sits in its message.
    pub slot: Slot,
    /// Absolute path of the file.
    pub path: String,
    /// What replaces the content in the message.
    pub placeholder: String,
    /// The original content's size in UTF-16 code units.
    pub chars: usize,
    /// The content to write.
    pub text: T,
}

/// The slot → placeholder edits that turn a message into its offloaded copy.
pub fn edits<T>(offloads: &[PlannedOffload<T>]) -> Vec<(Slot, String)> {
    offloads
        .iter()
        .map(|o| (o.slot, o.placeholder.clone()))
        .collect()
}

/// Replace well-known secrets in the planned contents (the `redact` option of direct
/// and batch offload, the rules of [`redact`](crate::redact::redact)): a content that
/// holds any is written with them replaced by `[REDACTED:<kind>]`. The message's
/// placeholder and sizes do not change: they describe what left the conversation. Host
/// texts are read into Rust only here, and only with `redact` on.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::{redact_offloads, DirectPlan};
/// let message = json!({"role": "tool", "tool_call_id": "c1", "content": "key AKIAIOSFODNN7EXAMPLE"});
/// let mut plan = DirectPlan::new(&&message, "s", "/o", "/").unwrap();
/// redact_offloads(&mut plan.offloads, &true.into());
/// assert_eq!(plan.offloads[0].text, "key [REDACTED:aws-access-key]");
/// ```
pub fn redact_offloads<T: Text>(
    offloads: &mut [PlannedOffload<T>],
    redaction: &crate::redact::Redaction,
) {
    for offload in offloads {
        let redacted = match redaction.apply(&offload.text.to_str()).text {
            std::borrow::Cow::Owned(text) => text,
            std::borrow::Cow::Borrowed(_) => continue,
        };
        offload.text = T::from_owned(redacted);
    }
}

/// Create `dir` (when given) and write every planned file, in order, replacing what is
/// there (direct offload's rule: a repeated id overwrites).
pub(crate) async fn write_offloads<T, W>(
    dir: Option<&str>,
    offloads: &[PlannedOffload<T>],
    writer: &W,
) -> Result<(), OffloadError>
where
    T: Text,
    W: FileWriter<T::Data> + ?Sized,
{
    if let Some(dir) = dir {
        writer
            .mkdir(dir)
            .await
            .map_err(crate::create::dir_failed(dir))?;
    }
    for offload in offloads {
        writer
            .write_file(&offload.path, offload.text.data())
            .await
            .map_err(|source| OffloadError::WriteFailed {
                path: offload.path.clone(),
                source,
            })?;
    }
    Ok(())
}
