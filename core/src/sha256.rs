//! SHA-256 as lowercase hex: the digest records, bundles and MCP ids name content by.

use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of `text`'s UTF-8 bytes.
///
/// ```
/// assert_eq!(
///     tool_offload_core::materialize::sha256_hex("abc"),
///     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// );
/// ```
pub fn sha256_hex(text: &str) -> String {
    sha256_hex_of(text.as_bytes())
}

/// Lowercase hex SHA-256 of `bytes`.
pub(crate) fn sha256_hex_of(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(2 * digest.len());
    for byte in digest {
        // No format! per byte: import hashes every artifact of the bundle.
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    out
}
