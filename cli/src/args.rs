//! The command line, as clap derives it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use tool_offload::DEFAULT_THRESHOLD;

pub use crate::limits::Limits;
pub use crate::read::From;
use crate::values::count;

/// The exit codes, as every subcommand's help ends.
macro_rules! exit_codes {
    () => {
        "\
Exit status:
  0  success
  1  an I/O failure: writing the output or an artifact file, reading stdin
  2  bad input or usage: unreadable or missing INPUT, malformed JSON, a malformed
     message, a tool-call id that cannot name a file
  3  some inputs of a directory (or of several) could not be read: each is named on
     stderr (`skipped <path>: <reason>`), the rest reported"
    };
}
const EXIT_CODES: &str = exit_codes!();

/// `offload --help`'s epilogue: an example, then the exit codes.
const OFFLOAD_HELP: &str = concat!(
    "Example:\n  tool-offload offload session.jsonl --out ./offloaded --threshold 2000\n\n",
    exit_codes!()
);

/// Move oversized agent tool results out of a conversation into files.
#[derive(Debug, Parser)]
#[command(name = "tool-offload", version, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Move large tool results of a conversation into files, leaving placeholders.
    ///
    /// Every tool result of at least --threshold characters goes to
    /// <DIR>/tool-result-<id>.md (repeated ids: -1, -2, …) and its content becomes
    /// `[Content offloaded to: ./tool-result-<id>.md]`. The conversation is printed as
    /// compact JSON, exactly as JavaScript's JSON.stringify would. Every message is
    /// checked before any file is written.
    #[command(after_help = OFFLOAD_HELP)]
    Offload(OffloadArgs),

    /// Materialize a conversation: tool results over the limits become summaries that
    /// name a ref, the full outputs artifacts under --user-data.
    #[command(
        after_help = "Example:\n  tool-offload materialize session.jsonl --user-data ~/.agent -o materialized.json"
    )]
    Materialize(MaterializeArgs),

    /// Print numbered lines of an artifact: the page the model's context_read returns.
    #[command(
        after_help = "Example:\n  tool-offload read ctx://conv-1/tool/call_1.txt --user-data ~/.agent --offset 200"
    )]
    Read(ReadArgs),

    /// Print the last lines of an artifact: the page context_tail returns.
    #[command(
        after_help = "Example:\n  tool-offload tail ctx://conv-1/tool/call_1.txt --user-data ~/.agent -n 50"
    )]
    Tail(TailArgs),

    /// Print the lines of an artifact matching a pattern, with context: the page
    /// context_grep returns.
    #[command(
        after_help = "Example:\n  tool-offload grep ctx://conv-1/tool/call_1.txt 'error|panic' -i -C 3 --user-data ~/.agent"
    )]
    Grep(GrepArgs),

    /// List the artifacts in a directory: ref (or file), kind, bytes, modified time.
    #[command(after_help = "Example:\n  tool-offload ls ~/.agent --json")]
    Ls(ListArgs),

    /// Count the artifacts in a directory: files, bytes and characters, by conversation.
    #[command(after_help = "Example:\n  tool-offload stats ~/.agent")]
    Stats(ListArgs),

    /// Bundle a conversation with every artifact it refers to (SHA-256 each).
    #[command(
        after_help = "Example:\n  tool-offload export materialized.json --conversation conv-1 --user-data ~/.agent -o bundle.json"
    )]
    Export(ExportArgs),

    /// Remove artifacts nobody needs: older than a TTL and/or over a size quota (least
    /// recently written first), never one the --keep conversations refer to, never a
    /// file that is not ours. Stale temporary files go too.
    #[command(
        after_help = "Example:\n  tool-offload gc ~/.agent --older-than 7d --max-size 1G --keep transcript.json --dry-run\n\nDURATION: a number with s, m, h, d or w. SIZE: bytes, or a number with K, M, G or T (powers of 1024)."
    )]
    Gc(GcArgs),

    /// Replace well-known secrets (cloud and forge tokens, API keys, JWTs, private keys,
    /// passwords) by [REDACTED:<kind>] in the artifacts already stored under DIR, in
    /// place and atomically (the files gc counts as ours).
    #[command(
        after_help = "Example:\n  tool-offload redact ~/.agent --dry-run\n\nExit status: 0 success, 1 an I/O failure, 2 bad input."
    )]
    Redact(crate::redact::RedactArgs),

    /// MCP: run a server behind a proxy that stores its oversized tool results as
    /// artifacts, or serve the read-back tools over stored artifacts.
    Mcp(crate::mcp::args::McpArgs),

    /// Replay conversations turn by turn under context policies: characters and tokens
    /// sent, prompt-cache cost, prefix stability, what the previews kept, needles found.
    #[command(
        after_help = "Example:\n  tool-offload replay ~/.claude/projects/my-project --policy offload --policy materialize --svg replay.svg\n\nNothing is written under the inputs: artifacts go to a temporary directory, removed at the end\n(--keep keeps it, --user-data DIR chooses it). Exit status: 0 success, 1 an I/O failure, 2 bad input,\n3 some inputs skipped (named on stderr), the rest reported."
    )]
    Replay(crate::replay::args::ReplayArgs),

    /// Report the tool outputs the model was shown only in part (persisted, truncated,
    /// offloaded) and whether a later tool call read them.
    #[command(
        after_help = "Example:\n  tool-offload audit ~/.claude/projects/my-project ~/.codex/sessions -r --json\n\nExit status: 0 whatever it finds (it is a report), 1 an I/O failure, 2 bad input, 3 some\ninputs skipped (named on stderr), the rest reported."
    )]
    Audit(crate::audit::AuditArgs),

    /// Restore a bundle under --user-data; prints its messages.
    #[command(
        after_help = "Example:\n  tool-offload import bundle.json --user-data /srv/agent -o messages.json"
    )]
    Import(ImportArgs),
}

/// Arguments of `tool-offload offload`.
#[derive(Debug, Args)]
pub struct OffloadArgs {
    /// Conversations: JSON arrays of messages (Anthropic, OpenAI Chat or OpenAI
    /// Responses items, in any mix), Claude Code session logs or Codex rollouts; a
    /// directory means every *.json and *.jsonl in it; `-` is stdin.
    #[arg(value_name = "INPUT", required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,

    /// What the inputs hold; `auto` tells from the content and says what it saw.
    #[arg(long, value_enum, default_value_t = From::Auto)]
    pub from: From,

    /// Keep a Claude Code log's side-chain (sub-agent) events in the conversation.
    #[arg(long)]
    pub include_sidechains: bool,
    /// Read bytes that are not UTF-8 as U+FFFD (and say how many), instead of refusing
    /// the input.
    #[arg(long)]
    pub lossy: bool,

    /// Directory for the offloaded files (created if missing), or an object store:
    /// `s3://bucket/prefix` (credentials and endpoint from the `AWS_*` environment).
    #[arg(long, value_name = "DIR|URL")]
    pub out: PathBuf,

    /// Offload tool results of at least this many characters (UTF-16 code units).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_THRESHOLD, value_parser = count, allow_negative_numbers = true)]
    pub threshold: usize,
    /// Replace well-known secrets (cloud and forge tokens, API keys, JWTs, private keys,
    /// passwords) by [REDACTED:<kind>] in the files written.
    #[arg(long)]
    pub redact: bool,
    #[command(flatten)]
    pub redact_patterns: crate::redact::RedactPatterns,

    /// Write the offloaded conversation to OUTPUT instead of stdout (`-`); the file
    /// appears only once complete. With several inputs OUTPUT is a directory (created
    /// if missing) that gets one `<input name>.json` each.
    #[arg(short = 'o', long = "output", value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// Print the summary on stderr as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,

    /// Read and write JSON Lines (one message per line), streaming: memory stays flat
    /// however long the conversation is. Blank lines are skipped.
    #[arg(long)]
    pub jsonl: bool,
}

/// Where a conversation's artifacts live (`--user-data`, `--conversation`).
#[derive(Debug, Args)]
pub struct Store {
    /// The user-data directory: artifacts go to <DIR>/context/<conversation>/artifacts;
    /// or an object store, `s3://bucket/prefix` (credentials and endpoint from `AWS_*`).
    #[arg(long, value_name = "DIR|URL", default_value = ".")]
    pub user_data: PathBuf,
}

impl Store {
    /// Whether `--user-data` is an object store URL rather than a directory.
    pub fn remote(&self) -> bool {
        self.user_data.to_string_lossy().contains("://")
    }
}

/// Where `offload` (or a library's direct or batch offload) wrote its files.
#[derive(Debug, Args)]
pub struct OffloadedFiles {
    /// The output directory of `tool-offload offload` (or of the library's offload):
    /// REF may then be a file its placeholders name (./tool-result-<id>.md, or the
    /// placeholder whole), and nothing else in that directory is read.
    #[arg(long, value_name = "DIR")]
    pub offload_dir: Option<PathBuf>,
}

/// Arguments of `tool-offload materialize`.
#[derive(Debug, Args)]
pub struct MaterializeArgs {
    /// Conversations, as for `offload` (a directory means its *.json and *.jsonl).
    #[arg(value_name = "INPUT", required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub store: Store,
    /// The conversation id the refs name; default: the input's file name without its
    /// extension (a Claude Code log's is its session id).
    #[arg(long, value_name = "ID")]
    pub conversation: Option<String>,
    #[command(flatten)]
    pub limits: Limits,
    /// Replace well-known secrets (cloud and forge tokens, API keys, JWTs, private keys,
    /// passwords) by [REDACTED:<kind>] before an output is written or summarised.
    #[arg(long)]
    pub redact: bool,
    #[command(flatten)]
    pub redact_patterns: crate::redact::RedactPatterns,
    /// What the inputs hold; `auto` tells from the content and says what it saw.
    #[arg(long, value_enum, default_value_t = From::Auto)]
    pub from: From,
    /// Keep a Claude Code log's side-chain (sub-agent) events in the conversation.
    #[arg(long)]
    pub include_sidechains: bool,
    /// Read bytes that are not UTF-8 as U+FFFD (and say how many), instead of refusing
    /// the input.
    #[arg(long)]
    pub lossy: bool,
    /// Write the conversation to OUTPUT instead of stdout; with several inputs OUTPUT is
    /// a directory that gets one `<input name>.json` each.
    #[arg(short = 'o', long = "output", value_name = "OUTPUT")]
    pub output: Option<PathBuf>,
    /// Print the summary on stderr as one JSON object per input.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `tool-offload read`.
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// The artifact's ref: ctx://<conversation>/tool/<file>.
    #[arg(value_name = "REF")]
    pub reference: String,
    #[command(flatten)]
    pub store: Store,
    #[command(flatten)]
    pub offloaded: OffloadedFiles,
    /// First line to show, 0-based.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = count, allow_negative_numbers = true)]
    pub offset: usize,
    /// For a line split into parts (57.1, 57.2, …), the part to start at.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = count, allow_negative_numbers = true)]
    pub part: usize,
    /// Start at this character of the line instead (0-based, UTF-16 units): a grep
    /// window labelled 57.3@4010 is `--offset 56 --char 4010`.
    #[arg(long = "char", value_name = "N", value_parser = count, allow_negative_numbers = true)]
    pub at_char: Option<usize>,
    /// Lines to show at most.
    #[arg(long, value_name = "N", default_value_t = tool_offload::core::materialize::DEFAULT_LINES, value_parser = count, allow_negative_numbers = true)]
    pub limit: usize,
    /// Show only what this JSON path selects in a JSON artifact, pretty-printed
    /// ($.items[10].sku, $.items[0:5], $.data[*].id, or a JSON Pointer /items/10/sku).
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,
    /// Print `{"ref", "page"}` as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `tool-offload tail`.
#[derive(Debug, Args)]
pub struct TailArgs {
    /// The artifact's ref.
    #[arg(value_name = "REF")]
    pub reference: String,
    #[command(flatten)]
    pub store: Store,
    #[command(flatten)]
    pub offloaded: OffloadedFiles,
    /// Lines to show.
    #[arg(short = 'n', long = "lines", value_name = "N", default_value_t = tool_offload::core::materialize::DEFAULT_LINES, value_parser = count, allow_negative_numbers = true)]
    pub lines: usize,
    /// Print `{"ref", "page"}` as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `tool-offload grep`.
#[derive(Debug, Args)]
pub struct GrepArgs {
    /// The artifact's ref, then a regular expression (the syntax of the model's
    /// context_grep tool); or the expression alone with --conversation.
    #[arg(value_name = "REF PATTERN", num_args = 1..=2, required = true)]
    pub args: Vec<String>,
    /// Search every artifact of this conversation, newest first (what context_grep
    /// without a ref does), instead of one REF.
    #[arg(long, value_name = "ID")]
    pub conversation: Option<String>,
    #[command(flatten)]
    pub store: Store,
    #[command(flatten)]
    pub offloaded: OffloadedFiles,
    /// Lines of context around each match.
    #[arg(short = 'C', long = "context", value_name = "N", default_value_t = tool_offload::core::materialize::DEFAULT_CONTEXT, value_parser = count, allow_negative_numbers = true)]
    pub context: usize,
    /// Matches shown at most.
    #[arg(short = 'm', long = "max-matches", value_name = "N", default_value_t = tool_offload::core::materialize::DEFAULT_MAX_MATCHES, value_parser = count, allow_negative_numbers = true)]
    pub max_matches: usize,
    /// Match case-insensitively.
    #[arg(short = 'i', long)]
    pub ignore_case: bool,
    /// Print `{"ref", "page"}` as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `tool-offload ls` and `tool-offload stats`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// A user-data directory (its context/*/artifacts) or a batch output directory
    /// (its tool-result-*.md files).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `tool-offload export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The conversation (materialized messages) whose artifacts go in the bundle.
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,
    #[command(flatten)]
    pub store: Store,
    /// The conversation id its refs name.
    #[arg(long, value_name = "ID")]
    pub conversation: String,
    /// Write the bundle to OUTPUT instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "OUTPUT")]
    pub output: Option<PathBuf>,
}

/// Arguments of `tool-offload import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A bundle written by `export`.
    #[arg(value_name = "BUNDLE")]
    pub bundle: PathBuf,
    #[command(flatten)]
    pub store: Store,
    /// Write the restored messages to OUTPUT instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "OUTPUT")]
    pub output: Option<PathBuf>,
}

/// Arguments of `tool-offload gc`.
#[derive(Debug, Args)]
pub struct GcArgs {
    /// A user-data directory or a batch output directory; or an object store,
    /// `s3://bucket/prefix` (credentials and endpoint from `AWS_*`).
    #[arg(value_name = "DIR|URL")]
    pub dir: PathBuf,
    /// Remove artifacts last written longer ago than this (e.g. 7d, 12h).
    #[arg(long, value_name = "DURATION", value_parser = crate::values::duration_ms)]
    pub older_than: Option<u64>,
    /// Then remove the least recently written until ours take at most this (e.g. 1G).
    #[arg(long, value_name = "SIZE", value_parser = crate::values::size_bytes)]
    pub max_size: Option<u64>,
    /// Conversations still in use: nothing they refer to is removed (messages, Claude
    /// Code logs or Codex rollouts; repeat for several).
    #[arg(long, value_name = "FILE")]
    pub keep: Vec<PathBuf>,
    /// Say what would be removed; remove nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}
