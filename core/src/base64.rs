//! Standard base64 (RFC 4648, `+/`, padded), for binary artifacts in a JSON bundle: a
//! few lines here instead of a dependency.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in base64, padded.
///
/// ```
/// assert_eq!(tool_offload_core::base64::encode(b"hi!?"), "aGkhPw==");
/// ```
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            match i <= chunk.len() {
                true => out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63])),
                false => out.push('='),
            }
        }
    }
    out
}

/// The bytes of padded base64 `text`, or `None` when it is not that.
///
/// ```
/// use tool_offload_core::base64::decode;
/// assert_eq!(decode("aGkhPw==").as_deref(), Some(&b"hi!?"[..]));
/// assert_eq!(decode("aGk"), None);
/// ```
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let value = |c: u8| ALPHABET.iter().position(|&a| a == c).map(|v| v as u32);
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let quads = text.len() / 4;
    for (q, quad) in text.chunks(4).enumerate() {
        let pad = match (q + 1 == quads, quad) {
            (true, [.., b'=', b'=']) => 2,
            (true, [.., b'=']) => 1,
            _ => 0,
        };
        let mut n = 0u32;
        for (i, &c) in quad[..4 - pad].iter().enumerate() {
            n |= value(c)? << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        // Bits past the last byte must be zero: one spelling per byte string.
        if bytes[3 - pad..].iter().any(|&b| b != 0) {
            return None;
        }
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_length_and_byte() {
        let bytes: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        for len in 0..bytes.len() {
            let encoded = encode(&bytes[..len]);
            assert_eq!(decode(&encoded).as_deref(), Some(&bytes[..len]), "{len}");
        }
        assert_eq!(encode(b""), "");
        assert_eq!(encode(b"f"), "Zg==");
        assert_eq!(encode(b"fo"), "Zm8=");
        assert_eq!(encode(b"foo"), "Zm9v");
        assert_eq!(encode(&[0xFB, 0xFF]), "+/8=");
    }

    #[test]
    fn refuses_what_is_not_padded_base64() {
        for bad in ["Zg=", "Zg=a", "Z===", "Zh==", "Zm9-", "=Zg="] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }
}
