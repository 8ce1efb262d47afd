//! The PostgreSQL index's errors: where (the database, never the password) and why (the
//! driver's error with its causes).

use tokio_postgres::config::Host;
use tokio_postgres::Config;
use tool_offload_core::{IoError, OffloadError};

/// `postgresql://user@host:port/dbname`, for errors (never the password).
pub(super) fn location(config: &Config) -> String {
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(name)) => name.clone(),
        Some(Host::Unix(path)) => path.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config
        .get_user()
        .map(|u| format!("{u}@"))
        .unwrap_or_default();
    let db = config.get_dbname().unwrap_or_default();
    format!("postgresql://{user}{host}:{port}/{db}")
}

pub(super) fn where_(location: &str, namespace: &str) -> String {
    format!("{location} (namespace {namespace:?})")
}

pub(super) fn read_failed(location: &str, namespace: &str, message: String) -> OffloadError {
    OffloadError::ReadFailed {
        path: where_(location, namespace),
        source: IoError::new(message),
    }
}

/// The error and its causes on one line: `tokio_postgres::Error`'s own text names only
/// its kind ("db error"); the server's message is its source.
pub(super) fn describe(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text = format!("{text}: {cause}");
        source = cause.source();
    }
    text
}
