//! `tool-offload mcp`: the MCP proxy that materializes any server's oversized tool
//! results, and the server that reads artifacts back (docs/mcp.md).

pub mod args;
mod client;
mod context;
mod envelope;
mod ids;
mod intercept;
mod line;
mod proxy;
mod relay;
mod result;
mod rpc;
mod serve;
mod upstream;

use std::sync::Arc;

use tool_offload::{Materializer, MaterializerOptions};

use self::args::{McpArgs, McpCommand, StoreArgs};
use self::context::ContextTools;
use crate::error::CliError;
use crate::location::{Location, LocationIo};

/// Worker threads: a long `context_grep` answered by the proxy must not stall the relay.
const WORKERS: usize = 2;
/// Each worker's stack: the proxy handles every message on a worker, and a message may
/// nest [`line::MAX_DEPTH`] levels deep (parsing, patching, storing and dropping it
/// recurse). Only the pages used are ever mapped.
const THREAD_STACK: usize = 16 << 20;

/// Run `tool-offload mcp …` on a tokio runtime of its own.
pub fn mcp(args: &McpArgs) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKERS)
        .thread_stack_size(THREAD_STACK)
        .enable_all()
        .build()
        .map_err(|err| CliError::failure(format!("mcp: cannot start the runtime: {err}")))?;
    runtime.block_on(async {
        match &args.command {
            McpCommand::Proxy(proxy) => {
                let location = Location::parse("--user-data", &proxy.store.user_data)?;
                let mut options = MaterializerOptions::at(&*location.dir, &proxy.conversation);
                options.max_inline_chars =
                    proxy.max_inline_chars.unwrap_or(options.max_inline_chars);
                options.max_inline_bytes =
                    proxy.max_inline_bytes.unwrap_or(options.max_inline_bytes);
                options.redact = proxy.redact_patterns.redaction(proxy.redact)?;
                let context = context_tools(&proxy.store, options, location.io)?;
                // On a worker, not this thread, whose stack size is not ours to set.
                let server = proxy.server.clone();
                tokio::spawn(async move { proxy::run(&server, context).await })
                    .await
                    .map_err(|err| CliError::failure(format!("mcp proxy: {err}")))?
            }
            McpCommand::Serve(serve) => {
                let location = Location::parse("--user-data", &serve.store.user_data)?;
                let options = MaterializerOptions::at(&*location.dir, &serve.conversation);
                serve::serve(context_tools(&serve.store, options, location.io)?).await
            }
        }
    })
}

/// The read-back side over a materializer with `options`, through `io`.
fn context_tools(
    store: &StoreArgs,
    options: MaterializerOptions,
    io: LocationIo,
) -> Result<Arc<ContextTools>, CliError> {
    let materializer = Materializer::with_io(options, io)
        .map_err(|err| CliError::bad_input(format!("mcp: {err}")))?;
    Ok(Arc::new(ContextTools {
        materializer: Arc::new(materializer),
        max_resource_bytes: store.max_resource_bytes,
    }))
}
