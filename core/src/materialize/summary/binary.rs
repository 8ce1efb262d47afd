//! The summary of binary data stored as it is: one line, its size and kind, never a
//! byte of it.

use super::format::magic;
use super::{origin_of, POINTER_PREFIX};
use crate::materialize::text::count;
use crate::materialize::ArtifactKind;

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
        "{POINTER_PREFIX}{origin} stored as {reference}: binary data, {}{kind}; not shown, and not text to read back.]",
        count(bytes.len(), "byte")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
