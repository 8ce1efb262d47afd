//! The upstream's side of the proxy: each line from the child's stdout is relayed to the
//! client as the very line received, patched (the responses [`intercept`] changes), or,
//! when it answers a pending request and cannot be relayed, replaced by an error that
//! says why; when the upstream is gone, every pending request gets an error.

use std::process::ExitStatus;
use std::sync::Arc;

use tokio::io::BufReader;
use tokio::process::ChildStdout;
use tokio::sync::watch;

use super::intercept::{self, Pending};
use super::line::{self, Message, Unparsed};
use super::relay::{log, quoted, Relay, EXIT_GRACE};
use super::result::materialize_result;

/// Read the upstream's messages until its stdout closes, then fail what is pending.
pub async fn upstream_loop(
    relay: Arc<Relay>,
    stdout: ChildStdout,
    mut exited: watch::Receiver<Option<ExitStatus>>,
) {
    let mut stdout = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        match line::next_line(&mut stdout, &mut buf).await {
            Ok(Some(line)) if line.trim().is_empty() => {}
            Ok(Some(line)) => match line::parse(&line) {
                Ok(message) => from_upstream(&relay, line, message).await,
                Err(unparsed) => unparsed_from_upstream(&relay, line, unparsed),
            },
            Ok(None) => break,
            Err(err) => {
                log(&format!("reading from the upstream failed: {err}"));
                break;
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
    let pending: Vec<_> = {
        let mut state = relay.state();
        if state.gone.is_some() {
            return; // the proxy is shutting down: nobody is waiting
        }
        log(&reason);
        state.gone = Some(reason.clone());
        state.pending.drain().map(|(id, _)| id).collect()
    };
    for id in pending {
        relay.fail(&id, format!("{reason} before answering this request"));
    }
}

/// One message from the upstream: a response to a request we patch, or anything else
/// relayed as the very line received.
async fn from_upstream(relay: &Relay, line: String, mut message: Message) {
    let is_response = message.value.get("method").is_none();
    let pending = match message.id() {
        Some(id) if is_response => relay.state().pending.remove_entry(&id),
        _ => None,
    };
    let Some((id, pending)) = pending else {
        relay.send(line);
        return;
    };
    if message.value.get("result").is_none() && message.value.get("error").is_none() {
        log(&format!(
            "the upstream sent a response with neither result nor error: {}",
            quoted(&line)
        ));
        relay.fail(
            &id,
            "the upstream MCP server sent an invalid response (neither result nor error)".into(),
        );
        return;
    }
    let context = &relay.context;
    match pending {
        Pending::Other => {
            relay.send(line);
            return;
        }
        Pending::Initialize => {
            relay.state().upstream = intercept::patch_initialize(&mut message.value);
        }
        Pending::ToolsList { first_page } => {
            // A tool's own limit for its results, as MCP servers publish it for Claude
            // Code: it applies unless the user's --tool entry for it says otherwise.
            let tools = message.value["result"]["tools"].as_array();
            for tool in tools.into_iter().flatten() {
                let name = tool["name"].as_str();
                let chars = tool["_meta"]["anthropic/maxResultSizeChars"].as_u64();
                if let (Some(name), Some(chars)) = (name, chars) {
                    let chars = usize::try_from(chars).unwrap_or(usize::MAX);
                    context.materializer.core().declare_tool_limit(name, chars);
                }
            }
            intercept::drop_output_schemas(&mut message.value);
            let ours = context.tool_definitions();
            for name in
                intercept::patch_list(&mut message.value, "tools", "name", &ours, first_page)
            {
                log(&format!(
                    "the upstream's tool {name} is hidden by the proxy's own"
                ));
            }
        }
        Pending::TemplatesList { first_page } => {
            let ours = [context.resource_template()];
            intercept::patch_list(
                &mut message.value,
                "resourceTemplates",
                "uriTemplate",
                &ours,
                first_page,
            );
        }
        Pending::ToolsCall { tool } => {
            let Some(result) = message.value.get("result") else {
                relay.send(line); // an error response
                return;
            };
            // Stored as JavaScript would store it: a lone surrogate as U+FFFD.
            let result = message.written(result);
            let server = relay.state().upstream.name.clone();
            let materializer = &context.materializer;
            match materialize_result(materializer, &result, &tool, server.as_deref()).await {
                Ok(Some(done)) => message.value["result"] = done,
                Ok(None) => {
                    relay.send(line); // within the limits: as it came
                    return;
                }
                Err(err) => {
                    // The full result still reaches the client: nothing is lost.
                    log(&format!(
                        "could not store the result of {tool}, relayed in full: {err}"
                    ));
                    relay.send(line);
                    return;
                }
            }
        }
    }
    relay.send(message.to_line());
}

/// A line from the upstream the proxy cannot parse. When it answers a pending request
/// that needs no patching and `JSON.parse` takes it, it is relayed as it is; any other
/// answer to a pending request becomes an error naming the cause. Valid JSON that
/// answers nothing pending is relayed as it is; the rest is logged and skipped (a log
/// line printed to stdout by mistake, say).
fn unparsed_from_upstream(relay: &Relay, line: String, unparsed: Unparsed) {
    let pending = match &unparsed.id {
        Some(id) if !unparsed.has_method => relay.state().pending.remove_entry(id),
        _ => None,
    };
    match pending {
        Some((_, Pending::Other)) | None if unparsed.is_json => relay.send(line),
        None => log(&format!(
            "the upstream printed a line that is not JSON-RPC ({}), skipped: {}",
            unparsed.detail,
            quoted(&line)
        )),
        Some((id, _)) => {
            log(&format!(
                "the upstream's answer to request {} cannot be relayed ({}): {}",
                id.json(),
                unparsed.cause,
                quoted(&line)
            ));
            relay.fail(
                &id,
                format!(
                    "tool-offload proxy: cannot relay the upstream MCP server's response: {}",
                    unparsed.cause
                ),
            );
        }
    }
}
