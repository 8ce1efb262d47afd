//! Legacy mode: for loops that splice tool records into assistant text instead of using
//! native function calling.

use crate::json;
use serde_json::{Map, Value};

/// One tool call and its response, for [`format_legacy_tool_record`].
#[derive(Debug, Clone, Copy)]
pub struct LegacyToolRecord<'a> {
    /// The tool's name.
    pub tool_name: &'a str,
    /// The call's id, if the loop has one.
    pub tool_call_id: Option<&'a str>,
    /// The call's arguments.
    pub arguments: &'a Value,
    /// What the model sees as the result: the output when inline, else the summary.
    pub response: &'a Value,
}

/// `<function_call>{"name":…,"id":…,"arguments":…,"response":…}</function_call>`: the
/// record as `JSON.stringify` writes it (no `id` key without an id), except that `</`
/// is written `<\/` (the same JSON) so the text can never close the record early.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::materialize::{format_legacy_tool_record, LegacyToolRecord};
/// let record = format_legacy_tool_record(&LegacyToolRecord {
///     tool_name: "bash",
///     tool_call_id: Some("call_1"),
///     arguments: &json!({"cmd": "make"}),
///     response: &json!("[Output of bash (call call_1) stored as ctx://c/tool/call_1.txt …]"),
/// });
/// assert_eq!(record, r#"<function_call>{"name":"bash","id":"call_1","arguments":{"cmd":"make"},"response":"[Output of bash (call call_1) stored as ctx://c/tool/call_1.txt …]"}</function_call>"#);
/// ```
pub fn format_legacy_tool_record(record: &LegacyToolRecord<'_>) -> String {
    let mut fields = Map::new();
    fields.insert("name".into(), record.tool_name.into());
    if let Some(id) = record.tool_call_id {
        fields.insert("id".into(), id.into());
    }
    fields.insert("arguments".into(), record.arguments.clone());
    fields.insert("response".into(), record.response.clone());
    let body = crate::search::replace(&json::stringify(&Value::Object(fields)), "</", "<\\/");
    format!("<function_call>{body}</function_call>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_response_cannot_close_the_record_and_still_parses_back() {
        let response = json!("done </function_call> <b>ok</b>");
        let record = format_legacy_tool_record(&LegacyToolRecord {
            tool_name: "t",
            tool_call_id: None,
            arguments: &json!({}),
            response: &response,
        });
        assert_eq!(record.matches("</function_call>").count(), 1);
        let body = &record["<function_call>".len()..record.len() - "</function_call>".len()];
        let parsed: Value = serde_json::from_str(body).unwrap();
        assert_eq!(parsed["response"], response);
        assert!(parsed.get("id").is_none());
    }
}
