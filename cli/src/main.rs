//! `tool-offload`: move oversized agent tool results out of a conversation into files,
//! from the command line.
//!
//! ```text
//! tool-offload offload transcript.json --out artifacts -o offloaded.json
//! tool-offload offload - --out artifacts --jsonl < transcript.jsonl > offloaded.jsonl
//! ```
//!
//! Output JSON is byte for byte what `JSON.stringify` prints, as in every host. Exit
//! codes: 0 success, 1 I/O failure, 2 bad input or usage (see `--help`). Errors are one
//! line on stderr: `tool-offload: <input>: message <i>: <what is wrong>`.

mod args;
mod array;
mod command;
mod engine;
mod error;
mod input;
mod jsonl;
mod output;
mod progress;
mod read;
mod summary;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Offload(args) => command::offload(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("tool-offload: {err}");
            err.exit_code()
        }
    }
}
