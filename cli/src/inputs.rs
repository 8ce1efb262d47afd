//! What several subcommands share about their inputs: directories expanded, where each
//! input's result goes, and notes on stderr.

use std::io::Write;
use std::path::{Path, PathBuf};

use tool_offload::core::transcript::Format;

use crate::error::CliError;

/// The inputs, a directory replaced by its `*.json` and `*.jsonl` files in name order.
pub fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    expand_tree(inputs, false)
}

/// [`expand`], and with `recursive` the files of the directories below too (each
/// directory's files, then its subdirectories', in name order; symbolic links to
/// directories are not followed).
pub fn expand_tree(inputs: &[PathBuf], recursive: bool) -> Result<Vec<PathBuf>, CliError> {
    let mut found = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            found.push(input.clone());
            continue;
        }
        let mut files = Vec::new();
        conversations_in(input, recursive, &mut files)?;
        if files.is_empty() {
            return Err(CliError::bad_input(format!(
                "{}: no *.json or *.jsonl file in this directory",
                input.display()
            )));
        }
        found.extend(files);
    }
    if found.len() > 1 && found.iter().any(|p| p.as_os_str() == "-") {
        return Err(CliError::bad_input("- (stdin) can only be the one input"));
    }
    Ok(found)
}

/// The `*.json` and `*.jsonl` files of `dir` in name order, then with `recursive` those
/// of its subdirectories.
fn conversations_in(dir: &Path, recursive: bool, out: &mut Vec<PathBuf>) -> Result<(), CliError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| CliError::bad_input(format!("{}: {e}", dir.display())))?;
    let mut entries: Vec<std::fs::DirEntry> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(std::fs::DirEntry::path);
    let mut below = Vec::new();
    for entry in entries {
        let path = entry.path();
        let kind = entry.file_type().ok();
        if recursive && kind.is_some_and(|k| k.is_dir()) {
            below.push(path);
        } else if path.is_file()
            && path
                .extension()
                .is_some_and(|x| x == "json" || x == "jsonl")
        {
            out.push(path);
        }
    }
    for dir in below {
        conversations_in(&dir, recursive, out)?;
    }
    Ok(())
}

/// Where each input's conversation goes: for one input, `output` as given (stdout when
/// `None`); for several, `output` is a directory (created) that gets
/// `<input file stem>.<extension>` each, and two inputs of one name are refused rather
/// than one lost.
pub fn outputs_for(
    inputs: &[PathBuf],
    output: Option<&Path>,
    extension: &str,
) -> Result<Vec<Option<PathBuf>>, CliError> {
    if inputs.len() == 1 {
        return Ok(vec![output.map(Path::to_path_buf)]);
    }
    let Some(dir) = output else {
        return Err(CliError::bad_input(format!(
            "{} inputs: pass -o DIR for the conversations (one file each)",
            inputs.len()
        )));
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::failure(format!("{}: {e}", dir.display())))?;
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
pub fn described(format: Format) -> &'static str {
    match format {
        Format::Messages => "messages",
        Format::ClaudeCode => "a Claude Code session log",
        Format::Codex => "a Codex rollout",
    }
}

/// A line on stderr that is not an error.
pub fn note(text: &str) {
    let _ = writeln!(std::io::stderr(), "tool-offload: {text}");
}
