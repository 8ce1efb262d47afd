//! `tool-offload`: move oversized agent tool results out of a conversation into files,
//! from the command line.
//!
//! ```text
//! tool-offload offload transcript.json --out artifacts -o offloaded.json
//! tool-offload offload - --out artifacts --jsonl < transcript.jsonl > offloaded.jsonl
//! ```
//!
//! Output JSON is byte for byte what `JSON.stringify` prints, as in every host. Exit
//! codes: 0 success, 1 I/O failure, 2 bad input or usage, 3 some inputs skipped (see
//! `--help`). Errors are one
//! line on stderr: `tool-offload: <input>: message <i>: <what is wrong>`.

mod args;
mod array;
mod audit;
mod command;
mod context;
mod engine;
mod error;
mod gc;
mod input;
mod inputs;
mod jsonl;
mod limits;
mod listing;
mod location;
mod mcp;
mod message_array;
mod output;
mod progress;
mod read;
mod redact;
mod replay;
mod runtime;
mod skipped;
mod summary;
mod values;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Offload(args) => command::offload(args),
        Command::Materialize(args) => context::materialize(args),
        Command::Read(args) => context::read(args),
        Command::Tail(args) => context::tail(args),
        Command::Grep(args) => context::grep(args),
        Command::Ls(args) => listing::ls(args),
        Command::Stats(args) => listing::stats(args),
        Command::Export(args) => context::export(args),
        Command::Import(args) => context::import(args),
        Command::Gc(args) => gc::gc(args),
        Command::Redact(args) => redact::redact(args),
        Command::Mcp(args) => mcp::mcp(args),
        Command::Replay(args) => replay::replay(args),
        Command::Audit(args) => audit::audit(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("tool-offload: {err}");
            err.exit_code()
        }
    }
}
