//! Binary outputs (a `Uint8Array` or `Buffer` in JavaScript, bytes in Rust): stored as
//! they are in `<id>.bin`, never shown: the summary names their size and kind, and
//! read-back says there is no text to read.

use crate::read::artifacts::BINARY_EXTENSION;
use std::sync::atomic::Ordering;

use super::materializer::Materializer;
use super::types::Materialized;
use crate::create::Payload;
use crate::forms::context_ref::{ContextRef, RefHint};
use crate::forms::reference;
use crate::forms::reference::unsafe_ref_component;
use crate::forms::reference::ArtifactKind;
use crate::limits::tool_limits::MaterializeWhen;
use crate::summary::binary_summary;
use crate::{error::OffloadError, io::FileReader, io::FileWriter};

/// One binary tool output: the call's ids and the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BinaryOutputRef<'a> {
    /// The tool call's id: the artifact is `<id>.bin`.
    pub tool_call_id: &'a str,
    /// The tool's name.
    pub tool_name: &'a str,
    /// The MCP server, if any.
    pub server_name: Option<&'a str>,
    /// The output.
    pub bytes: &'a [u8],
}

impl Materializer {
    /// Store a binary output as it is, in `…/artifacts/tool/<toolCallId>.bin`, whatever
    /// its size (bytes are never shown to a model), unless the tool's
    /// [`tools`](super::types::MaterializerOptions::tools) entry says `never`; its summary is
    /// one line naming its size and, by magic number, its kind. The writer creates the
    /// file with [`FileWriter::create_bytes`]; a `.bin` with the same bytes is reused,
    /// different bytes go to `<id>-1.bin`. The ref's hint counts bytes only (`chars` and `lines` are 0).
    ///
    /// # Errors
    /// `INVALID_ID` for an id that cannot name a file; `WRITE_FAILED`, `READ_FAILED`.
    ///
    /// ```
    /// use tool_offload_core::materialize::{BinaryOutputRef, Materialized, Materializer, MaterializerOptions};
    /// use tool_offload_core::MemoryWriter;
    /// let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    /// let io = MemoryWriter::new();
    /// let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe";
    /// let output = BinaryOutputRef { tool_call_id: "shot", tool_name: "screenshot", server_name: None, bytes: png };
    /// let Materialized::Artifact { summary, path, .. } = futures_executor::block_on(m.materialize_binary(&output, &io)).unwrap() else { panic!() };
    /// assert_eq!(summary, "[Output of screenshot (call shot) stored as ctx://c/tool/shot.bin: binary data, 18 bytes, looks like a PNG image; not shown, and not text to read back.]");
    /// assert_eq!(io.read_bytes(&path).unwrap(), png);
    /// ```
    pub async fn materialize_binary<IO>(
        &self,
        output: &BinaryOutputRef<'_>,
        io: &IO,
    ) -> Result<Materialized, OffloadError>
    where
        IO: FileWriter + FileReader + ?Sized,
    {
        let kind = ArtifactKind::Tool;
        let stem = output.tool_call_id;
        if let Some(reason) = unsafe_ref_component(stem, ".bin".len()) {
            return Err(OffloadError::InvalidId {
                field: kind.id_field().into(),
                value: Some(stem.into()),
                reason,
            });
        }
        if self.limits_for(output.tool_name).when == Some(MaterializeWhen::Never) {
            self.inlined.fetch_add(1, Ordering::Relaxed);
            return Ok(Materialized::Inline);
        }
        let bytes = Payload::Bytes(output.bytes);
        let (file, path) = self
            .place(kind, (stem, BINARY_EXTENSION), bytes, io)
            .await?;
        let id = reference::mint(&self.options().conversation_id, kind, &file);
        let origin = (stem, output.tool_name, output.server_name);
        let summary = binary_summary(&id, origin, output.bytes);
        self.hits.fetch_add(1, Ordering::Relaxed);
        let hint = RefHint {
            tool_name: output.tool_name.into(),
            server_name: output.server_name.map(str::to_owned),
            tool_call_id: stem.into(),
            bytes: output.bytes.len(),
            chars: 0,
            lines: 0,
            is_json: false,
            redacted: Vec::new(),
        };
        Ok(Materialized::Artifact {
            summary,
            reference: ContextRef { id, hint },
            path,
        })
    }
}

#[cfg(test)]
#[path = "binary_tests.rs"]
mod tests;
