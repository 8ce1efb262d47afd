//! The PostgreSQL index: records in a table, queried by metadata, kept in step by a version row.

use super::connection::{connect_client, Connection, POSTGRES_CONNECT_TIMEOUT};
use super::counts::Counts;
use super::errors::{describe, location, read_failed, where_};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::RwLock;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, Config};
use tool_offload_core::workspace::{KnowledgeRecord, Query};
use tool_offload_core::{IoError, OffloadError};

/// How long a filter field's count (how many records hold it, up to 2,000) is reused to
/// choose the driving field, unless [`PostgresIndex::with_count_ttl`] says otherwise.
pub const POSTGRES_COUNT_TTL: Duration = Duration::from_secs(30);

/// The token [`changed`](tool_offload_core::workspace::RecordIndex::changed) hands out: a
/// shared index is synced once, then kept in step by its writers.
const SYNCED: &str = "shared";

/// A [`RecordIndex`](tool_offload_core::workspace::RecordIndex) in PostgreSQL: the records
/// of many namespaces in three tables (`tool_offload_records`, `tool_offload_fields`,
/// `tool_offload_meta`, created when missing), so many workers query one index. It answers
/// exactly as the SQLite index and the scan do: the same JSON equality (a field's
/// `JSON.stringify`, so `1` and `1.0` are one number and `"1"` another), newest first then
/// id in byte order (`COLLATE "C"`), and the same plan (the rarest filter field drives).
///
/// It trusts its writers: every workspace using it adds each record it stores, so once a
/// namespace was caught up with its records (the first query ever on it lists them),
/// [`changed`](tool_offload_core::workspace::RecordIndex::changed) says nothing changed,
/// and no worker lists the records again. Records written by a process without this index
/// are seen after [`Workspace::rebuild_index`](crate::workspace::Workspace::rebuild_index).
///
/// Connected without TLS by [`connect`](PostgresIndex::connect), which connects again
/// when the connection is lost (the call that met the loss is tried once more); bring a
/// client connected your way (TLS, a pooler) to [`from_client`](PostgresIndex::from_client).
///
/// ```no_run
/// use std::sync::Arc;
/// use tool_offload::{PostgresIndex, TokioFileWriter, Workspace, WorkspaceOptions};
/// # async fn demo() -> Result<(), tool_offload::OffloadError> {
/// // Any IO: an `ObjectStoreIo` (feature `object-store`) for workers on many machines.
/// let io = TokioFileWriter::new();
/// let index = PostgresIndex::connect("host=db.internal user=agent password=secret dbname=agent", "default").await?;
/// let ws = Workspace::with_io(WorkspaceOptions::at("/srv/agent"), io)?.with_index(Arc::new(index));
/// # Ok(()) }
/// ```
pub struct PostgresIndex {
    /// Shared by the namespaces of [`PostgresIndex::namespace`].
    pub(super) connection: Connection,
    pub(super) namespace: String,
    /// Whether the namespace is known to be synced (then `changed` asks no more).
    synced: AtomicBool,
    /// The filter fields' counts, remembered for a while.
    counts: Counts,
}

impl std::fmt::Debug for PostgresIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresIndex")
            .field("location", &self.connection.location)
            .field("namespace", &self.namespace)
            .finish_non_exhaustive()
    }
}

impl PostgresIndex {
    /// Connect (without TLS) to the database `config` names — a libpq connection string
    /// (`host=… user=… password=… dbname=…`) or URL (`postgresql://user:password@host/db`)
    /// — within its `connect_timeout` ([`POSTGRES_CONNECT_TIMEOUT`] when it names none),
    /// create the tables when missing, and index `namespace` in it.
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` for a connection string that does not parse; `READ_FAILED`
    /// naming the database when it cannot be reached, refuses the credentials, or the
    /// tables cannot be created.
    pub async fn connect(config: &str, namespace: &str) -> Result<Self, OffloadError> {
        let config: Config = config.parse().map_err(|e| {
            OffloadError::InvalidArgument(format!(
                "invalid PostgreSQL connection string: {}",
                describe(&e)
            ))
        })?;
        Self::connect_with(config, namespace).await
    }

    /// [`connect`](PostgresIndex::connect) with a [`Config`] built in code.
    ///
    /// # Errors
    /// As [`connect`](PostgresIndex::connect).
    pub async fn connect_with(mut config: Config, namespace: &str) -> Result<Self, OffloadError> {
        let limit = *config
            .get_connect_timeout()
            .unwrap_or(&POSTGRES_CONNECT_TIMEOUT);
        config.connect_timeout(limit);
        let location = location(&config);
        let client = connect_client(&config, &location, namespace).await?;
        Self::open(client, location, namespace, Some(Arc::new(config))).await
    }

    /// The index over a client you connected (TLS, your own settings); its connection
    /// task must be running. Creates the tables when missing.
    ///
    /// # Errors
    /// `READ_FAILED` when the tables cannot be created.
    pub async fn from_client(client: Client, namespace: &str) -> Result<Self, OffloadError> {
        Self::open(client, "postgresql".into(), namespace, None).await
    }

    async fn open(
        client: Client,
        location: String,
        namespace: &str,
        reconnect: Option<Arc<Config>>,
    ) -> Result<Self, OffloadError> {
        let index = PostgresIndex {
            connection: Connection {
                client: Arc::new(RwLock::new(client)),
                location: location.into(),
                reconnect,
            },
            namespace: namespace.to_owned(),
            synced: AtomicBool::new(false),
            counts: Counts::new(POSTGRES_COUNT_TTL),
        };
        index.create_tables().await.map_err(|e| {
            index.read_failed(format!("cannot create the index tables: {}", describe(&e)))
        })?;
        Ok(index)
    }

    /// Another namespace's index over the same connection.
    ///
    /// ```no_run
    /// # async fn demo(index: tool_offload::PostgresIndex) {
    /// let research = index.namespace("research");
    /// assert_eq!(research.namespace_name(), "research");
    /// # }
    /// ```
    pub fn namespace(&self, namespace: &str) -> Self {
        PostgresIndex {
            connection: self.connection.clone(),
            namespace: namespace.to_owned(),
            synced: AtomicBool::new(false),
            counts: Counts::new(self.counts.ttl()),
        }
    }

    /// This index with the filter fields' counts reused for `ttl` (default
    /// [`POSTGRES_COUNT_TTL`]; zero counts at every query). A query with two fields or
    /// more counts each field's records (up to 2,000) to let the rarest drive; counts a
    /// little stale only cost speed, never change a result.
    ///
    /// ```no_run
    /// # async fn demo(index: tool_offload::PostgresIndex) {
    /// let always_fresh = index.with_count_ttl(std::time::Duration::ZERO);
    /// # }
    /// ```
    pub fn with_count_ttl(mut self, ttl: Duration) -> Self {
        self.counts = Counts::new(ttl);
        self
    }

    /// The namespace this index holds.
    pub fn namespace_name(&self) -> &str {
        &self.namespace
    }

    async fn create_tables(&self) -> Result<(), tokio_postgres::Error> {
        let mut client = self.connection.client.write().await;
        let tx = client.transaction().await?;
        // Workers starting together: `CREATE … IF NOT EXISTS` is not safe concurrently,
        // so they take turns.
        tx.batch_execute(super::sql::SCHEMA).await?;
        tx.commit().await
    }

    fn read_failed(&self, message: String) -> OffloadError {
        read_failed(&self.connection.location, &self.namespace, message)
    }

    fn write_failed(&self, e: tokio_postgres::Error) -> OffloadError {
        OffloadError::WriteFailed {
            path: where_(&self.connection.location, &self.namespace),
            source: IoError::new(describe(&e)),
        }
    }

    fn read_error(&self, e: tokio_postgres::Error) -> OffloadError {
        self.read_failed(describe(&e))
    }

    pub(super) async fn changed_now(&self) -> Result<Option<String>, OffloadError> {
        if self.synced.load(Ordering::Acquire) {
            return Ok(None);
        }
        let client = self.connection.client.read().await;
        let row = client
            .query_typed_opt(super::sql::IS_SYNCED, &[(&self.namespace, Type::TEXT)])
            .await
            .map_err(|e| self.read_error(e))?;
        drop(client);
        if row.is_some() {
            self.synced.store(true, Ordering::Release);
            return Ok(None);
        }
        Ok(Some(SYNCED.to_owned()))
    }

    pub(super) async fn synced_now(&self, token: &str) -> Result<(), OffloadError> {
        let client = self.connection.client.read().await;
        client
            .execute_typed(
                super::sql::MARK_SYNCED,
                &[(&self.namespace, Type::TEXT), (&token, Type::TEXT)],
            )
            .await
            .map_err(|e| self.write_failed(e))?;
        self.synced.store(true, Ordering::Release);
        Ok(())
    }

    pub(super) async fn ids_now(&self) -> Result<HashSet<String>, OffloadError> {
        let client = self.connection.client.read().await;
        let rows = client
            .query_typed(super::sql::IDS, &[(&self.namespace, Type::TEXT)])
            .await
            .map_err(|e| self.read_error(e))?;
        rows.iter()
            .map(|row| row.try_get(0).map_err(|e| self.read_error(e)))
            .collect()
    }

    pub(super) async fn insert_now(&self, records: &[KnowledgeRecord]) -> Result<(), OffloadError> {
        if records.is_empty() {
            return Ok(());
        }
        let rows = super::sql::Rows::of(records);
        let mut client = self.connection.client.write().await;
        let ns: &(dyn ToSql + Sync) = &self.namespace;
        let done = async {
            let tx = client.transaction().await?;
            let ids: &(dyn ToSql + Sync) = &rows.ids;
            tx.execute_typed(
                super::sql::UPSERT_RECORDS,
                &[
                    (ns, Type::TEXT),
                    (ids, Type::TEXT_ARRAY),
                    (&rows.created_at, Type::TEXT_ARRAY),
                    (&rows.records, Type::TEXT_ARRAY),
                ],
            )
            .await?;
            tx.execute_typed(
                super::sql::DELETE_FIELDS,
                &[(ns, Type::TEXT), (ids, Type::TEXT_ARRAY)],
            )
            .await?;
            tx.execute_typed(
                super::sql::INSERT_FIELDS,
                &[
                    (ns, Type::TEXT),
                    (&rows.field_keys, Type::TEXT_ARRAY),
                    (&rows.field_values, Type::TEXT_ARRAY),
                    (&rows.field_created_at, Type::TEXT_ARRAY),
                    (&rows.field_ids, Type::TEXT_ARRAY),
                ],
            )
            .await?;
            tx.commit().await
        };
        done.await.map_err(|e| self.write_failed(e))
    }

    pub(super) async fn remove_now(&self, ids: &[String]) -> Result<(), OffloadError> {
        if ids.is_empty() {
            return Ok(());
        }
        let ids = ids.to_vec();
        let mut client = self.connection.client.write().await;
        let done = async {
            let tx = client.transaction().await?;
            let params: [(&(dyn ToSql + Sync), Type); 2] =
                [(&self.namespace, Type::TEXT), (&ids, Type::TEXT_ARRAY)];
            tx.execute_typed(super::sql::DELETE_RECORDS, &params)
                .await?;
            tx.execute_typed(super::sql::DELETE_FIELDS, &params).await?;
            tx.commit().await
        };
        done.await.map_err(|e| self.write_failed(e))
    }

    pub(super) async fn clear_now(&self) -> Result<(), OffloadError> {
        self.synced.store(false, Ordering::Release);
        let mut client = self.connection.client.write().await;
        let done = async {
            let tx = client.transaction().await?;
            for statement in super::sql::CLEAR {
                tx.execute_typed(statement, &[(&self.namespace, Type::TEXT)])
                    .await?;
            }
            tx.commit().await
        };
        done.await.map_err(|e| self.write_failed(e))
    }

    pub(super) async fn query_now(
        &self,
        query: &Query,
    ) -> Result<Vec<KnowledgeRecord>, OffloadError> {
        let plan = super::sql::Plan::of(query);
        let client = self.connection.client.read().await;
        let driving = self.driving(&plan, &client).await?;
        let (statement, params) = plan.selecting(&self.namespace, driving);
        let rows = client
            .query_typed(&statement, &params)
            .await
            .map_err(|e| self.read_error(e))?;
        drop(client);
        rows.iter()
            .map(|row| {
                let text: &str = row.try_get(0).map_err(|e| self.read_error(e))?;
                KnowledgeRecord::parse(text).map_err(|e| self.read_failed(e.to_string()))
            })
            .collect()
    }
}

impl PostgresIndex {
    /// The filter field to drive the query: the one with the fewest records, by counts
    /// remembered or counted now (in one statement).
    async fn driving(
        &self,
        plan: &super::sql::Plan,
        client: &Client,
    ) -> Result<usize, OffloadError> {
        let fields = plan.fields();
        let mut counts = self.counts.known(fields);
        let missing = super::counts::to_count(&counts);
        if !missing.is_empty() {
            let (statement, params) = plan.counting(&self.namespace, &missing);
            let row = client
                .query_typed_one(&statement, &params)
                .await
                .map_err(|e| self.read_error(e))?;
            for (column, &i) in missing.iter().enumerate() {
                let count: i64 = row.try_get(column).map_err(|e| self.read_error(e))?;
                self.counts.remember(&fields[i], count);
                counts[i] = Some(count);
            }
        }
        Ok(super::counts::rarest(&counts))
    }
}
