//! Call ids for MCP results. MCP's `tools/call` carries no call id, so the proxy mints
//! one from what it materializes: `mcp-<tool>-<first 16 hex digits of the SHA-256 of the
//! text>`. The same output always gets the same id (and the Materializer reuses its
//! artifact); a different output whose name is taken (a hash-prefix collision, or a file
//! some other process wrote) gets `-1`, `-2`, … from the Materializer's no-clobber
//! create. Nothing is counted in memory, so restarts of the proxy on the same
//! `--user-data` can never hand out a name twice.

use tool_offload::core::materialize::sha256_hex;

/// Characters of the tool name kept in an id.
const MAX_TOOL_CHARS: usize = 64;
/// Hex digits of the content hash kept in an id (64 bits).
const HASH_DIGITS: usize = 16;

/// The call id for `tool`'s output `text`: `mcp-<tool>-<hash>`, where `<tool>` keeps
/// `A–Z a–z 0–9 _ -` of the name (anything else becomes `_`, at most 64 characters).
///
/// ```ignore
/// assert_eq!(call_id("read_file", "hello"), "mcp-read_file-2cf24dba5fb0a30e");
/// ```
pub fn call_id(tool: &str, text: &str) -> String {
    let tool: String = tool
        .chars()
        .take(MAX_TOOL_CHARS)
        .map(|c| match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '_' | '-' => c,
            _ => '_',
        })
        .collect();
    let hash = sha256_hex(text);
    format!("mcp-{tool}-{}", &hash[..HASH_DIGITS])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_output_gets_the_same_id() {
        assert_eq!(
            call_id("read_file", "hello"),
            "mcp-read_file-2cf24dba5fb0a30e"
        );
        assert_eq!(call_id("read_file", "hello"), call_id("read_file", "hello"));
    }

    #[test]
    fn other_outputs_and_tools_get_other_ids() {
        assert_ne!(
            call_id("read_file", "hello"),
            call_id("read_file", "hello!")
        );
        assert_ne!(call_id("a", "x"), call_id("b", "x"));
    }

    #[test]
    fn tool_names_are_reduced_to_safe_characters() {
        assert_eq!(
            call_id("fs.read/../x é", "hello"),
            "mcp-fs_read____x__-2cf24dba5fb0a30e"
        );
        let long = "t".repeat(300);
        let id = call_id(&long, "hello");
        assert_eq!(id, format!("mcp-{}-2cf24dba5fb0a30e", "t".repeat(64)));
    }
}
