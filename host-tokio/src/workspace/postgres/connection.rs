//! The index's connection: made within a time limit, and made again when it was lost
//! (a server restarted, a backend terminated, an idle connection cut by a proxy).

use std::future::Future;

use tokio_postgres::{Client, Config, NoTls};
use tool_offload_core::OffloadError;

use super::errors::{describe, read_failed};
use super::index::{PostgresIndex, POSTGRES_CONNECT_TIMEOUT};

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

impl PostgresIndex {
    /// Whether the connection is gone: closed, or not answering a check. Asked only
    /// after a call failed, so a healthy connection costs nothing.
    async fn lost(&self) -> bool {
        let client = self.client.read().await;
        client.is_closed() || client.check_connection().await.is_err()
    }

    /// A new connection in place of a lost one.
    async fn renew(&self, config: &Config) -> Result<(), OffloadError> {
        let mut client = self.client.write().await;
        // Another call may have connected again while this one waited for the lock.
        if client.is_closed() || client.check_connection().await.is_err() {
            *client = connect_client(config, &self.location, &self.namespace).await?;
            tracing::info!(target: "tool_offload::workspace", database = %self.location, "PostgreSQL index connected again");
        }
        Ok(())
    }

    /// `op`; when it fails because the connection was lost (before the call, or under it:
    /// a terminated session fails the call in flight), once more on a new connection, if
    /// this index made the lost one (a client brought to
    /// [`from_client`](PostgresIndex::from_client) is the caller's to renew). Every index
    /// call can be repeated: reads, upserts of the same records, deletes of the same ids.
    pub(super) async fn retrying<T, F, Fut>(&self, op: F) -> Result<T, OffloadError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, OffloadError>>,
    {
        match (op().await, &self.reconnect) {
            (Err(_), Some(config)) if self.lost().await => {
                self.renew(config).await?;
                op().await
            }
            (done, _) => done,
        }
    }
}
