//! `tool-offload offload`: resolve the arguments, read each input in the format it
//! holds, offload it and print its summary.

use std::io::Write;
use std::path::{Path, PathBuf};

use tool_offload::core::materialize::count;
use tool_offload::core::transcript::Format;
use tool_offload::core::BatchOptions;

use crate::args::{From, OffloadArgs};
use crate::error::CliError;
use crate::input::Input;
use crate::inputs::{described, expand, note, outputs_for};
use crate::location::Location;
use crate::skipped::Skips;
use crate::summary::Stats;
use crate::{array, jsonl, read, summary};

/// Run `offload` with `args`; each input's summary goes to stderr.
pub fn offload(args: &OffloadArgs) -> Result<(), CliError> {
    let out = Location::parse("--out", &args.out)?;
    let out_dir = out.dir.as_str();
    let cwd =
        tool_offload::working_dir_for(out_dir).map_err(|e| CliError::failure(e.to_string()))?;
    let options = BatchOptions {
        output_dir: out_dir,
        cwd: &cwd,
        threshold: args.threshold,
        redact: args.redact_patterns.redaction(args.redact)?,
    };
    if args.jsonl && !matches!(args.from, From::Auto | From::Messages) {
        return Err(CliError::bad_input(
            "--jsonl reads messages line by line; a session log is read whole: drop --jsonl",
        ));
    }
    let inputs = expand(&args.inputs)?;
    let several = inputs.len() > 1;
    let extension = if args.jsonl { "jsonl" } else { "json" };
    let outputs = outputs_for(&inputs, args.output.as_deref(), extension)?;
    let mut skips = Skips::new(&args.inputs, &inputs);
    for (path, output) in inputs.iter().zip(outputs) {
        let input = Input::new(path);
        let name = input.name();
        let (stats, dir, format) = if args.jsonl {
            let spool = spool_dirs(&cwd, &out);
            let run = jsonl::run(&input, &options, &out.io, output.as_deref(), &spool);
            let Some((stats, dir)) = skips.process(name, run)? else {
                continue;
            };
            (stats, dir, Format::Messages)
        } else {
            let read = read::read(&input, args.from, args.include_sidechains, args.lossy);
            let Some(conversation) = skips.read(name, read)? else {
                continue;
            };
            let format = conversation.format;
            if args.from == From::Auto && format != Format::Messages {
                note(&format!("{name}: read as {}", described(format)));
            }
            let run = array::run(&input, conversation, &options, &out.io, output.as_deref());
            let Some((stats, dir)) = skips.process(name, run)? else {
                continue;
            };
            (stats, dir, format)
        };
        if stats.messages > 0 && stats.tool_results == 0 {
            note(&format!(
                "{}: {} read as {}, but no tool result was recognised in {}",
                input.name(),
                count(
                    usize::try_from(stats.messages).unwrap_or(usize::MAX),
                    "message"
                ),
                described(format),
                if stats.messages == 1 { "it" } else { "them" }
            ));
        }
        if stats.unrecognized > 0 {
            let what = match stats.unrecognized {
                1 => "looks like a tool result but is of no shape we know; left as it is",
                _ => "look like tool results but are of no shape we know; left as they are",
            };
            note(&format!(
                "{}: {} {what}",
                input.name(),
                count(
                    usize::try_from(stats.unrecognized).unwrap_or(usize::MAX),
                    "item"
                )
            ));
        }
        // A store's files are shown by its URL, not the library's `/`.
        let dir = if out.remote {
            args.out.to_string_lossy().into_owned()
        } else {
            dir
        };
        report(args.json, several.then(|| input.name()), &stats, &dir);
    }
    skips.finish()
}

/// The summary of one input on stderr; with several inputs, named.
fn report(json: bool, input: Option<&str>, stats: &Stats, dir: &str) {
    let text = match (json, input) {
        (true, input) => summary::to_json(stats, dir, input) + "\n",
        (false, None) => summary::to_text(stats, dir),
        (false, Some(name)) => format!("{name}:\n{}", summary::to_text(stats, dir)),
    };
    // The work is done and the output complete: a closed stderr is no reason to fail.
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// Where stdin may be spooled in JSONL mode, best first: the output directory or its
/// parent when they exist (same disk as the artifacts; the system temporary directory
/// is often in memory), then the system temporary directory (only that one for a store).
fn spool_dirs(cwd: &str, out: &Location) -> Vec<PathBuf> {
    if out.remote {
        return vec![std::env::temp_dir()];
    }
    let out = Path::new(cwd).join(&out.dir);
    [Some(out.as_path()), out.parent()]
        .into_iter()
        .flatten()
        .filter(|dir| dir.is_dir())
        .map(Path::to_path_buf)
        .chain([std::env::temp_dir()])
        .collect()
}
