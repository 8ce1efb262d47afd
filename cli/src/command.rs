//! `tool-offload offload`: resolve the arguments, read each input in the format it
//! holds, offload it and print its summary.

use std::io::Write;
use std::path::{Path, PathBuf};

use tool_offload::core::transcript::Format;
use tool_offload::core::BatchOptions;

use crate::args::{From, OffloadArgs};
use crate::error::CliError;
use crate::input::Input;
use crate::summary::Stats;
use crate::{array, jsonl, read, summary};

/// Run `offload` with `args`; each input's summary goes to stderr.
pub fn offload(args: &OffloadArgs) -> Result<(), CliError> {
    let out_dir = args.out.to_str().ok_or_else(|| {
        CliError::bad_input(format!("--out {}: not valid UTF-8", args.out.display()))
    })?;
    let cwd =
        tool_offload::working_dir_for(out_dir).map_err(|e| CliError::failure(e.to_string()))?;
    let options = BatchOptions {
        output_dir: out_dir,
        cwd: &cwd,
        threshold: args.threshold,
    };
    if args.jsonl && !matches!(args.from, From::Auto | From::Messages) {
        return Err(CliError::bad_input(
            "--jsonl reads messages line by line; a session log is read whole: drop --jsonl",
        ));
    }
    let inputs = expand(&args.inputs)?;
    let several = inputs.len() > 1;
    let outputs = match (several, &args.output) {
        (false, output) => vec![output.clone()],
        (true, None) => {
            return Err(CliError::bad_input(format!(
                "{} inputs: pass -o DIR for the offloaded conversations (one file each)",
                inputs.len()
            )))
        }
        (true, Some(dir)) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::failure(format!("{}: {e}", dir.display())))?;
            outputs_in(dir, &inputs, args.jsonl)?
        }
    };
    for (path, output) in inputs.iter().zip(outputs) {
        let input = Input::new(path);
        let (stats, dir, format) = if args.jsonl {
            let spool = spool_dirs(&cwd, out_dir);
            let (stats, dir) = jsonl::run(&input, &options, output.as_deref(), &spool)?;
            (stats, dir, Format::Messages)
        } else {
            let conversation = read::read(&input, args.from, args.include_sidechains)?;
            let format = conversation.format;
            if args.from == From::Auto && format != Format::Messages {
                note(&format!("{}: read as {}", input.name(), described(format)));
            }
            let (stats, dir) = array::run(&input, conversation, &options, output.as_deref())?;
            (stats, dir, format)
        };
        if stats.messages > 0 && stats.tool_results == 0 {
            note(&format!(
                "{}: {} messages read as {}, but no tool result was recognised in them",
                input.name(),
                stats.messages,
                described(format)
            ));
        }
        report(args.json, several.then(|| input.name()), &stats, &dir);
    }
    Ok(())
}

/// The inputs, a directory replaced by its `*.json` and `*.jsonl` files in name order.
fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut found = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            found.push(input.clone());
            continue;
        }
        let entries = std::fs::read_dir(input)
            .map_err(|e| CliError::bad_input(format!("{}: {e}", input.display())))?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "jsonl"))
            .collect();
        if files.is_empty() {
            return Err(CliError::bad_input(format!(
                "{}: no *.json or *.jsonl file in this directory",
                input.display()
            )));
        }
        files.sort();
        found.extend(files);
    }
    if found.len() > 1 && found.iter().any(|p| p.as_os_str() == "-") {
        return Err(CliError::bad_input("- (stdin) can only be the one input"));
    }
    Ok(found)
}

/// Where each of several inputs' conversation goes: `<dir>/<input file stem>.json`
/// (`.jsonl` with `--jsonl`); two inputs of one name are refused rather than one lost.
fn outputs_in(
    dir: &Path,
    inputs: &[PathBuf],
    jsonl: bool,
) -> Result<Vec<Option<PathBuf>>, CliError> {
    let extension = if jsonl { "jsonl" } else { "json" };
    let mut outputs: Vec<Option<PathBuf>> = Vec::new();
    for input in inputs {
        let stem = input.file_stem().unwrap_or(input.as_os_str());
        let output = dir.join(stem).with_extension(extension);
        if outputs.iter().flatten().any(|o| *o == output) {
            return Err(CliError::bad_input(format!(
                "{}: another input would also be written to {}",
                input.display(),
                output.display()
            )));
        }
        outputs.push(Some(output));
    }
    Ok(outputs)
}

/// What a format is, for people.
fn described(format: Format) -> &'static str {
    match format {
        Format::Messages => "messages",
        Format::ClaudeCode => "a Claude Code session log",
        Format::Codex => "a Codex rollout",
    }
}

/// A line on stderr that is not an error.
fn note(text: &str) {
    let _ = writeln!(std::io::stderr(), "tool-offload: {text}");
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
/// is often in memory), then the system temporary directory.
fn spool_dirs(cwd: &str, out_dir: &str) -> Vec<PathBuf> {
    let out = Path::new(cwd).join(out_dir);
    [Some(out.as_path()), out.parent()]
        .into_iter()
        .flatten()
        .filter(|dir| dir.is_dir())
        .map(Path::to_path_buf)
        .chain([std::env::temp_dir()])
        .collect()
}
