//! JSON-RPC request ids and the responses the proxy writes itself.

use rmcp::model::ErrorData;
use serde_json::{json, Value};
use tool_offload::json::LoneSurrogates;

/// A request id as JSON text, as `JSON.stringify` prints it (a lone surrogate as its
/// escape, `"a\ud83d"`): the key a pending request is remembered under and what the
/// proxy writes in its answer. `1` and `"1"` are different requests.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RequestId(String);

impl RequestId {
    /// The id `id`, parsed from a text whose lone surrogates `lone` stands in for.
    pub fn of(id: &Value, lone: &LoneSurrogates) -> RequestId {
        RequestId(lone.restore(&id.to_string()).into_owned())
    }

    /// The id as JSON text.
    pub fn json(&self) -> &str {
        &self.0
    }
}

/// A JSON-RPC error response to `id` (`null` when the request's id is unknown).
pub fn error_line(id: Option<&RequestId>, error: ErrorData) -> String {
    let id = id.map_or("null", RequestId::json);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{}}}"#, json!(error))
}

/// A JSON-RPC result response to `id`.
pub fn result_line(id: &RequestId, result: &Value) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#,
        id.json()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> (Value, LoneSurrogates) {
        let (marked, lone) = LoneSurrogates::mark(text.as_bytes()).unwrap();
        (serde_json::from_slice(&marked).unwrap(), lone)
    }

    #[test]
    fn ids_are_their_json_text() {
        let none = LoneSurrogates::default();
        assert_eq!(RequestId::of(&json!(7), &none).json(), "7");
        assert_eq!(RequestId::of(&json!("7"), &none).json(), r#""7""#);
        assert_ne!(
            RequestId::of(&json!(1), &none),
            RequestId::of(&json!("1"), &none)
        );
    }

    #[test]
    fn a_lone_surrogate_in_an_id_is_the_same_key_whatever_stands_in_for_it() {
        // Two texts whose stand-ins differ (the second uses the first one's).
        let (one, lone_one) = parsed(r#"{"id":"a\ud83d"}"#);
        let (two, lone_two) = parsed("{\"id\":\"a\\ud83d\",\"x\":\"\u{800}\"}");
        assert_ne!(one["id"], two["id"]);
        let (a, b) = (
            RequestId::of(&one["id"], &lone_one),
            RequestId::of(&two["id"], &lone_two),
        );
        assert_eq!(a, b);
        assert_eq!(a.json(), r#""a\ud83d""#);
    }

    #[test]
    fn responses_are_json_rpc_2() {
        let id = RequestId::of(&json!(7), &LoneSurrogates::default());
        let error = ErrorData::internal_error("gone", None);
        assert_eq!(
            error_line(Some(&id), error),
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"gone"}}"#
        );
        let parse = ErrorData::parse_error("bad", None);
        assert_eq!(
            error_line(None, parse),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#
        );
        assert_eq!(
            result_line(&id, &json!({ "resources": [] })),
            r#"{"jsonrpc":"2.0","id":7,"result":{"resources":[]}}"#
        );
    }
}
