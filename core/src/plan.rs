//! Offloads decided but not yet written, shared by direct and batch offload: hosts that
//! must build their output copies before writing (the wasm host, whose copy step can
//! fail on JavaScript values) plan first, then write.

use crate::message::Slot;
use crate::view::Text;
use crate::{FileWriter, OffloadError};

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
            .map_err(|source| OffloadError::WriteFailed {
                path: dir.to_owned(),
                source,
            })?;
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
