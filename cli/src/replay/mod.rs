//! `tool-offload replay`: what a context policy would have sent over whole conversations
//! the user already has, turn by turn (core's `replay` module measures; this drives the
//! policies and prints).

pub mod args;
mod report;
mod run;
mod svg;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use tool_offload::core::transcript::Format;

use self::args::ReplayArgs;
use self::report::{Prices, Replayed};
use self::run::Conversation;
use crate::error::CliError;
use crate::input::Input;
use crate::inputs::{described, expand_tree, note};
use crate::progress::Progress;
use crate::read;
use crate::runtime::runtime;
use crate::skipped::Skips;

/// Run `replay` with `args`: the report on stdout, notes on stderr.
pub fn replay(args: &ReplayArgs) -> Result<(), CliError> {
    let inputs = expand_tree(&args.inputs, args.recursive)?;
    let policies = args.policies();
    let temp = match &args.user_data {
        Some(_) => None,
        None => Some(
            tempfile::Builder::new()
                .prefix("tool-offload-replay-")
                .tempdir()
                .map_err(|e| {
                    CliError::failure(format!("cannot create a temporary directory: {e}"))
                })?,
        ),
    };
    let dir: PathBuf = match (&args.user_data, &temp) {
        (Some(dir), _) => dir.clone(),
        (None, Some(t)) => t.path().to_path_buf(),
        (None, None) => unreachable!("a temporary directory when no --user-data"),
    };
    let runtime = runtime()?;
    let show = std::io::stderr().is_terminal() && inputs.len() > 1;
    let progress = Progress::conversations(show, inputs.len() as u64, "replay");
    let mut replayed = Vec::new();
    let mut skips = Skips::new(&args.inputs, &inputs);
    for (i, path) in inputs.iter().enumerate() {
        let input = Input::new(path);
        let read = read::read(&input, args.from, args.include_sidechains, args.lossy);
        progress.inc(1);
        let Some(read) = skips.read(input.name(), read)? else {
            continue;
        };
        if read.messages.is_empty() {
            note(&format!("{}: no message, skipped", input.name()));
            continue;
        }
        if args.from == crate::read::From::Auto && read.format != Format::Messages && !args.json {
            note(&format!(
                "{}: read as {}",
                input.name(),
                described(read.format)
            ));
        }
        let name = conversation_name(path, i);
        let conversation = Conversation {
            name: &name,
            messages: &read.messages,
            lone: &read.lone,
        };
        let runs = run::replay(
            &conversation,
            &policies,
            args,
            &dir.join(i.to_string()),
            &runtime,
        )?;
        let turns = runs[0].figures.turns;
        if turns == 0 {
            note(&format!(
                "{}: no assistant turn after the first message, skipped",
                input.name()
            ));
            continue;
        }
        replayed.push(Replayed {
            input: input.name().to_owned(),
            turns,
            runs,
        });
    }
    drop(progress);
    if replayed.is_empty() {
        skips.finish()?;
        return Err(CliError::bad_input(
            "no conversation with an assistant turn to replay",
        ));
    }
    let prices = Prices {
        read: args.cache_read,
        write: args.cache_write,
    };
    let text = if args.json {
        tool_offload::json::stringify(&report::to_json(&replayed, &policies, prices)) + "\n"
    } else {
        report::to_text(&replayed, &policies, prices)
    };
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| CliError::failure(format!("cannot write the report: {e}")))?;
    if let Some(svg) = &args.svg {
        svg::draw(svg, &replayed)?;
    }
    if let (Some(temp), true) = (temp, args.keep) {
        note(&format!("artifacts kept in {}", temp.keep().display()));
    }
    skips.finish()
}

/// The conversation id the refs of input `i` name: its file name without extension when
/// that is a safe id, else `conversation-<i>`.
fn conversation_name(path: &std::path::Path, i: usize) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let safe = !stem.is_empty()
        && stem.len() <= 128
        && stem
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        && !stem.starts_with('.');
    if safe {
        stem
    } else {
        format!("conversation-{i}")
    }
}
