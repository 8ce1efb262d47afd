//! Queries over records: equality on metadata fields, newest first, paged; and the
//! tool-result overview for a prompt.

use super::record::{KnowledgeRecord, TOOL_RESULT_CONTEXT_TYPE};
use serde_json::{Map, Value};

/// Records a query returns when it names no limit.
pub const DEFAULT_QUERY_LIMIT: usize = 50;
/// The most records one query returns.
pub const MAX_QUERY_LIMIT: usize = 1000;

/// A query: every `filter` entry must equal the record's metadata field (JSON
/// equality: `"1"` is not `1`); results newest first (`created_at` descending, then id
/// ascending), `offset` skipped, at most `limit`.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::workspace::Query;
/// let q = Query::new(json!({"context_type": "tool_result", "task_id": "t1"}).as_object().unwrap().clone());
/// assert_eq!((q.limit, q.offset), (50, 0));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// Field → value every result's metadata holds.
    pub filter: Map<String, Value>,
    /// At most this many results (at most [`MAX_QUERY_LIMIT`]).
    pub limit: usize,
    /// Results skipped first.
    pub offset: usize,
}

impl Query {
    /// A query for `filter`, the first [`DEFAULT_QUERY_LIMIT`] results.
    pub fn new(filter: Map<String, Value>) -> Self {
        Query {
            filter,
            limit: DEFAULT_QUERY_LIMIT,
            offset: 0,
        }
    }

    /// Whether `record` passes the filter.
    pub fn matches(&self, record: &KnowledgeRecord) -> bool {
        self.filter.iter().all(|(key, want)| {
            record
                .metadata
                .get(key)
                .is_some_and(|have| same_json(have, want))
        })
    }

    /// The page of `records` this query selects, newest first.
    pub fn select<'r>(
        &self,
        records: impl IntoIterator<Item = &'r KnowledgeRecord>,
    ) -> Vec<&'r KnowledgeRecord> {
        let mut hits: Vec<_> = records.into_iter().filter(|r| self.matches(r)).collect();
        crate::sort::sort_by(&mut hits, |a, b| newest_first(a, b));
        hits.into_iter()
            .skip(self.offset)
            .take(self.limit.min(MAX_QUERY_LIMIT))
            .collect()
    }
}

/// Whether two values serialise to the same JSON: numbers by value (`2`, `2.0` and a
/// JavaScript number 2 are one number), arrays and objects by their `JSON.stringify`
/// (which is what the SQLite index compares).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(_) | Value::Object(_), _) => {
            crate::json::stringify(a) == crate::json::stringify(b)
        }
        _ => a == b,
    }
}

/// `created_at` descending (ISO strings order as times), then id ascending.
pub(crate) fn newest_first(a: &KnowledgeRecord, b: &KnowledgeRecord) -> std::cmp::Ordering {
    b.created_at()
        .cmp(a.created_at())
        .then_with(|| a.id.cmp(&b.id))
}

/// One stored tool result, as `get_tool_result_offload_info` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffloadInfo {
    /// The artifact id (`tool_result_<toolCallId>`).
    pub artifact_id: String,
    /// The tool-call id.
    pub biz_id: String,
    /// The tool.
    pub tool_name: String,
    /// The action, when one was given.
    pub action_name: Option<String>,
    /// UTF-16 units.
    pub chars: u64,
    /// UTF-8 bytes.
    pub bytes: u64,
    /// Lines.
    pub lines: u64,
    /// When it was stored.
    pub created_at: String,
}

impl OffloadInfo {
    /// The overview of a tool-result record; `None` for other records.
    pub fn of(record: &KnowledgeRecord) -> Option<Self> {
        if record.str_field("context_type") != Some(TOOL_RESULT_CONTEXT_TYPE) {
            return None;
        }
        let text = |key| record.str_field(key).unwrap_or_default().to_owned();
        let number = |key| {
            record
                .metadata
                .get(key)
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        Some(OffloadInfo {
            artifact_id: record.id.clone(),
            biz_id: text("biz_id"),
            tool_name: text("tool_name"),
            action_name: record.str_field("action_name").map(str::to_owned),
            chars: number("chars"),
            bytes: number("bytes"),
            lines: number("lines"),
            created_at: record.created_at().to_owned(),
        })
    }

    /// The entry as every host returns it: snake_case keys, `action_name` only when
    /// there is one.
    ///
    /// ```
    /// use tool_offload_core::workspace::OffloadInfo;
    /// let info = OffloadInfo { artifact_id: "tool_result_c1".into(), biz_id: "c1".into(),
    ///     tool_name: "bash".into(), action_name: None, chars: 3, bytes: 3, lines: 1,
    ///     created_at: "2026-01-01T00:00:00.000Z".into() };
    /// assert_eq!(tool_offload_core::json::stringify(&info.to_value()),
    ///     r#"{"artifact_id":"tool_result_c1","biz_id":"c1","tool_name":"bash","chars":3,"bytes":3,"lines":1,"created_at":"2026-01-01T00:00:00.000Z"}"#);
    /// ```
    pub fn to_value(&self) -> Value {
        let mut out = serde_json::Map::new();
        out.insert("artifact_id".into(), self.artifact_id.as_str().into());
        out.insert("biz_id".into(), self.biz_id.as_str().into());
        out.insert("tool_name".into(), self.tool_name.as_str().into());
        if let Some(action) = &self.action_name {
            out.insert("action_name".into(), action.as_str().into());
        }
        out.insert("chars".into(), self.chars.into());
        out.insert("bytes".into(), self.bytes.into());
        out.insert("lines".into(), self.lines.into());
        out.insert("created_at".into(), self.created_at.as_str().into());
        Value::Object(out)
    }

    /// One line for a prompt: `- tool_result_c1: bash/run (call c1), 120,000
    /// characters, 3,000 lines, 2026-01-01T00:00:00.000Z`.
    pub fn line(&self) -> String {
        use crate::text::thousands;
        let action = self
            .action_name
            .as_deref()
            .map(|a| format!("/{a}"))
            .unwrap_or_default();
        format!(
            "- {}: {}{action} (call {}), {} characters, {} lines, {}",
            self.artifact_id,
            self.tool_name,
            self.biz_id,
            thousands(self.chars as usize),
            thousands(self.lines as usize),
            self.created_at
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::KnowledgeType;
    use serde_json::json;

    fn record(id: &str, metadata: Value) -> KnowledgeRecord {
        KnowledgeRecord {
            id: id.into(),
            kind: KnowledgeType::Text,
            metadata: metadata.as_object().unwrap().clone(),
        }
    }

    #[test]
    fn filters_by_json_equality_newest_first_then_pages() {
        let records = [
            record(
                "b",
                json!({"task_id": "t1", "n": 1, "created_at": "2026-01-02T00:00:00.000Z"}),
            ),
            record(
                "a",
                json!({"task_id": "t1", "n": "1", "created_at": "2026-01-02T00:00:00.000Z"}),
            ),
            record(
                "c",
                json!({"task_id": "t1", "created_at": "2026-01-03T00:00:00.000Z"}),
            ),
            record(
                "d",
                json!({"task_id": "t2", "created_at": "2026-01-04T00:00:00.000Z"}),
            ),
        ];
        let ids = |q: &Query| -> Vec<String> {
            q.select(&records).iter().map(|r| r.id.clone()).collect()
        };
        let mut q = Query::new(json!({"task_id": "t1"}).as_object().unwrap().clone());
        assert_eq!(ids(&q), ["c", "a", "b"]);
        q.offset = 1;
        q.limit = 1;
        assert_eq!(ids(&q), ["a"]);
        let q = Query::new(json!({"n": 1}).as_object().unwrap().clone());
        assert_eq!(ids(&q), ["b"]);
        let q = Query::new(json!({"n": 1.0}).as_object().unwrap().clone());
        assert_eq!(ids(&q), ["b"], "a JavaScript 1 is 1");
        let q = Query::new(Map::new());
        assert_eq!(ids(&q), ["d", "c", "a", "b"]);
        let q = Query::new(json!({"missing": null}).as_object().unwrap().clone());
        assert!(ids(&q).is_empty());
    }

    #[test]
    fn the_limit_is_capped() {
        let records: Vec<_> = (0..MAX_QUERY_LIMIT + 5)
            .map(|i| record(&format!("k{i}"), json!({})))
            .collect();
        let mut q = Query::new(Map::new());
        q.limit = usize::MAX;
        assert_eq!(q.select(&records).len(), MAX_QUERY_LIMIT);
    }

    #[test]
    fn offload_info_lists_tool_results_only() {
        let r = record(
            "tool_result_c1",
            json!({"context_type": "tool_result", "biz_id": "c1", "tool_name": "bash",
                   "action_name": "run", "chars": 120000, "bytes": 120001, "lines": 3000,
                   "created_at": "2026-01-01T00:00:00.000Z"}),
        );
        let info = OffloadInfo::of(&r).unwrap();
        assert_eq!(info.bytes, 120_001);
        assert_eq!(
            info.line(),
            "- tool_result_c1: bash/run (call c1), 120,000 characters, 3,000 lines, 2026-01-01T00:00:00.000Z"
        );
        assert!(OffloadInfo::of(&record("n", json!({"context_type": "note"}))).is_none());
    }

    #[test]
    fn arrays_and_objects_compare_by_their_json() {
        let r = record("x", json!({"tags": [1, "a"], "o": {"n": 2}}));
        let matches = |filter: Value| Query::new(filter.as_object().unwrap().clone()).matches(&r);
        assert!(
            matches(json!({"tags": [1.0, "a"]})),
            "numbers inside by value"
        );
        assert!(matches(json!({"o": {"n": 2.0}})));
        assert!(!matches(json!({"tags": [1, "b"]})));
        assert!(!matches(json!({"tags": ["a", 1]})), "order matters");
        assert!(!matches(json!({"o": {"n": 3}})));
    }
}
