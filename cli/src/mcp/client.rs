//! The client's side of the proxy: each line from our stdin is answered here (the
//! read-back side, or an error), or relayed upstream as the very line received.

use std::sync::Arc;

use rmcp::model::{ErrorCode, ErrorData};
use serde_json::json;
use tokio::io::BufReader;
use tokio::sync::mpsc;

use super::context::ContextTools;
use super::intercept::{self, Local, Route};
use super::line::{self, Message, Unparsed};
use super::relay::{log, Relay, UpstreamLine};
use super::rpc::{error_line, result_line, RequestId};

/// Read the client's messages until stdin closes.
pub async fn client_loop(relay: &Arc<Relay>, to_upstream: &mpsc::UnboundedSender<UpstreamLine>) {
    let mut stdin = BufReader::new(tokio::io::stdin());
    let mut buf = Vec::new();
    loop {
        let line = match line::next_line(&mut stdin, &mut buf).await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(err) => {
                log(&format!("reading from the client failed: {err}"));
                break;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match line::parse(&line) {
            Ok(message) => from_client(relay, to_upstream, line, &message),
            Err(unparsed) => unparsed_from_client(relay, to_upstream, line, unparsed),
        }
    }
}

/// One message from the client: answered here, or relayed (as the very line received).
fn from_client(
    relay: &Arc<Relay>,
    to_upstream: &mpsc::UnboundedSender<UpstreamLine>,
    line: String,
    message: &Message,
) {
    let (Some(method), Some(id)) = (message.method(), message.id()) else {
        if message.method() == Some("notifications/cancelled") {
            if let Some(id) = message.value.pointer("/params/requestId") {
                let id = RequestId::of(id, &message.lone);
                relay.state().pending.remove(&id);
            }
        }
        // Notifications, responses to the upstream's own requests, anything else.
        let _ = to_upstream.send((line, None));
        return;
    };
    // What the proxy reads of a request holds U+FFFD for a lone surrogate, as
    // JavaScript hands it on; the upstream gets the line as it came.
    let params = message.value.get("params").map(|p| message.written(p));
    let mut state = relay.state();
    match intercept::route(method, params.as_deref(), state.upstream.resources) {
        Route::Local(local) => {
            drop(state);
            let relay = relay.clone();
            tokio::spawn(async move {
                let response = answer_locally(&relay.context, &id, local).await;
                relay.send(response);
            });
        }
        Route::Upstream(pending) => {
            if let Some(reason) = &state.gone {
                let reason = reason.clone();
                drop(state);
                relay.fail(&id, reason);
                return;
            }
            state.pending.insert(id.clone(), pending);
            drop(state);
            let _ = to_upstream.send((line, Some(id)));
        }
    }
}

/// A line from the client the proxy cannot parse. A request is answered with an error
/// naming the cause (a parse error when `JSON.parse` would refuse it too); valid JSON
/// that is no request goes upstream as it is; anything else gets a parse error with
/// `id: null`, as JSON-RPC has it.
fn unparsed_from_client(
    relay: &Relay,
    to_upstream: &mpsc::UnboundedSender<UpstreamLine>,
    line: String,
    unparsed: Unparsed,
) {
    let code = if unparsed.is_json {
        ErrorCode::INTERNAL_ERROR
    } else {
        ErrorCode::PARSE_ERROR
    };
    let request = unparsed.id.filter(|_| unparsed.has_method);
    if request.is_none() && unparsed.is_json {
        let _ = to_upstream.send((line, None));
        return;
    }
    let what = if request.is_some() {
        "a request"
    } else {
        "a line"
    };
    log(&format!(
        "the client sent {what} the proxy cannot relay: {}",
        unparsed.cause
    ));
    let message = format!(
        "tool-offload proxy: cannot relay {what} from the client: {}",
        unparsed.cause
    );
    relay.send(error_line(
        request.as_ref(),
        ErrorData::new(code, message, None),
    ));
}

/// The response to a request the proxy answers itself.
async fn answer_locally(context: &ContextTools, id: &RequestId, local: Local) -> String {
    let result = match local {
        Local::Tool { name, arguments } => Ok(context.call_tool(&name, &arguments).await),
        Local::ReadResource { uri } => context.read_resource(&uri).await,
        Local::TemplatesList => Ok(json!({ "resourceTemplates": [context.resource_template()] })),
        Local::ResourcesList { cursor } => context.list_resources(cursor.as_deref()).await,
    };
    match result {
        Ok(result) => result_line(id, &result),
        Err(error) => error_line(Some(id), error),
    }
}
