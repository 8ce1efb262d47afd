//! `tool-offload mcp proxy`: a JSON-RPC relay on newline-delimited stdio between the
//! client (our stdin/stdout) and the upstream server (a child process). Lines pass
//! through unchanged unless [`intercept`](super::intercept) says otherwise; see
//! docs/mcp.md for why the relay is untyped.

use std::collections::HashMap;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{ErrorCode, ErrorData};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdout, Command};
use tokio::sync::{mpsc, watch};

use super::context::ContextTools;
use super::intercept::{self, Local, Pending, Route, UpstreamInfo};
use super::result::materialize_result;
use crate::error::CliError;

/// How long the upstream gets to exit after the client closed our stdin, before it is
/// killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// Characters of a garbage line quoted in the log.
const QUOTED_CHARS: usize = 200;

/// What the relay knows, shared by its two directions.
#[derive(Default)]
struct State {
    /// Requests relayed upstream and not yet answered, by [`intercept::id_key`].
    pending: HashMap<String, (Value, Pending)>,
    /// From the upstream's `initialize` response.
    upstream: UpstreamInfo,
    /// Set once the upstream is gone: why, for every later request.
    gone: Option<String>,
}

/// The relay's shared parts.
struct Relay {
    context: Arc<ContextTools>,
    state: Mutex<State>,
    to_client: mpsc::UnboundedSender<String>,
}

impl Relay {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn send(&self, message: &Value) {
        let _ = self.to_client.send(message.to_string());
    }
}

/// Log a line of the proxy's own on stderr (never stdout: that is the protocol).
pub fn log(message: &str) {
    eprintln!("tool-offload mcp proxy: {message}");
}

/// Run the proxy: start `server`, relay until the client closes stdin. An upstream that
/// cannot be started makes every relayed request an error saying why (the read-back
/// tools still work), rather than a proxy that dies before the client learns anything.
pub async fn run(server: &[String], context: Arc<ContextTools>) -> Result<(), CliError> {
    let (program, args) = server
        .split_first()
        .ok_or_else(|| CliError::bad_input("mcp proxy: give the server command after --"))?;
    let (to_client, mut client_lines) = mpsc::unbounded_channel::<String>();
    let client_writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(line) = client_lines.recv().await {
            let written = async {
                stdout.write_all(line.as_bytes()).await?;
                stdout.write_all(b"\n").await?;
                stdout.flush().await
            };
            if written.await.is_err() {
                break;
            }
        }
    });
    let relay = Arc::new(Relay {
        context,
        state: Mutex::new(State::default()),
        to_client,
    });
    match spawn_upstream(program, args) {
        Ok(child) => relay_through(&relay, child).await,
        Err(err) => {
            let reason = format!("cannot start the upstream MCP server {program}: {err}");
            log(&reason);
            relay.state().gone = Some(reason);
            let (to_upstream, _) = mpsc::unbounded_channel();
            client_loop(&relay, &to_upstream).await;
        }
    }
    drop(relay);
    let _ = client_writer.await;
    Ok(())
}

/// The upstream as a child process with piped stdin and stdout; its stderr is ours.
fn spawn_upstream(program: &str, args: &[String]) -> std::io::Result<Child> {
    Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
}

/// Relay between the client and a running upstream until the client closes stdin.
async fn relay_through(relay: &Arc<Relay>, mut child: Child) {
    let (Some(mut upstream_in), Some(upstream_out)) = (child.stdin.take(), child.stdout.take())
    else {
        relay.state().gone = Some("the upstream MCP server has no pipes".to_owned());
        return;
    };
    let (to_upstream, mut upstream_lines) = mpsc::unbounded_channel::<String>();
    let upstream_writer = tokio::spawn(async move {
        while let Some(line) = upstream_lines.recv().await {
            let mut bytes = line.into_bytes();
            bytes.push(b'\n');
            if let Err(err) = upstream_in.write_all(&bytes).await {
                log(&format!("writing to the upstream failed: {err}"));
                break;
            }
            let _ = upstream_in.flush().await;
        }
    });
    let (exited_tx, exited) = watch::channel(None::<ExitStatus>);
    let (kill_tx, kill) = tokio::sync::oneshot::channel::<()>();
    let waiter = tokio::spawn(wait_child(child, kill, exited_tx));
    let from_upstream = tokio::spawn(upstream_loop(relay.clone(), upstream_out, exited));

    client_loop(relay, &to_upstream).await;

    // The client is gone: close the upstream's stdin, give it a moment, then kill it.
    relay.state().gone = Some("the client closed the connection".to_owned());
    drop(to_upstream);
    let _ = tokio::time::timeout(EXIT_GRACE, upstream_writer).await;
    let _ = kill_tx.send(());
    let _ = waiter.await;
    let _ = tokio::time::timeout(EXIT_GRACE, from_upstream).await;
}

/// Wait for the upstream to exit (or kill it when told to, after [`EXIT_GRACE`]), and
/// publish its status.
async fn wait_child(
    mut child: Child,
    kill: tokio::sync::oneshot::Receiver<()>,
    exited: watch::Sender<Option<ExitStatus>>,
) {
    let status = tokio::select! {
        status = child.wait() => status,
        _ = kill => match tokio::time::timeout(EXIT_GRACE, child.wait()).await {
            Ok(status) => status,
            Err(_) => {
                let _ = child.start_kill();
                child.wait().await
            }
        },
    };
    if let Ok(status) = status {
        let _ = exited.send(Some(status));
    }
}

/// Read the client's messages until stdin closes.
async fn client_loop(relay: &Arc<Relay>, to_upstream: &mpsc::UnboundedSender<String>) {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    loop {
        let line = match lines.next_line().await {
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
        match serde_json::from_str::<Value>(&line) {
            Ok(message) => from_client(relay, to_upstream, line, message),
            Err(err) => {
                log(&format!("the client sent a line that is not JSON: {err}"));
                let error =
                    ErrorData::new(ErrorCode::PARSE_ERROR, format!("Parse error: {err}"), None);
                relay.send(&intercept::error_response(&Value::Null, error));
            }
        }
    }
}

/// One message from the client: answered here, or relayed (as the very line received).
fn from_client(
    relay: &Arc<Relay>,
    to_upstream: &mpsc::UnboundedSender<String>,
    line: String,
    message: Value,
) {
    let method = message.get("method").and_then(Value::as_str);
    let id = message.get("id").filter(|id| !id.is_null());
    let (Some(method), Some(id)) = (method, id) else {
        if method == Some("notifications/cancelled") {
            if let Some(id) = message.pointer("/params/requestId") {
                relay.state().pending.remove(&intercept::id_key(id));
            }
        }
        // Notifications, responses to the upstream's own requests, anything else.
        let _ = to_upstream.send(line);
        return;
    };
    let mut state = relay.state();
    match intercept::route(method, message.get("params"), state.upstream.resources) {
        Route::Local(local) => {
            drop(state);
            let (relay, id) = (relay.clone(), id.clone());
            tokio::spawn(async move {
                let response = answer_locally(&relay.context, &id, local).await;
                relay.send(&response);
            });
        }
        Route::Upstream(pending) => {
            if let Some(reason) = &state.gone {
                let error = ErrorData::internal_error(reason.clone(), None);
                drop(state);
                relay.send(&intercept::error_response(id, error));
                return;
            }
            state
                .pending
                .insert(intercept::id_key(id), (id.clone(), pending));
            drop(state);
            let _ = to_upstream.send(line);
        }
    }
}

/// The response to a request the proxy answers itself.
async fn answer_locally(context: &ContextTools, id: &Value, local: Local) -> Value {
    let result = match local {
        Local::Tool { name, arguments } => Ok(context.call_tool(&name, &arguments).await),
        Local::ReadResource { uri } => context.read_resource(&uri).await,
        Local::TemplatesList => Ok(json!({ "resourceTemplates": [context.resource_template()] })),
        Local::ResourcesList => Ok(json!({ "resources": [] })),
    };
    match result {
        Ok(result) => intercept::result_response(id, result),
        Err(error) => intercept::error_response(id, error),
    }
}

/// Read the upstream's messages until its stdout closes, then fail what is pending.
async fn upstream_loop(
    relay: Arc<Relay>,
    stdout: ChildStdout,
    mut exited: watch::Receiver<Option<ExitStatus>>,
) {
    let mut lines = BufReader::new(stdout).lines();
    loop {
        match lines.next_line().await {
            Ok(Some(line)) if line.trim().is_empty() => {}
            Ok(Some(line)) => match serde_json::from_str::<Value>(&line) {
                Ok(message) => from_upstream(&relay, line, message).await,
                Err(err) => log(&format!(
                    "the upstream printed a line that is not JSON-RPC ({err}), skipped: {}",
                    quoted(&line)
                )),
            },
            Ok(None) => break,
            Err(err) => {
                // Not UTF-8, most likely: the line is lost, the stream goes on.
                log(&format!(
                    "the upstream printed an unreadable line, skipped: {err}"
                ));
            }
        }
    }
    let status = tokio::time::timeout(EXIT_GRACE, exited.wait_for(Option::is_some))
        .await
        .ok()
        .and_then(Result::ok)
        .and_then(|status| *status);
    let reason = match status {
        Some(status) => format!("the upstream MCP server exited ({status})"),
        None => "the upstream MCP server closed its stdout".to_owned(),
    };
    let pending: Vec<(Value, Pending)> = {
        let mut state = relay.state();
        if state.gone.is_some() {
            return; // the proxy is shutting down: nobody is waiting
        }
        log(&reason);
        state.gone = Some(reason.clone());
        state.pending.drain().map(|(_, entry)| entry).collect()
    };
    for (id, _) in pending {
        let error =
            ErrorData::internal_error(format!("{reason} before answering this request"), None);
        relay.send(&intercept::error_response(&id, error));
    }
}

/// One message from the upstream: a response to a request we patch, or anything else
/// relayed as the very line received.
async fn from_upstream(relay: &Relay, line: String, mut message: Value) {
    let is_response = message.get("method").is_none();
    let pending = match message.get("id") {
        Some(id) if is_response => relay.state().pending.remove(&intercept::id_key(id)),
        _ => None,
    };
    let Some((id, pending)) = pending else {
        let _ = relay.to_client.send(line);
        return;
    };
    if message.get("result").is_none() && message.get("error").is_none() {
        log(&format!(
            "the upstream sent a response with neither result nor error: {}",
            quoted(&line)
        ));
        let error = ErrorData::internal_error(
            "the upstream MCP server sent an invalid response (neither result nor error)",
            None,
        );
        relay.send(&intercept::error_response(&id, error));
        return;
    }
    let context = &relay.context;
    match pending {
        Pending::Other => {
            let _ = relay.to_client.send(line);
            return;
        }
        Pending::Initialize => {
            relay.state().upstream = intercept::patch_initialize(&mut message);
        }
        Pending::ToolsList { first_page } => {
            intercept::drop_output_schemas(&mut message);
            let ours = context.tool_definitions();
            for name in intercept::patch_list(&mut message, "tools", "name", &ours, first_page) {
                log(&format!(
                    "the upstream's tool {name} is hidden by the proxy's own"
                ));
            }
        }
        Pending::TemplatesList { first_page } => {
            let ours = [context.resource_template()];
            intercept::patch_list(
                &mut message,
                "resourceTemplates",
                "uriTemplate",
                &ours,
                first_page,
            );
        }
        Pending::ToolsCall { tool } => {
            let server = relay.state().upstream.name.clone();
            if let Some(result) = message.get_mut("result") {
                let materializer = &context.materializer;
                if let Err(err) =
                    materialize_result(materializer, result, &tool, server.as_deref()).await
                {
                    // The full result still reaches the client: nothing is lost.
                    log(&format!(
                        "could not store the result of {tool}, relayed in full: {err}"
                    ));
                }
            }
        }
    }
    relay.send(&message);
}

/// The start of `line`, for a log message.
fn quoted(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(QUOTED_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}
