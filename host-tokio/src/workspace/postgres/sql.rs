//! The PostgreSQL index's tables, statements and query plan.

use std::collections::BTreeMap;

use tokio_postgres::types::{ToSql, Type};
use tool_offload_core::json::stringify;
use tool_offload_core::materialize::sha256_hex;
use tool_offload_core::workspace::{KnowledgeRecord, Query, MAX_QUERY_LIMIT};
use tool_offload_core::Value;

/// The tables, created when missing under a transaction-scoped advisory lock (workers
/// starting together take turns). Every text compared or ordered is `COLLATE "C"`: byte
/// order, as the scan and SQLite order ids, whatever the database's locale.
pub(super) const SCHEMA: &str = r#"
SELECT pg_advisory_xact_lock(7173067001);
CREATE TABLE IF NOT EXISTS tool_offload_records (
    namespace TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (namespace, id)
);
CREATE INDEX IF NOT EXISTS tool_offload_records_newest
    ON tool_offload_records (namespace, created_at DESC, id);
-- One row per metadata field: key and value are their JSON.stringify (a long one its
-- hash, see `field_text`), keyed in query order so the records holding one value come
-- newest first straight from the index.
CREATE TABLE IF NOT EXISTS tool_offload_fields (
    namespace TEXT COLLATE "C" NOT NULL,
    key TEXT COLLATE "C" NOT NULL,
    value TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS tool_offload_fields_key
    ON tool_offload_fields (namespace, key, value, created_at DESC, id);
CREATE INDEX IF NOT EXISTS tool_offload_fields_of ON tool_offload_fields (namespace, id);
CREATE TABLE IF NOT EXISTS tool_offload_meta (
    namespace TEXT COLLATE "C" NOT NULL,
    key TEXT COLLATE "C" NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (namespace, key)
);
"#;

pub(super) const IS_SYNCED: &str =
    "SELECT 1 FROM tool_offload_meta WHERE namespace = $1 AND key = 'synced'";
pub(super) const MARK_SYNCED: &str = "INSERT INTO tool_offload_meta (namespace, key, value) \
     VALUES ($1, 'synced', $2) ON CONFLICT (namespace, key) DO UPDATE SET value = EXCLUDED.value";
pub(super) const IDS: &str = "SELECT id FROM tool_offload_records WHERE namespace = $1";
pub(super) const UPSERT_RECORDS: &str = "INSERT INTO tool_offload_records \
     (namespace, id, created_at, record) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[]) \
     ON CONFLICT (namespace, id) DO UPDATE SET created_at = EXCLUDED.created_at, record = EXCLUDED.record";
pub(super) const DELETE_FIELDS: &str =
    "DELETE FROM tool_offload_fields WHERE namespace = $1 AND id = ANY($2)";
pub(super) const INSERT_FIELDS: &str = "INSERT INTO tool_offload_fields \
     (namespace, key, value, created_at, id) \
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) ON CONFLICT DO NOTHING";
pub(super) const DELETE_RECORDS: &str =
    "DELETE FROM tool_offload_records WHERE namespace = $1 AND id = ANY($2)";
pub(super) const CLEAR: [&str; 3] = [
    "DELETE FROM tool_offload_records WHERE namespace = $1",
    "DELETE FROM tool_offload_fields WHERE namespace = $1",
    "DELETE FROM tool_offload_meta WHERE namespace = $1",
];

/// How far the fields of a filter are counted to find the rarest (beyond it, any), as
/// the SQLite index does.
const RARE: i64 = 2000;

/// Field texts up to this many bytes are stored as they are; longer ones by hash, since
/// a B-tree entry holds at most about 2.7 kB.
const LONGEST_FIELD_TEXT: usize = 256;

/// A metadata key's or value's JSON as the `fields` table holds it: the JSON itself, or
/// `#` and its SHA-256 when long (no JSON text starts with `#`, so the two never meet).
pub(super) fn field_text(json: String) -> String {
    if json.len() <= LONGEST_FIELD_TEXT {
        json
    } else {
        format!("#{}", sha256_hex(&json))
    }
}

fn key_text(key: &str) -> String {
    field_text(stringify(&Value::String(key.to_owned())))
}

/// A batch of records as column arrays, one entry per id (the last record of an id
/// wins), sorted by id so that concurrent batches lock rows in one order.
#[derive(Default)]
pub(super) struct Rows {
    pub(super) ids: Vec<String>,
    pub(super) created_at: Vec<String>,
    pub(super) records: Vec<String>,
    pub(super) field_keys: Vec<String>,
    pub(super) field_values: Vec<String>,
    pub(super) field_created_at: Vec<String>,
    pub(super) field_ids: Vec<String>,
}

impl Rows {
    pub(super) fn of(records: &[KnowledgeRecord]) -> Self {
        let by_id: BTreeMap<&str, &KnowledgeRecord> =
            records.iter().map(|r| (r.id.as_str(), r)).collect();
        let mut rows = Rows::default();
        for (id, record) in by_id {
            rows.ids.push(id.to_owned());
            rows.created_at.push(record.created_at().to_owned());
            rows.records.push(record.to_json());
            for (key, value) in &record.metadata {
                rows.field_keys.push(key_text(key));
                rows.field_values.push(field_text(stringify(value)));
                rows.field_created_at.push(record.created_at().to_owned());
                rows.field_ids.push(id.to_owned());
            }
        }
        rows
    }
}

/// A query's plan: as the SQLite index's, ours rather than the planner's. The rarest
/// field's rows come newest first straight from `tool_offload_fields_key`, each probed
/// for the other fields by full key and joined to its record, until the page is full;
/// without a filter, the records come through `tool_offload_records_newest`.
pub(super) struct Plan {
    /// `(key, value)` texts of the filter.
    fields: Vec<(String, String)>,
    limit: i64,
    offset: i64,
}

/// Statement text and typed parameters.
pub(super) type Statement<'a> = (String, Vec<(&'a (dyn ToSql + Sync), Type)>);

impl Plan {
    pub(super) fn of(query: &Query) -> Self {
        Plan {
            fields: query
                .filter
                .iter()
                .map(|(key, value)| (key_text(key), field_text(stringify(value))))
                .collect(),
            limit: query.limit.min(MAX_QUERY_LIMIT) as i64,
            offset: i64::try_from(query.offset).unwrap_or(i64::MAX),
        }
    }

    /// The filter's `(key, value)` texts.
    pub(super) fn fields(&self) -> &[(String, String)] {
        &self.fields
    }

    /// One statement counting the rows of the fields numbered `which`, each up to
    /// [`RARE`], in that order.
    pub(super) fn counting<'a>(&'a self, namespace: &'a String, which: &[usize]) -> Statement<'a> {
        let mut params: Vec<(&'a (dyn ToSql + Sync), Type)> =
            vec![(namespace, Type::TEXT), (&RARE, Type::INT8)];
        let counts: Vec<String> = which
            .iter()
            .map(|&i| {
                let (key, value) = &self.fields[i];
                params.push((key, Type::TEXT));
                params.push((value, Type::TEXT));
                let (k, v) = (params.len() - 1, params.len());
                format!(
                    "(SELECT count(*) FROM (SELECT 1 FROM tool_offload_fields \
                     WHERE namespace = $1 AND key = ${k} AND value = ${v} LIMIT $2) AS c)"
                )
            })
            .collect();
        (format!("SELECT {}", counts.join(", ")), params)
    }

    /// The page, field `driving` driving.
    pub(super) fn selecting<'a>(&'a self, namespace: &'a String, driving: usize) -> Statement<'a> {
        let mut params: Vec<(&'a (dyn ToSql + Sync), Type)> = vec![
            (namespace, Type::TEXT),
            (&self.limit, Type::INT8),
            (&self.offset, Type::INT8),
        ];
        let Some((key, value)) = self.fields.get(driving) else {
            let sql = "SELECT record FROM tool_offload_records WHERE namespace = $1 \
                       ORDER BY created_at DESC, id LIMIT $2 OFFSET $3";
            return (sql.to_owned(), params);
        };
        params.push((key, Type::TEXT));
        params.push((value, Type::TEXT));
        // The probes are scalar subqueries, which PostgreSQL runs per row as written
        // (an `EXISTS` it would turn into a join over every row of the other field, then
        // sort); the page is cut before the join to the records.
        let mut sql = "SELECT r.record FROM (SELECT d.id, d.created_at FROM tool_offload_fields d \
             WHERE d.namespace = $1 AND d.key = $4 AND d.value = $5"
            .to_owned();
        for (i, (key, value)) in self.fields.iter().enumerate() {
            if i == driving {
                continue;
            }
            params.push((key, Type::TEXT));
            params.push((value, Type::TEXT));
            let (k, v) = (params.len() - 1, params.len());
            sql += &format!(
                " AND (SELECT 1 FROM tool_offload_fields f WHERE f.namespace = $1 \
                 AND f.key = ${k} AND f.value = ${v} AND f.created_at = d.created_at AND f.id = d.id) IS NOT NULL"
            );
        }
        sql += " ORDER BY d.created_at DESC, d.id LIMIT $2 OFFSET $3) AS page \
                JOIN tool_offload_records r ON r.namespace = $1 AND r.id = page.id \
                ORDER BY page.created_at DESC, page.id";
        (sql, params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_field_texts_are_hashed_and_never_meet_a_json_text() {
        assert_eq!(field_text("\"short\"".into()), "\"short\"");
        let long = stringify(&json!("x".repeat(LONGEST_FIELD_TEXT)));
        let hashed = field_text(long.clone());
        assert_eq!(hashed, format!("#{}", sha256_hex(&long)));
        assert_eq!(field_text(long), hashed, "the same value, the same text");
        let exactly = "1".repeat(LONGEST_FIELD_TEXT);
        assert_eq!(field_text(exactly.clone()), exactly);
    }

    #[test]
    fn a_plan_counts_the_fields_asked_and_drives_from_the_one_chosen() {
        let ns = "n".to_owned();
        let query = |filter: Value| Query::new(filter.as_object().unwrap().clone());
        let one = Plan::of(&query(json!({"a": 1.0})));
        assert_eq!(one.fields(), [("\"a\"".to_owned(), "1".to_owned())]);
        let two = Plan::of(&query(json!({"a": 1, "b": "x"})));
        let (sql, params) = two.counting(&ns, &[0, 1]);
        assert_eq!(sql.matches("count(*)").count(), 2);
        assert_eq!(params.len(), 6);
        assert!(sql.contains("key = $3 AND value = $4") && sql.contains("key = $5 AND value = $6"));
        let (sql, params) = two.counting(&ns, &[1]);
        assert_eq!(sql.matches("count(*)").count(), 1);
        assert_eq!(params.len(), 4);
        let (sql, params) = two.selecting(&ns, 1);
        assert!(sql.contains("d.key = $4 AND d.value = $5"));
        assert!(sql.contains("f.key = $6 AND f.value = $7"));
        assert_eq!(params.len(), 7);
        let mut capped = query(json!({}));
        capped.limit = usize::MAX;
        assert_eq!(Plan::of(&capped).limit, MAX_QUERY_LIMIT as i64);
    }
}
