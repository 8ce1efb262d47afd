//! Core's object keys for the npm package's `S3Io` (`tool-offload/s3`), so its keys are
//! the tokio host's `ObjectStoreIo` keys (core's `object_key` module).

use tool_offload_core::object_key::{self, ObjectKeyError};
use wasm_bindgen::prelude::*;

use crate::error::{string_of, JsOffloadError};

/// `prefix` with the slashes around it trimmed; `INVALID_ARGUMENT` for an empty, `.` or
/// `..` segment or a control character.
#[wasm_bindgen(js_name = parseKeyPrefix)]
pub fn parse_key_prefix(prefix: &str) -> Result<String, JsValue> {
    object_key::parse_key_prefix(prefix)
        .map(str::to_owned)
        .map_err(|e| JsOffloadError::from(e).into())
}

/// The object key of the virtual absolute path `path` under `prefix` (one
/// `parseKeyPrefix` returned); `INVALID_ARGUMENT` for a `.` or `..` segment (with
/// `path`) or a path that is not absolute (anything but a string included).
#[wasm_bindgen(js_name = objectKey)]
pub fn object_key(prefix: &str, path: &JsValue) -> Result<String, JsValue> {
    let key = match path.as_string() {
        Some(path) => object_key::object_key(prefix, &path),
        None => Err(ObjectKeyError::InvalidPath(string_of(path).into())),
    };
    key.map_err(|e| JsOffloadError::from(e).into())
}

/// The name a listed key segment stands for (`%XX` decoded, invalid UTF-8 as U+FFFD).
#[wasm_bindgen(js_name = decodeKeySegment)]
pub fn decode_key_segment(part: &str) -> String {
    object_key::decode_key_segment(part)
}
