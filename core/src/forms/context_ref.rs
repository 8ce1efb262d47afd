//! A stored artifact's ref as the hosts return it: its `ctx://` id and a hint of what it
//! holds.

/// What a ref's hint says about its artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefHint {
    /// The tool's name.
    pub tool_name: String,
    /// The MCP server, if any.
    pub server_name: Option<String>,
    /// The call's id.
    pub tool_call_id: String,
    /// UTF-8 bytes.
    pub bytes: usize,
    /// UTF-16 code units.
    pub chars: usize,
    /// Lines.
    pub lines: usize,
    /// Whether the artifact is JSON (`.json`).
    pub is_json: bool,
    /// The secrets `redact` replaced in it, by kind (see
    /// [`Redacted::counts`](crate::redact::Redacted::counts)); empty when none.
    pub redacted: Vec<(String, usize)>,
}

/// A reference to an artifact, readable with
/// [`Materializer::read`](crate::materialize::Materializer::read) at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextRef {
    /// `ctx://<conversationId>/tool/<toolCallId>.<ext>`, both ids percent-encoded: UTF-8
    /// bytes outside `A–Z a–z 0–9 - . _ ~ :` as `%XX` (docs/materializer.md, "Refs"), so that any id
    /// survives in text; the file keeps the raw id.
    pub id: String,
    /// What is in it.
    pub hint: RefHint,
}

impl ContextRef {
    /// The ref as every host returns it: `{ kind: "artifact", id, hint: { toolName,
    /// serverName?, toolCallId, bytes, chars, lines, isJson, redacted? } }`.
    ///
    /// ```
    /// use tool_offload_core::materialize::{ContextRef, RefHint};
    /// let hint = RefHint { tool_name: "bash".into(), server_name: None, tool_call_id: "c1".into(),
    ///     bytes: 5, chars: 5, lines: 1, is_json: false, redacted: vec![("aws-key".into(), 2)] };
    /// let reference = ContextRef { id: "ctx://c/tool/c1.txt".into(), hint };
    /// assert_eq!(tool_offload_core::json::stringify(&reference.to_value()),
    ///     r#"{"kind":"artifact","id":"ctx://c/tool/c1.txt","hint":{"toolName":"bash","toolCallId":"c1","bytes":5,"chars":5,"lines":1,"isJson":false,"redacted":{"aws-key":2}}}"#);
    /// ```
    pub fn to_value(&self) -> serde_json::Value {
        let mut shown = serde_json::Map::new();
        shown.insert("kind".into(), "artifact".into());
        shown.insert("id".into(), self.id.as_str().into());
        shown.insert("hint".into(), self.hint.to_value());
        shown.into()
    }
}

impl RefHint {
    /// The hint's fields as [`ContextRef::to_value`] shows them.
    pub fn to_value(&self) -> serde_json::Value {
        let mut hint = serde_json::Map::new();
        hint.insert("toolName".into(), self.tool_name.as_str().into());
        if let Some(server) = &self.server_name {
            hint.insert("serverName".into(), server.as_str().into());
        }
        hint.insert("toolCallId".into(), self.tool_call_id.as_str().into());
        hint.insert("bytes".into(), self.bytes.into());
        hint.insert("chars".into(), self.chars.into());
        hint.insert("lines".into(), self.lines.into());
        hint.insert("isJson".into(), self.is_json.into());
        if !self.redacted.is_empty() {
            let counts = self
                .redacted
                .iter()
                .map(|(kind, n)| (kind.clone(), (*n).into()));
            hint.insert("redacted".into(), serde_json::Map::from_iter(counts).into());
        }
        hint.into()
    }
}
