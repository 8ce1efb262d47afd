//! JSON in JavaScript terms: [`stringify()`] produces exactly the bytes of Node's
//! `JSON.stringify` for the same value, whichever host runs it. [`view`] reads a host's
//! messages in place, as JSON values or as the host's own objects.

mod lone;
mod path;
mod stringify;
mod synopsis;
mod validate;
pub mod view;
mod walk;

pub use lone::{LoneSurrogates, LoneView};
pub use path::{JsonPath, MAX_PATH_BYTES};
pub use stringify::{stringify, stringify_into};
pub(crate) use synopsis::comma_list;
pub use synopsis::{pretty_head, synopsis, Synopsis, MAX_MEMBERS};
pub use validate::is_json_document;

use crate::error::OffloadError;
use serde_json::Value;

/// Parse JSON text into a [`Value`], keeping object keys in document order.
///
/// Numbers are kept as parsed and formatted the JavaScript way only on output, so
/// `1.0` round-trips as `1`, like `JSON.stringify(JSON.parse("1.0"))`.
///
/// ```
/// use tool_offload_core::json::{parse, stringify};
/// let v = parse(r#"{"b":1.0,"a":[1e21,-0,0.1]}"#).unwrap();
/// assert_eq!(stringify(&v), r#"{"b":1,"a":[1e+21,0,0.1]}"#);
/// ```
pub fn parse(text: &str) -> Result<Value, OffloadError> {
    serde_json::from_str(text)
        .map_err(|e| OffloadError::InvalidMessage(format!("not valid JSON: {e}")))
}
