//! The SQLite index of a namespace's records (feature `sqlite`):
//! `<root>/context/<namespace>/index.sqlite`, rebuilt from the records when missing.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::UNIX_EPOCH;

use rusqlite::{params, params_from_iter, Connection, OptionalExtension};
use tool_offload_core::workspace::{
    IndexFuture, KnowledgeRecord, Query, RecordIndex, MAX_QUERY_LIMIT,
};
use tool_offload_core::{IoError, OffloadError};

/// The index file's name in the namespace directory.
pub const INDEX_FILE: &str = "index.sqlite";

/// The schema's version (`PRAGMA user_version`): an index of another version is dropped
/// and rebuilt from the records.
const SCHEMA_VERSION: i64 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS records (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_newest ON records (created_at DESC, id);
-- One row per metadata field; value is the field's JSON.stringify, so \"1\" and 1 differ
-- as they do in a scan. Keyed in query order, so the records holding one value come
-- newest first straight from the key.
CREATE TABLE IF NOT EXISTS fields (
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL,
    id TEXT NOT NULL,
    PRIMARY KEY (key, value, created_at DESC, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS fields_of ON fields (id);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
";

/// How long a call waits for another connection's lock on the index.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// WAL mode and the schema of this version (tables of another version dropped first, to
/// be rebuilt from the records). Idempotent.
fn set_up(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")?;
    let version = conn.query_row("PRAGMA user_version", [], |row| row.get::<_, i64>(0))?;
    if version != SCHEMA_VERSION {
        conn.execute_batch(
            "DROP TABLE IF EXISTS records; DROP TABLE IF EXISTS fields; DROP TABLE IF EXISTS meta;",
        )?;
    }
    conn.execute_batch(SCHEMA)?;
    conn.pragma_update(None, "user_version", SCHEMA_VERSION)
}

/// Whether SQLite said another connection holds the lock.
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// A [`RecordIndex`] in SQLite (bundled), one connection behind a lock: every call is a
/// short local transaction.
pub(crate) struct SqliteIndex {
    conn: Mutex<Connection>,
    records_dir: PathBuf,
    path: PathBuf,
}

impl SqliteIndex {
    /// Open (or create) the index of the namespace in `dir`.
    pub(crate) fn open(dir: &Path, records_dir: &Path) -> Result<Self, OffloadError> {
        let path = dir.join(INDEX_FILE);
        let failed = |e: &dyn std::fmt::Display| OffloadError::ReadFailed {
            path: path.display().to_string(),
            source: IoError::new(format!("cannot open the SQLite index: {e}")),
        };
        std::fs::create_dir_all(dir).map_err(|e| failed(&e))?;
        let conn = Connection::open(&path).map_err(|e| failed(&e))?;
        conn.busy_timeout(BUSY_WAIT).map_err(|e| failed(&e))?;
        // Switching a new file to WAL takes the database alone, and SQLite answers "database
        // is locked" at once, without its busy handler, while another process or workspace
        // opens the same index: the set-up is idempotent, so it is tried again for as long
        // as the busy timeout would have waited.
        let deadline = std::time::Instant::now() + BUSY_WAIT;
        loop {
            match set_up(&conn) {
                Ok(()) => break,
                Err(e) if is_busy(&e) && std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(e) => return Err(failed(&e)),
            }
        }
        let index = SqliteIndex {
            conn: Mutex::new(conn),
            records_dir: records_dir.to_owned(),
            path: path.clone(),
        };
        // A namespace with no records yet: the new index is in step with it, so this
        // process's own first stores keep it in step (no directory listing at the first
        // query). Otherwise the first query catches up.
        if !records_dir.exists() {
            index
                .conn()
                .execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('synced', 'absent')",
                    [],
                )
                .map_err(|e| failed(&e))?;
        }
        Ok(index)
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn read_failed(&self, e: impl std::fmt::Display) -> OffloadError {
        OffloadError::ReadFailed {
            path: self.path.display().to_string(),
            source: IoError::new(e.to_string()),
        }
    }

    fn write_failed(&self, e: impl std::fmt::Display) -> OffloadError {
        OffloadError::WriteFailed {
            path: self.path.display().to_string(),
            source: IoError::new(e.to_string()),
        }
    }
}

/// How far the fields of a filter are counted to find the rarest (beyond it, any).
const RARE: u64 = 2000;

impl SqliteIndex {
    /// How many records hold `key` = `value`, counting no further than `most`.
    fn count_up_to(&self, key: &str, value: &str, most: u64) -> Result<u64, OffloadError> {
        self.conn()
            .prepare_cached(
                "SELECT count(*) FROM (SELECT 1 FROM fields WHERE key = ?1 AND value = ?2 LIMIT ?3)",
            )
            .and_then(|mut s| {
                s.query_row(params![key, value, most as i64], |row| row.get::<_, i64>(0))
            })
            .map(|n| n.max(0) as u64)
            .map_err(|e| self.read_failed(e))
    }
}

/// The index's work, synchronous: a local transaction each.
impl SqliteIndex {
    fn changed_now(&self) -> Result<Option<String>, OffloadError> {
        // The records directory's modification time changes with every entry added or
        // removed; nanoseconds where the file system keeps them.
        let token = match std::fs::metadata(&self.records_dir).and_then(|m| m.modified()) {
            Ok(time) => {
                let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
                format!("{}.{:09}", since.as_secs(), since.subsec_nanos())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => "absent".into(),
            Err(e) => return Err(self.read_failed(e)),
        };
        let synced: Option<String> = self
            .conn()
            .query_row("SELECT value FROM meta WHERE key = 'synced'", [], |row| {
                row.get(0)
            })
            .optional()
            .map_err(|e| self.read_failed(e))?;
        Ok((synced.as_deref() != Some(token.as_str())).then_some(token))
    }

    fn synced_now(&self, token: &str) -> Result<(), OffloadError> {
        self.conn()
            .execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('synced', ?1)",
                params![token],
            )
            .map(drop)
            .map_err(|e| self.write_failed(e))
    }

    fn ids_now(&self) -> Result<HashSet<String>, OffloadError> {
        let conn = self.conn();
        let mut statement = conn
            .prepare_cached("SELECT id FROM records")
            .map_err(|e| self.read_failed(e))?;
        let ids = statement
            .query_map([], |row| row.get(0))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.read_failed(e))?;
        Ok(ids)
    }

    fn insert_now(&self, records: &[KnowledgeRecord]) -> Result<(), OffloadError> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(|e| self.write_failed(e))?;
        for record in records {
            let written = tx
                .execute(
                    "INSERT OR REPLACE INTO records (id, created_at, record) VALUES (?1, ?2, ?3)",
                    params![record.id, record.created_at(), record.to_json()],
                )
                .and_then(|_| tx.execute("DELETE FROM fields WHERE id = ?1", params![record.id]));
            written.map_err(|e| self.write_failed(e))?;
            for (key, value) in &record.metadata {
                tx.execute(
                    "INSERT OR REPLACE INTO fields (key, value, created_at, id) VALUES (?1, ?2, ?3, ?4)",
                    params![
                        key,
                        tool_offload_core::json::stringify(value),
                        record.created_at(),
                        record.id
                    ],
                )
                .map_err(|e| self.write_failed(e))?;
            }
        }
        tx.commit().map_err(|e| self.write_failed(e))
    }

    fn remove_now(&self, ids: &[String]) -> Result<(), OffloadError> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(|e| self.write_failed(e))?;
        for id in ids {
            tx.execute("DELETE FROM records WHERE id = ?1", params![id])
                .and_then(|_| tx.execute("DELETE FROM fields WHERE id = ?1", params![id]))
                .map_err(|e| self.write_failed(e))?;
        }
        tx.commit().map_err(|e| self.write_failed(e))
    }

    fn clear_now(&self) -> Result<(), OffloadError> {
        self.conn()
            .execute_batch("DELETE FROM records; DELETE FROM fields; DELETE FROM meta;")
            .map_err(|e| self.write_failed(e))
    }

    fn query_now(&self, query: &Query) -> Result<Vec<KnowledgeRecord>, OffloadError> {
        let fields: Vec<(String, String)> = query
            .filter
            .iter()
            .map(|(key, value)| (key.clone(), tool_offload_core::json::stringify(value)))
            .collect();
        // The plan is ours, not the planner's (it has no statistics of values): the rarest
        // field's records come newest first straight from the `fields` key, each joined to
        // its record and probed (by full key) for the other fields, until the page is full.
        // Without a filter, the records are walked through `records_newest`.
        let driving = match fields.len() {
            0 | 1 => 0,
            _ => {
                let counts = fields
                    .iter()
                    .map(|(key, value)| self.count_up_to(key, value, RARE))
                    .collect::<Result<Vec<_>, _>>()?;
                (0..fields.len()).min_by_key(|&i| counts[i]).unwrap_or(0)
            }
        };
        let mut values: Vec<String> = Vec::with_capacity(2 * fields.len() + 2);
        let mut sql = if fields.is_empty() {
            "SELECT r.record FROM records r INDEXED BY records_newest".to_owned()
        } else {
            "SELECT r.record FROM fields d CROSS JOIN records r ON r.id = d.id".to_owned()
        };
        for (i, (key, value)) in fields.iter().enumerate() {
            if i != driving {
                sql += &format!(
                    " CROSS JOIN fields f{i} ON f{i}.key = ? AND f{i}.value = ? \
                     AND f{i}.created_at = d.created_at AND f{i}.id = d.id"
                );
                values.extend([key.clone(), value.clone()]);
            }
        }
        if let Some((key, value)) = fields.get(driving) {
            sql += " WHERE d.key = ? AND d.value = ? ORDER BY d.created_at DESC, d.id ASC";
            values.extend([key.clone(), value.clone()]);
        } else {
            sql += " ORDER BY r.created_at DESC, r.id ASC";
        }
        sql += " LIMIT ? OFFSET ?";
        values.push(query.limit.min(MAX_QUERY_LIMIT).to_string());
        values.push(query.offset.to_string());
        let conn = self.conn();
        let mut statement = conn.prepare_cached(&sql).map_err(|e| self.read_failed(e))?;
        let texts: Vec<String> = statement
            .query_map(params_from_iter(values), |row| row.get(0))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.read_failed(e))?;
        texts
            .iter()
            .map(|text| KnowledgeRecord::parse(text).map_err(|e| self.read_failed(e)))
            .collect()
    }
}

/// A local database answers at once: each future is ready at its first poll (SQLite's
/// calls block as briefly as a file read does).
impl RecordIndex for SqliteIndex {
    fn changed(&self) -> IndexFuture<'_, Option<String>> {
        Box::pin(std::future::ready(self.changed_now()))
    }
    fn synced<'a>(&'a self, token: &'a str) -> IndexFuture<'a, ()> {
        Box::pin(std::future::ready(self.synced_now(token)))
    }
    fn ids(&self) -> IndexFuture<'_, HashSet<String>> {
        Box::pin(std::future::ready(self.ids_now()))
    }
    fn insert<'a>(&'a self, records: &'a [KnowledgeRecord]) -> IndexFuture<'a, ()> {
        Box::pin(std::future::ready(self.insert_now(records)))
    }
    fn remove<'a>(&'a self, ids: &'a [String]) -> IndexFuture<'a, ()> {
        Box::pin(std::future::ready(self.remove_now(ids)))
    }
    fn clear(&self) -> IndexFuture<'_, ()> {
        Box::pin(std::future::ready(self.clear_now()))
    }
    fn query<'a>(&'a self, query: &'a Query) -> IndexFuture<'a, Vec<KnowledgeRecord>> {
        Box::pin(std::future::ready(self.query_now(query)))
    }
}
