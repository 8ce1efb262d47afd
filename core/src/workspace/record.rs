//! The record stored beside each knowledge artifact: its id, type and metadata, the
//! source of truth every index is rebuilt from.

use crate::json::stringify;
use crate::text::measure::Measure;
use serde_json::{Map, Value};

/// `metadata.context_type` of a tool result.
pub const TOOL_RESULT_CONTEXT_TYPE: &str = "tool_result";
/// A tool result's artifact id is this prefix and its tool-call id.
pub const TOOL_RESULT_PREFIX: &str = "tool_result_";

/// The metadata key a record counts its redacted secrets under, by kind
/// (`{"aws-access-key": 1}`): set when `redact` replaced any, by the store or by
/// `tool-offload redact`.
pub const REDACTED_FACT: &str = "redacted";

/// `counts` added to `metadata`'s [`REDACTED_FACT`], kind by kind (a value there that is
/// not an object of counts is replaced).
pub(crate) fn add_redacted_fact(metadata: &mut Map<String, Value>, counts: &[(String, usize)]) {
    let mut by_kind = match metadata.shift_remove(REDACTED_FACT) {
        Some(Value::Object(by_kind)) => by_kind,
        _ => Map::new(),
    };
    for (kind, n) in counts {
        let before = by_kind
            .get(kind.as_str())
            .and_then(Value::as_u64)
            .unwrap_or(0);
        by_kind.insert(kind.clone(), (before + *n as u64).into());
    }
    metadata.insert(REDACTED_FACT.into(), Value::Object(by_kind));
}

/// What a knowledge artifact holds: text as given, or a JSON value serialised with
/// `JSON.stringify` rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnowledgeType {
    /// `"text"`, stored as `<id>.txt`.
    Text,
    /// `"json"`, stored as `<id>.json`.
    Json,
}

impl KnowledgeType {
    /// `"text"` or `"json"`.
    pub fn as_str(self) -> &'static str {
        match self {
            KnowledgeType::Text => "text",
            KnowledgeType::Json => "json",
        }
    }

    /// The type named `name`, if any.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "text" => Some(KnowledgeType::Text),
            "json" => Some(KnowledgeType::Json),
            _ => None,
        }
    }

    /// The type of a content to [`add`](super::store::Workspace::add): `declared` when given,
    /// else text for a string and JSON for any other value (stored as its
    /// `JSON.stringify`, which is `text`). A string declared `"json"` must be a JSON
    /// document; a non-string cannot be `"text"`.
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` naming the mismatch.
    ///
    /// ```
    /// use tool_offload_core::workspace::KnowledgeType;
    /// assert_eq!(KnowledgeType::resolve(None, true, "hi").unwrap(), KnowledgeType::Text);
    /// assert_eq!(KnowledgeType::resolve(None, false, "[1]").unwrap(), KnowledgeType::Json);
    /// assert_eq!(KnowledgeType::resolve(Some("json"), true, "{\"a\":1}").unwrap(), KnowledgeType::Json);
    /// assert!(KnowledgeType::resolve(Some("json"), true, "not json").is_err());
    /// assert!(KnowledgeType::resolve(Some("text"), false, "[1]").is_err());
    /// assert!(KnowledgeType::resolve(Some("csv"), true, "a,b").is_err());
    /// ```
    pub fn resolve(
        declared: Option<&str>,
        is_string: bool,
        text: &str,
    ) -> Result<Self, crate::error::OffloadError> {
        let invalid = |why: &str| Err(crate::error::OffloadError::InvalidArgument(why.into()));
        match (declared.map(KnowledgeType::parse), is_string) {
            (None, true) => Ok(KnowledgeType::Text),
            (None, false) => Ok(KnowledgeType::Json),
            (Some(None), _) => invalid("type must be \"text\" or \"json\""),
            (Some(Some(KnowledgeType::Text)), false) => {
                invalid("type \"text\" needs a string content; a JSON value is type \"json\"")
            }
            (Some(Some(KnowledgeType::Json)), true) if !crate::json::is_json_document(text) => {
                invalid("type \"json\" with a string content needs a JSON document")
            }
            (Some(Some(kind)), _) => Ok(kind),
        }
    }

    /// The artifact's file extension.
    pub fn extension(self) -> &'static str {
        match self {
            KnowledgeType::Text => "txt",
            KnowledgeType::Json => "json",
        }
    }
}

/// One knowledge artifact's record: `{"id", "type", "metadata"}` in
/// `records/<id>.json`, the metadata including the facts the store adds (`chars`,
/// `bytes`, `lines`, `sha256`, `created_at`).
///
/// ```
/// use tool_offload_core::workspace::{KnowledgeRecord, KnowledgeType};
/// let text = r#"{"id":"k1","type":"text","metadata":{"context_type":"note","sha256":"ab","created_at":"2026-01-01T00:00:00.000Z"}}"#;
/// let record = KnowledgeRecord::parse(text).unwrap();
/// assert_eq!((record.id.as_str(), record.kind), ("k1", KnowledgeType::Text));
/// assert_eq!(record.created_at(), "2026-01-01T00:00:00.000Z");
/// assert_eq!(record.to_json(), text);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct KnowledgeRecord {
    /// The artifact id.
    pub id: String,
    /// Text or JSON.
    pub kind: KnowledgeType,
    /// Everything known about it, in the order written.
    pub metadata: Map<String, Value>,
}

/// Parses JSON text into a value; a workspace reads its records with one (see
/// [`WorkspaceOptions::parse_json`](super::options::WorkspaceOptions::parse_json)).
pub type JsonParser = fn(&str) -> Result<Value, String>;

/// The [`JsonParser`] of native hosts: serde_json, with its error message.
pub fn parse_json(text: &str) -> Result<Value, String> {
    crate::json::parse(text).map_err(|e| e.to_string())
}

/// The facts the store adds to every record, last and in this order; a caller's
/// metadata cannot set them.
pub(crate) const FACTS: [&str; 5] = ["chars", "bytes", "lines", "sha256", "created_at"];

impl KnowledgeRecord {
    /// A record of `metadata` (callers' keys first, in their order) and the facts of
    /// the content measured by `measure`.
    pub(crate) fn new(
        id: &str,
        kind: KnowledgeType,
        mut metadata: Map<String, Value>,
        measure: Measure,
        sha256: String,
        created_at: String,
    ) -> Self {
        for fact in FACTS {
            metadata.shift_remove(fact);
        }
        metadata.insert("chars".into(), measure.chars.into());
        metadata.insert("bytes".into(), measure.bytes.into());
        metadata.insert("lines".into(), measure.lines.into());
        metadata.insert("sha256".into(), sha256.into());
        metadata.insert("created_at".into(), created_at.into());
        KnowledgeRecord {
            id: id.into(),
            kind,
            metadata,
        }
    }

    /// The record file's text: `JSON.stringify({id, type, metadata})`.
    pub fn to_json(&self) -> String {
        stringify(&self.to_value())
    }

    /// `{id, type, metadata}` as a value (what queries return).
    pub fn to_value(&self) -> Value {
        let mut record = Map::new();
        record.insert("id".into(), self.id.clone().into());
        record.insert("type".into(), self.kind.as_str().into());
        record.insert("metadata".into(), Value::Object(self.metadata.clone()));
        Value::Object(record)
    }

    /// A record file's text read back.
    ///
    /// # Errors
    /// What is wrong with it, for a record that is not `{"id": string, "type": "text" |
    /// "json", "metadata": object}`.
    pub fn parse(text: &str) -> Result<Self, String> {
        Self::from_value(parse_json(text)?)
    }

    /// A record from its parsed JSON (see [`KnowledgeRecord::parse`]).
    ///
    /// # Errors
    /// As [`KnowledgeRecord::parse`].
    pub fn from_value(value: Value) -> Result<Self, String> {
        let Value::Object(mut record) = value else {
            return Err("not a JSON object".into());
        };
        let id = match record.shift_remove("id") {
            Some(Value::String(id)) => id,
            _ => return Err("\"id\" is not a string".into()),
        };
        let kind = match record.get("type") {
            Some(Value::String(name)) => KnowledgeType::parse(name),
            _ => None,
        }
        .ok_or("\"type\" is not \"text\" or \"json\"")?;
        let Some(Value::Object(metadata)) = record.shift_remove("metadata") else {
            return Err("\"metadata\" is not an object".into());
        };
        Ok(KnowledgeRecord { id, kind, metadata })
    }

    /// `metadata.created_at`, or `""` when a record written elsewhere lacks it.
    pub fn created_at(&self) -> &str {
        self.str_field("created_at").unwrap_or_default()
    }

    /// `metadata.sha256`, if it is a string.
    pub fn sha256(&self) -> Option<&str> {
        self.str_field("sha256")
    }

    /// `metadata[key]` if it is a string.
    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.metadata.get(key).and_then(Value::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn facts_come_last_and_override_the_callers() {
        let Value::Object(metadata) =
            json!({"sha256": "forged", "context_type": "note", "chars": -1, "b": 1})
        else {
            unreachable!()
        };
        let record = KnowledgeRecord::new(
            "k",
            KnowledgeType::Json,
            metadata,
            Measure::of("[1,\n2]"),
            "abc".into(),
            "2026-01-01T00:00:00.000Z".into(),
        );
        assert_eq!(
            record.to_json(),
            r#"{"id":"k","type":"json","metadata":{"context_type":"note","b":1,"chars":6,"bytes":6,"lines":2,"sha256":"abc","created_at":"2026-01-01T00:00:00.000Z"}}"#
        );
        assert_eq!(KnowledgeRecord::parse(&record.to_json()).unwrap(), record);
    }

    #[test]
    fn malformed_records_say_what_is_wrong() {
        let err = |text: &str| KnowledgeRecord::parse(text).unwrap_err();
        assert_eq!(err("[]"), "not a JSON object");
        assert_eq!(err(r#"{"id":1}"#), "\"id\" is not a string");
        assert_eq!(
            err(r#"{"id":"a","type":"csv","metadata":{}}"#),
            "\"type\" is not \"text\" or \"json\""
        );
        assert_eq!(
            err(r#"{"id":"a","type":"text","metadata":[]}"#),
            "\"metadata\" is not an object"
        );
        assert!(err("{").contains("not valid JSON"), "{}", err("{"));
    }

    #[test]
    fn a_declared_type_must_fit_the_content() {
        use KnowledgeType::*;
        let resolve = KnowledgeType::resolve;
        assert_eq!(resolve(None, true, "x").unwrap(), Text);
        assert_eq!(resolve(None, false, "{}").unwrap(), Json);
        assert_eq!(resolve(Some("json"), true, "[1, 2]").unwrap(), Json);
        assert_eq!(resolve(Some("json"), false, "[1,2]").unwrap(), Json);
        assert_eq!(resolve(Some("text"), true, "[1, 2]").unwrap(), Text);
        let err = resolve(Some("json"), true, "[1, 2").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid argument: type \"json\" with a string content needs a JSON document"
        );
        assert!(resolve(Some("text"), false, "{}").is_err());
        assert!(resolve(Some("xml"), true, "<a/>").is_err());
    }
}
