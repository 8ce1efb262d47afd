//! What the proxy's two directions share: the [`Relay`] (its state, the line to the
//! client), the log, and how long the upstream gets to exit.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::ErrorData;
use tokio::sync::mpsc;

use super::context::ContextTools;
use super::intercept::{Pending, UpstreamInfo};
use super::rpc::{error_line, RequestId};

/// How long the upstream gets to exit after the client closed our stdin, before it is
/// killed.
pub const EXIT_GRACE: Duration = Duration::from_secs(2);
/// Characters of a garbage line quoted in the log.
const QUOTED_CHARS: usize = 200;

/// A line for the upstream, with the id of the request it is, if the proxy awaits its
/// answer (then a line that cannot be written fails that request).
pub type UpstreamLine = (String, Option<RequestId>);

/// What the relay knows, shared by its two directions.
#[derive(Default)]
pub struct State {
    /// Requests relayed upstream and not yet answered.
    pub pending: HashMap<RequestId, Pending>,
    /// From the upstream's `initialize` response.
    pub upstream: UpstreamInfo,
    /// Set once the upstream is gone: why, for every later request.
    pub gone: Option<String>,
}

/// The relay's shared parts.
pub struct Relay {
    /// The read-back side, and the materializer results are stored with.
    pub context: Arc<ContextTools>,
    pub(super) state: Mutex<State>,
    pub(super) to_client: mpsc::UnboundedSender<String>,
}

impl Relay {
    /// The shared state, locked.
    pub fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Write `line` to the client.
    pub fn send(&self, line: String) {
        let _ = self.to_client.send(line);
    }

    /// Answer the request `id` with an internal error saying `message`.
    pub fn fail(&self, id: &RequestId, message: String) {
        self.send(error_line(
            Some(id),
            ErrorData::internal_error(message, None),
        ));
    }
}

/// Log a line of the proxy's own on stderr (never stdout: that is the protocol).
pub fn log(message: &str) {
    eprintln!("tool-offload mcp proxy: {message}");
}

/// The start of `line`, for a log message.
pub fn quoted(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(QUOTED_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}
