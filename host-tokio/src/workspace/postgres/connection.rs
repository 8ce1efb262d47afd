//! The index's connection: made within a time limit, and made again when it was lost
//! (a server restarted, a backend terminated, an idle connection cut by a proxy).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::RwLock;
use tokio_postgres::{Client, Config, NoTls};
use tool_offload_core::OffloadError;

use super::errors::{describe, read_failed};

/// How long [`PostgresIndex::connect`](super::PostgresIndex::connect) waits for the
/// server when the connection string sets no `connect_timeout`.
pub const POSTGRES_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The connection an index and its other namespaces' indexes share.
#[derive(Clone)]
pub(super) struct Connection {
    /// Reads run side by side on it, a transaction holds it alone.
    pub(super) client: Arc<RwLock<Client>>,
    /// Names the database in errors: `postgresql://user@host:port/dbname`.
    pub(super) location: Arc<str>,
    /// How to connect again when the connection is lost: `None` for a client brought
    /// to [`from_client`](super::PostgresIndex::from_client).
    pub(super) reconnect: Option<Arc<Config>>,
}

/// A client connected to the database `config` names within its `connect_timeout`
/// ([`POSTGRES_CONNECT_TIMEOUT`] when it names none), its connection driven by a task
/// that logs the connection's loss.
pub(super) async fn connect_client(
    config: &Config,
    location: &str,
    namespace: &str,
) -> Result<Client, OffloadError> {
    let limit = *config
        .get_connect_timeout()
        .unwrap_or(&POSTGRES_CONNECT_TIMEOUT);
    let failed = |why: String| {
        read_failed(
            location,
            namespace,
            format!("cannot connect to the PostgreSQL index: {why}"),
        )
    };
    // The driver's own timeout covers the TCP connect only; a server that accepts and
    // never answers must not hang the caller either.
    let (client, connection) = tokio::time::timeout(limit, config.connect(NoTls))
        .await
        .map_err(|_| failed(format!("no answer within {limit:?}")))?
        .map_err(|e| failed(describe(&e)))?;
    let logged = location.to_owned();
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(target: "tool_offload::workspace", database = %logged, error = %describe(&e), "PostgreSQL index connection lost");
        }
    });
    Ok(client)
}

impl Connection {
    /// Whether the connection is gone: closed, or not answering a check. Asked only
    /// after a call failed, so a healthy connection costs nothing.
    async fn lost(&self) -> bool {
        let client = self.client.read().await;
        client.is_closed() || client.check_connection().await.is_err()
    }

    /// A new connection in place of a lost one.
    async fn renew(&self, config: &Config, namespace: &str) -> Result<(), OffloadError> {
        let mut client = self.client.write().await;
        // Another call may have connected again while this one waited for the lock.
        if client.is_closed() || client.check_connection().await.is_err() {
            *client = connect_client(config, &self.location, namespace).await?;
            tracing::info!(target: "tool_offload::workspace", database = %self.location, "PostgreSQL index connected again");
        }
        Ok(())
    }

    /// `op`; when it fails because the connection was lost (before the call, or under it:
    /// a terminated session fails the call in flight), once more on a new connection, if
    /// this index made the lost one (a client brought to
    /// [`from_client`](super::PostgresIndex::from_client) is the caller's to renew). Every
    /// index call can be repeated: reads, upserts of the same records, deletes of the
    /// same ids. `namespace` names the index in an error.
    pub(super) async fn retrying<T, F, Fut>(
        &self,
        namespace: &str,
        op: F,
    ) -> Result<T, OffloadError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, OffloadError>>,
    {
        match (op().await, &self.reconnect) {
            (Err(_), Some(config)) if self.lost().await => {
                self.renew(config, namespace).await?;
                op().await
            }
            (done, _) => done,
        }
    }
}
