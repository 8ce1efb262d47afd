//! Opening a `tool_offload.Workspace`: its options from JSON, its storage (files or an
//! object store) and its index (SQLite on files by default, PostgreSQL, or none: queries
//! scan the records, the default in an object store).

use std::sync::Arc;

use pyo3::prelude::*;
use tool_offload::{Clock, TryCountTokens, Workspace, WorkspaceOptions};

use crate::bridge::{invalid, py_err};
use crate::storage::Location;

/// The tokio host's workspace on local files, or in an object store.
pub(crate) enum Ws {
    Files(Arc<Workspace>),
    #[cfg(feature = "object-store")]
    Objects(Arc<Workspace<tool_offload::ObjectStoreIo>>),
}

/// The Python callables a workspace calls back.
pub(crate) struct Callbacks {
    pub(crate) count_tokens: Option<TryCountTokens>,
    pub(crate) now: Option<Clock>,
}

impl Callbacks {
    fn on<IO: tool_offload::FileWriter + tool_offload::FileReader + Send + Sync>(
        self,
        mut ws: Workspace<IO>,
    ) -> Arc<Workspace<IO>> {
        if let Some(count) = self.count_tokens {
            ws = ws.with_fallible_token_counter(count);
        }
        if let Some(now) = self.now {
            ws = ws.with_clock(now);
        }
        Arc::new(ws)
    }
}

/// The index asked for: `None` (the default for the storage), `"sqlite"`, `"postgres"`
/// (with `postgres`, a libpq connection string) or `"none"`.
#[derive(PartialEq)]
enum Index<'a> {
    Sqlite,
    Postgres(&'a str),
    Scan,
}

fn index<'a>(
    py: Python<'_>,
    index: Option<&str>,
    postgres: Option<&'a str>,
    remote: bool,
) -> PyResult<Index<'a>> {
    match (index, postgres) {
        (Some("postgres"), Some(config)) => Ok(Index::Postgres(config)),
        (Some("postgres"), None) => Err(invalid(
            py,
            "index \"postgres\" needs postgres=<connection string>",
        )),
        (_, Some(_)) => Err(invalid(py, "postgres= is for index=\"postgres\"")),
        (Some("sqlite"), None) if remote => Err(invalid(
            py,
            "index \"sqlite\" needs local files: in an object store, index=None (queries \
             scan the records) or \"postgres\"",
        )),
        (Some("sqlite"), None) => Ok(Index::Sqlite),
        (None, None) if remote => Ok(Index::Scan),
        (None, None) => Ok(Index::Sqlite),
        (Some("none"), None) => Ok(Index::Scan),
        (Some(other), None) => {
            let message = format!("index must be \"sqlite\", \"postgres\" or None, got {other:?}");
            Err(invalid(py, &message))
        }
    }
}

/// The workspace of `options` at `location` with its index and callbacks.
pub(crate) fn open(
    py: Python<'_>,
    location: Location,
    options: WorkspaceOptions,
    asked: Option<&str>,
    postgres: Option<&str>,
    callbacks: Callbacks,
) -> PyResult<Ws> {
    let err = |e| py_err(py, e);
    #[cfg(feature = "object-store")]
    if let Some(io) = location.store {
        let index = index(py, asked, postgres, true)?;
        let namespace = options.namespace.clone();
        let mut ws = Workspace::with_io(options, io).map_err(err)?;
        if let Index::Postgres(config) = index {
            ws = ws.with_index(postgres_index(py, &namespace, config)?);
        }
        return Ok(Ws::Objects(callbacks.on(ws)));
    }
    #[cfg(not(feature = "object-store"))]
    let _ = location;
    let ws = match index(py, asked, postgres, false)? {
        Index::Sqlite => Workspace::new(options).map_err(err)?,
        Index::Scan => {
            Workspace::with_io(options, tool_offload::TokioFileWriter::new()).map_err(err)?
        }
        Index::Postgres(config) => {
            let namespace = options.namespace.clone();
            let ws = Workspace::with_io(options, tool_offload::TokioFileWriter::new());
            ws.map_err(err)?
                .with_index(postgres_index(py, &namespace, config)?)
        }
    };
    Ok(Ws::Files(callbacks.on(ws)))
}

/// A PostgreSQL index (`config`: a libpq connection string) of `namespace`.
#[cfg(feature = "postgres")]
fn postgres_index(
    py: Python<'_>,
    namespace: &str,
    config: &str,
) -> PyResult<Arc<dyn tool_offload::RecordIndex>> {
    let index = crate::bridge::run(py, || {
        tool_offload::PostgresIndex::connect(config, namespace)
    })?;
    Ok(Arc::new(index))
}

/// Without the `postgres` feature: refused.
#[cfg(not(feature = "postgres"))]
fn postgres_index(
    py: Python<'_>,
    _namespace: &str,
    _config: &str,
) -> PyResult<Arc<dyn tool_offload::RecordIndex>> {
    Err(invalid(
        py,
        "this build has no PostgreSQL index (the feature postgres)",
    ))
}
