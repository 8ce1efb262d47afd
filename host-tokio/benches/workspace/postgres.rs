//! The PostgreSQL side of the workspace bench: a throwaway cluster, the same records in a
//! `PostgresIndex`, and the planner's own plan for comparison.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tool_offload::tokio_postgres::{self, types::Type, Client, NoTls};
use tool_offload::{PostgresIndex, TokioFileWriter, Workspace, WorkspaceOptions};

use super::cluster::{self, Cluster};
use super::{filter, percentile, MakeFilter};

/// The namespace key the bench indexes under.
const NAMESPACE: &str = "bench";

pub struct Bench {
    /// Stopped when the bench ends.
    _cluster: Cluster,
    /// The records of the SQLite run, indexed in PostgreSQL.
    pub workspace: Workspace,
    /// The same index counting the filter fields at every query (no counts remembered).
    pub counting: Workspace,
    client: Client,
    rebuild_s: f64,
    records: u64,
}

impl Bench {
    /// A cluster, and the `records` records under `options.root` indexed in it; `None`
    /// (with a message) when PostgreSQL is not installed.
    pub async fn start(options: WorkspaceOptions, records: u64) -> Option<Bench> {
        if cluster::bin_dir().is_none() {
            println!(
                "postgres: skipped — PostgreSQL's initdb not found under /usr/lib/postgresql/*/bin \
                 (apt-get install postgresql, or make setup; TOOL_OFFLOAD_PG_BIN names another)"
            );
            return None;
        }
        let cluster = Cluster::start();
        let index = PostgresIndex::connect(&cluster.config(), NAMESPACE)
            .await
            .expect("connect");
        let counting = Workspace::with_io(options.clone(), TokioFileWriter::new())
            .expect("workspace")
            .with_index(Arc::new(
                index.namespace(NAMESPACE).with_count_ttl(Duration::ZERO),
            ));
        let workspace = Workspace::with_io(options, TokioFileWriter::new())
            .expect("workspace")
            .with_index(Arc::new(index));
        let started = Instant::now();
        workspace.rebuild_index().await.expect("rebuild");
        let rebuild_s = started.elapsed().as_secs_f64();
        let (client, connection) = tokio_postgres::connect(&cluster.config(), NoTls)
            .await
            .expect("connect");
        tokio::spawn(connection);
        // The steady state of a live database (autovacuum's work): statistics, and the
        // visibility map that lets the index-only scans skip the table.
        client
            .batch_execute("VACUUM ANALYZE")
            .await
            .expect("vacuum");
        eprintln!(
            "postgres: indexed {records} records by rebuild_index in {rebuild_s:.1} s (reads every record file)"
        );
        Some(Bench {
            _cluster: cluster,
            workspace,
            counting,
            client,
            rebuild_s,
            records,
        })
    }

    /// p50 and p99 (ms) of the one statement PostgreSQL plans on its own: every field an
    /// `EXISTS` on the fields table, newest first from the records table.
    pub async fn planner_plan(&self, make: &MakeFilter, queries: usize) -> (f64, f64) {
        let mut samples = Vec::with_capacity(queries);
        for q in 0..queries {
            let fields: Vec<(String, String)> = filter(make(q))
                .iter()
                .map(|(k, v)| (Value::String(k.clone()).to_string(), v.to_string()))
                .collect();
            let mut sql =
                "SELECT r.record FROM tool_offload_records r WHERE r.namespace = $1".to_owned();
            let mut params: Vec<(&(dyn tokio_postgres::types::ToSql + Sync), Type)> =
                vec![(&NAMESPACE, Type::TEXT)];
            for (key, value) in &fields {
                params.push((key, Type::TEXT));
                params.push((value, Type::TEXT));
                let (k, v) = (params.len() - 1, params.len());
                sql += &format!(
                    " AND EXISTS (SELECT 1 FROM tool_offload_fields f WHERE f.namespace = r.namespace \
                     AND f.id = r.id AND f.key = ${k} AND f.value = ${v})"
                );
            }
            sql += " ORDER BY r.created_at DESC, r.id LIMIT 50";
            let t = Instant::now();
            let rows = self.client.query_typed(&sql, &params).await.expect("query");
            samples.push(t.elapsed().as_secs_f64() * 1e3);
            assert!(!rows.is_empty());
        }
        (
            percentile(&mut samples, 0.5),
            percentile(&mut samples, 0.99),
        )
    }

    pub fn report(&self) -> Value {
        json!({"records": self.records, "rebuild_seconds": self.rebuild_s})
    }
}
