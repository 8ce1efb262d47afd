//! Read-back by JSON path: `context_read(ref, path="$.items[10]")` shows what the path
//! selects in a JSON artifact, pretty-printed and paged like any read, so a model never
//! pages through a megabyte of minified JSON to reach one member.

use super::materializer::Materializer;
use crate::json::{is_json_document, pretty_head, JsonPath};
use crate::read::{Naming, Within};
use crate::{error::OffloadError, io::FileReader};

/// The largest artifact a path reads, in bytes: the document is parsed whole, in memory.
pub const MAX_JSON_PATH_BYTES: u64 = 32 * 1024 * 1024;

impl Materializer {
    /// What `path` (see [`JsonPath`]) selects in the JSON artifact `reference` names,
    /// pretty-printed as `JSON.stringify(value, null, 2)` lays it out, and paged like
    /// [`Materializer::read_from`]: lines `offset..offset + limit` of the selection
    /// (0-based), from part `part` (or [`Within::Char`]) of the first.
    ///
    /// # Errors
    /// As [`Materializer::read`]; `INVALID_ARGUMENT` for a malformed path, a path that
    /// selects nothing (saying where it stopped), an artifact that is not JSON or is over
    /// [`MAX_JSON_PATH_BYTES`].
    ///
    /// ```
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions, ToolOutputRef};
    /// use tool_offload_core::MemoryWriter;
    /// use futures_executor::block_on;
    /// let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    /// let io = MemoryWriter::new();
    /// let items: Vec<String> = (0..400).map(|i| format!(r#"{{"id":{i},"sku":"s-{i}"}}"#)).collect();
    /// let text = format!(r#"{{"items":[{}]}}"#, items.join(","));
    /// let output = ToolOutputRef { tool_call_id: "q", tool_name: "api", server_name: None, text: &text, was_value: true };
    /// block_on(m.materialize(&output, &io)).unwrap();
    /// let page = block_on(m.read_json("ctx://c/tool/q.json", "$.items[7]", 0, 1, 200, &io)).unwrap();
    /// assert_eq!(page, "[ctx://c/tool/q.json: lines 1-4 of 4 at $.items[7], the end.]\n1| {\n2|   \"id\": 7,\n3|   \"sku\": \"s-7\"\n4| }");
    /// let err = block_on(m.read_json("ctx://c/tool/q.json", "$.items[400]", 0, 1, 200, &io)).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid argument: $.items[400] selects nothing: $.items is an array of 400 items");
    /// ```
    pub async fn read_json<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        path: &str,
        offset: usize,
        within: impl Into<Within>,
        limit: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        self.json_page(reference, path, (offset, within.into(), limit), reader)
            .await
    }

    /// [`Materializer::read_json`], one instance whatever says where it starts.
    async fn json_page<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        path: &str,
        (offset, within, limit): (usize, Within, usize),
        reader: &R,
    ) -> Result<String, OffloadError> {
        let path = JsonPath::parse(path).map_err(OffloadError::InvalidArgument)?;
        let reference = crate::forms::reference::clean_ref(reference);
        let file = self.resolve_readable(reference)?;
        let size = match reader.size(&file).await {
            Ok(Some(size)) => size,
            Ok(None) => return Err(self.artifacts.gone(reference, &file, reader).await),
            Err(source) => return Err(OffloadError::ReadFailed { path: file, source }),
        };
        if crate::read::artifacts::is_binary_path(&file) {
            let head = reader.read_range(&file, 0, 16).await.unwrap_or_default();
            return Err(crate::read::artifacts::not_text(reference, size, &head));
        }
        if size > MAX_JSON_PATH_BYTES {
            return Err(OffloadError::InvalidArgument(format!(
                "{reference} is {} bytes; a path reads JSON artifacts up to {} bytes: use context_grep",
                crate::text::thousands(usize::try_from(size).unwrap_or(usize::MAX)),
                crate::text::thousands(MAX_JSON_PATH_BYTES as usize)
            )));
        }
        let read = reader.read_range(&file, 0, size).await;
        let read = read.map_err(|source| OffloadError::ReadFailed { path: file, source });
        let bytes = self
            .artifacts
            .unless_vanished(reference, read, reader)
            .await?;
        let not_json = |why: &str| {
            OffloadError::InvalidArgument(format!(
                "{reference} is not JSON ({why}): read it without a path, or grep it"
            ))
        };
        let text = std::str::from_utf8(&bytes).map_err(|_| not_json("not UTF-8"))?;
        if !is_json_document(text) {
            return Err(not_json("not one JSON object or array"));
        }
        // Walked as text, never parsed into a tree: strings stay as written (escaped lone
        // surrogates included), and the memory is the selection's.
        let selected = path.select(text).map_err(OffloadError::InvalidArgument)?;
        let mut pretty = Vec::with_capacity(selected.len() * 2);
        for line in pretty_head(&selected, usize::MAX) {
            if !pretty.is_empty() {
                pretty.push(b'\n');
            }
            pretty.extend_from_slice(line.as_bytes());
        }
        let shown = path.to_string();
        let naming = Naming::Path {
            reference,
            path: &shown,
        };
        self.artifacts
            .read_held::<R>(
                pretty,
                naming,
                (offset, within, limit),
                self.read_page_chars(),
            )
            .await
    }
}
