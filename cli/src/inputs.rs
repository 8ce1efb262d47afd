//! What several subcommands share about their inputs: directories expanded, where each
//! input's result goes, and notes on stderr.

use std::io::Write;
use std::path::{Path, PathBuf};

use tool_offload::core::transcript::Format;

use crate::error::CliError;

/// The inputs, a directory replaced by its `*.json` and `*.jsonl` files in name order.
pub fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
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
