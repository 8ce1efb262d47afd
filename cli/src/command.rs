//! `tool-offload offload`: resolve the arguments, run the chosen input format and
//! print the summary.

use std::io::Write;
use std::path::{Path, PathBuf};

use tool_offload::core::BatchOptions;

use crate::args::OffloadArgs;
use crate::error::CliError;
use crate::input::Input;
use crate::{array, jsonl, summary};

/// Run `offload` with `args`; the summary goes to stderr.
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
    let input = Input::new(&args.input);
    let output = args.output.as_deref();
    let (stats, dir) = if args.jsonl {
        jsonl::run(&input, &options, output, &spool_dirs(&cwd, out_dir))?
    } else {
        array::run(&input, &options, output)?
    };
    let text = if args.json {
        summary::to_json(&stats, &dir) + "\n"
    } else {
        summary::to_text(&stats, &dir)
    };
    // The work is done and the output complete: a closed stderr is no reason to fail.
    let _ = std::io::stderr().write_all(text.as_bytes());
    Ok(())
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
