//! The arguments of `tool-offload mcp`, as clap derives them.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::context::DEFAULT_MAX_RESOURCE_BYTES;

/// `tool-offload mcp`: the MCP proxy and the read-back server.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// What to run.
    #[command(subcommand)]
    pub command: McpCommand,
}

/// The MCP subcommands.
#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Run an MCP server behind a proxy that stores its oversized tool results as
    /// artifacts (the client gets a summary and a resource link) and adds
    /// context_read, context_tail and context_grep to its tools.
    #[command(
        after_help = "Example:\n  tool-offload mcp proxy --user-data ~/.tool-offload -- npx -y @modelcontextprotocol/server-filesystem ~/src"
    )]
    Proxy(ProxyArgs),

    /// Serve only context_read, context_tail, context_grep and the ctx:// resources over
    /// a conversation's existing artifacts.
    #[command(
        after_help = "Example:\n  tool-offload mcp serve --user-data ~/.agent --conversation conv-1"
    )]
    Serve(ServeArgs),
}

/// Where artifacts live and how big a resource may be.
#[derive(Debug, Args)]
pub struct StoreArgs {
    /// Root directory: artifacts go under <DIR>/context/<conversation>/artifacts/; or an
    /// object store, `s3://bucket/prefix` (credentials and endpoint from `AWS_*`).
    #[arg(long, value_name = "DIR|URL")]
    pub user_data: PathBuf,

    /// resources/read returns an artifact whole up to this many bytes; a larger one
    /// comes back as its first numbered page.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_RESOURCE_BYTES)]
    pub max_resource_bytes: u64,
}

/// `tool-offload mcp proxy`.
#[derive(Debug, Args)]
pub struct ProxyArgs {
    /// Artifacts and resources.
    #[command(flatten)]
    pub store: StoreArgs,

    /// The conversation the artifacts belong to (refs are ctx://<ID>/…).
    #[arg(long, value_name = "ID", default_value = "mcp")]
    pub conversation: String,

    /// Results over this many UTF-16 code units are stored (default 4000).
    #[arg(long, value_name = "N")]
    pub max_inline_chars: Option<usize>,

    /// Results over this many UTF-8 bytes are stored (default 16384).
    #[arg(long, value_name = "N")]
    pub max_inline_bytes: Option<usize>,

    /// Replace well-known secrets (cloud and forge tokens, API keys, JWTs, private keys,
    /// passwords) by [REDACTED:<kind>] before a result is stored or summarised.
    #[arg(long)]
    pub redact: bool,
    #[command(flatten)]
    pub redact_patterns: crate::redact::RedactPatterns,

    /// The upstream server's command and arguments, after `--`.
    #[arg(last = true, required = true, value_name = "SERVER")]
    pub server: Vec<String>,
}

/// `tool-offload mcp serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Artifacts and resources.
    #[command(flatten)]
    pub store: StoreArgs,

    /// The conversation whose artifacts are served.
    #[arg(long, value_name = "ID")]
    pub conversation: String,
}
