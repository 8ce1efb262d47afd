//! `tool-offload redact`: the secrets in artifacts already stored, replaced in place.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use tool_offload::json::stringify;

use crate::error::CliError;
use crate::location::Location;

/// Arguments of `tool-offload redact`.
#[derive(Debug, Args)]
pub struct RedactArgs {
    /// A user-data directory or a batch output directory; or an object store,
    /// `s3://bucket/prefix` (credentials and endpoint from `AWS_*`).
    #[arg(value_name = "DIR|URL")]
    pub dir: PathBuf,
    /// Say what would be rewritten; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Run `redact` with `args`; the report goes to stdout.
pub fn redact(args: &RedactArgs) -> Result<(), CliError> {
    let location = Location::parse("DIR", &args.dir)?;
    if !location.remote && !args.dir.is_dir() {
        return Err(CliError::bad_input(format!(
            "{}: not a directory",
            args.dir.display()
        )));
    }
    let report = crate::runtime::runtime()?
        .block_on(tool_offload::core::redact_tree(
            &location.dir,
            args.dry_run,
            &location.io,
        ))
        .map_err(|e| CliError::failure(format!("{}: {e}", args.dir.display())))?;
    let counts: Vec<String> = report
        .counts
        .iter()
        .map(|(kind, n)| format!("{kind} {n}"))
        .collect();
    if args.json {
        let kinds: serde_json::Map<String, serde_json::Value> = report
            .counts
            .iter()
            .map(|(kind, n)| ((*kind).to_owned(), json!(n)))
            .collect();
        let out = json!({
            "scanned": report.scanned,
            "rewritten": report.rewritten,
            "secrets": kinds,
            "skipped": report.skipped,
            "dryRun": args.dry_run,
        });
        println!("{}", stringify(&out));
        return Ok(());
    }
    let verb = if args.dry_run {
        "would rewrite"
    } else {
        "rewrote"
    };
    for path in &report.rewritten {
        println!("{verb} {path}");
    }
    let total: usize = report.counts.iter().map(|(_, n)| n).sum();
    let found = match counts.is_empty() {
        true => String::new(),
        false => format!(": {}", counts.join(", ")),
    };
    println!(
        "{verb} {} of {} artifacts; {total} secrets{found}",
        report.rewritten.len(),
        report.scanned
    );
    if !report.skipped.is_empty() {
        println!(
            "left as they are: {} files that are not text to redact (binary data, workspace knowledge)",
            report.skipped.len()
        );
    }
    Ok(())
}
