//! `tool-offload mcp proxy`: a JSON-RPC relay on newline-delimited stdio between the
//! client (our stdin/stdout) and the upstream server (a child process). Lines pass
//! through unchanged unless [`intercept`](super::intercept) says otherwise; see
//! docs/mcp.md for why the relay is untyped. The client's side is `client.rs`, the
//! upstream's `upstream.rs`, what they share `relay.rs`; here is the child's lifecycle.
//!
//! Every request the client sends gets exactly one answer: from the upstream, from the
//! proxy (the read-back side), or an error from the proxy saying why the upstream's
//! cannot be relayed (a line it cannot read, the upstream gone or unwritable).

use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};

use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{mpsc, watch};

use super::client::client_loop;
use super::context::ContextTools;
use super::relay::{log, Relay, State, UpstreamLine, EXIT_GRACE};
use super::upstream::upstream_loop;
use crate::error::CliError;

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
    let (Some(upstream_in), Some(upstream_out)) = (child.stdin.take(), child.stdout.take()) else {
        relay.state().gone = Some("the upstream MCP server has no pipes".to_owned());
        return;
    };
    let (to_upstream, upstream_lines) = mpsc::unbounded_channel::<UpstreamLine>();
    let upstream_writer = tokio::spawn(write_upstream(relay.clone(), upstream_in, upstream_lines));
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

/// Write the lines for the upstream to its stdin. Once a write fails (the upstream
/// closed its stdin), the request that line was, and every later one, is answered with
/// an error: the upstream never sees them. (Those written before are answered by the
/// upstream, or failed when it exits.)
async fn write_upstream(
    relay: Arc<Relay>,
    mut stdin: ChildStdin,
    mut lines: mpsc::UnboundedReceiver<UpstreamLine>,
) {
    let mut broken: Option<String> = None;
    while let Some((line, id)) = lines.recv().await {
        if broken.is_none() {
            let mut bytes = line.into_bytes();
            bytes.push(b'\n');
            let written = async {
                stdin.write_all(&bytes).await?;
                stdin.flush().await
            };
            match written.await {
                Ok(()) => continue,
                Err(err) => {
                    log(&format!("writing to the upstream failed: {err}"));
                    broken = Some(format!(
                        "tool-offload proxy: cannot write to the upstream MCP server ({err}), so it never got this request"
                    ));
                }
            }
        }
        let (Some(id), Some(reason)) = (id, &broken) else {
            continue;
        };
        if relay.state().pending.remove(&id).is_some() {
            relay.fail(&id, reason.clone());
        }
    }
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
