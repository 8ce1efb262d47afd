//! The summary of binary data stored as it is: one line, its size and kind, never a
//! byte of it.

use super::compose::origin_of;
use super::format::magic;
use crate::forms::reference::ArtifactKind;
use crate::forms::summary_header::{BINARY_END, POINTER_PREFIX};
use crate::text::measure::count;

/// `[Output of <tool> (call <id>) stored as <ref>: binary data, 26 bytes, looks like a
/// PNG image; not shown, and not text to read back.]`
pub(crate) fn binary_summary(
    reference: &str,
    (id, tool_name, server_name): (&str, &str, Option<&str>),
    bytes: &[u8],
) -> String {
    let origin = origin_of(ArtifactKind::Tool, id, tool_name, server_name);
    let kind = magic(&bytes[..bytes.len().min(16)]).map_or(String::new(), |k| format!(", {k}"));
    format!(
        "{POINTER_PREFIX}{origin} stored as {reference}: binary data, {}{kind}{BINARY_END}",
        count(bytes.len(), "byte")
    )
}

/// What a model is told of `len` bytes nothing stored (a registry handler's bytes with no
/// materializer to keep them), `head` their first bytes: size and kind, never a byte.
///
/// ```
/// use tool_offload_core::materialize::binary_unstored;
/// assert_eq!(
///     binary_unstored(9, b"%PDF-1.7\n"),
///     "[Binary output: 9 bytes, looks like a PDF document; not shown, and not stored: give the tool registry a materializer to keep it.]"
/// );
/// ```
pub fn binary_unstored(len: usize, head: &[u8]) -> String {
    let kind = magic(&head[..head.len().min(16)]).map_or(String::new(), |k| format!(", {k}"));
    format!(
        "[Binary output: {}{kind}; not shown, and not stored: give the tool registry a materializer to keep it.]",
        count(len, "byte")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forms::summary_header::is_binary_summary;

    #[test]
    fn names_size_and_kind_only() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        assert_eq!(
            binary_summary("ctx://c/tool/s.bin", ("s", "screenshot", None), png),
            "[Output of screenshot (call s) stored as ctx://c/tool/s.bin: binary data, 16 bytes, looks like a PNG image; not shown, and not text to read back.]"
        );
        assert_eq!(
            binary_summary("r", ("s", "t", Some("srv")), &[0, 1]),
            "[Output of srv/t (call s) stored as r: binary data, 2 bytes; not shown, and not text to read back.]"
        );
    }

    #[test]
    fn a_binary_summary_is_known_by_its_one_line() {
        let summary = binary_summary("ctx://c/tool/s.bin", ("s", "shot", None), b"\x89PNG");
        assert!(is_binary_summary(&summary));
        assert!(!is_binary_summary(&format!("{summary}\nmore")));
        assert!(!is_binary_summary(&summary.replace("ctx://", "file://")));
        assert!(!is_binary_summary(
            &summary.replace(": binary data, ", ": data, ")
        ));
        assert!(!is_binary_summary(&summary[1..]));
        assert!(!is_binary_summary(&summary[..summary.len() - 1]));
    }
}
