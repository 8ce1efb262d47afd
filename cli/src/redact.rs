//! `tool-offload redact`: the secrets in artifacts already stored, replaced in place.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use serde_json::json;
use tool_offload::core::materialize::count;
use tool_offload::core::redact::{RedactPattern, Redaction};
use tool_offload::core::workspace::RecordIndex;
use tool_offload::json::stringify;
use tool_offload::WorkspaceOptions;

use crate::error::CliError;
use crate::location::Location;

/// The user's redaction patterns and replacement (`offload`, `materialize`, `redact`).
#[derive(Debug, Args)]
pub struct RedactPatterns {
    /// Also replace what PATTERN matches, as kind `custom` (context_grep's syntax,
    /// matched within a line; with a capture group, only the group). Repeatable; implies
    /// --redact.
    #[arg(long = "redact-pattern", value_name = "PATTERN")]
    pub patterns: Vec<String>,
    /// Replace every secret by TEXT instead of [REDACTED:<kind>]; implies --redact.
    #[arg(long = "redact-replace", value_name = "TEXT")]
    pub replace: Option<String>,
}

impl RedactPatterns {
    /// The redaction asked for: off unless `on` or a pattern or replacement is given.
    ///
    /// # Errors
    /// Bad input for a pattern the engine refuses.
    pub fn redaction(&self, on: bool) -> Result<Redaction, CliError> {
        if !on && self.patterns.is_empty() && self.replace.is_none() {
            return Ok(Redaction::off());
        }
        let patterns = self.patterns.iter().map(RedactPattern::new).collect();
        Redaction::with_patterns(patterns, self.replace.clone())
            .map_err(|e| CliError::bad_input(format!("--redact-pattern: {e}")))
    }
}

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
    #[command(flatten)]
    pub patterns: RedactPatterns,
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
    let redaction = args.patterns.redaction(true)?;
    let local = !args.dry_run && !location.remote;
    // Each namespace's SQLite index, kept in step record by record; one that cannot be
    // opened is removed afterwards instead (rebuilt from the records on open).
    let unopened = std::sync::Mutex::new(Vec::new());
    let index_of = |namespace: &str| -> Option<Arc<dyn RecordIndex>> {
        let index = local
            .then(|| sqlite_index(&args.dir, &location.dir, namespace))
            .flatten();
        if let Some(None) = index {
            lock(&unopened).push(namespace.to_owned());
        }
        index.flatten()
    };
    let report = crate::runtime::runtime()?.block_on(tool_offload::core::redact_tree_indexed(
        &location.dir,
        &redaction,
        args.dry_run,
        &location.io,
        &index_of,
    ));
    let report = match report {
        Ok(report) => report,
        Err(e) => {
            // A record may have been rewritten and its index not (the failure was the
            // index's), and a second run would not name its namespace: every index
            // goes (rebuilt on open).
            if local {
                remove_stale_indexes(&args.dir, &namespaces_in(&args.dir))?;
            }
            return Err(CliError::failure(format!("{}: {e}", args.dir.display())));
        }
    };
    let unopened = std::mem::take(&mut *lock(&unopened));
    if local {
        remove_stale_indexes(&args.dir, &unopened)?;
    }
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
            "namespaces": report.namespaces,
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
        "{verb} {} of {}; {}{found}",
        report.rewritten.len(),
        count(report.scanned, "artifact"),
        count(total, "secret")
    );
    if !report.skipped.is_empty() {
        println!(
            "left as they are: {} not text to redact (binary data, not UTF-8)",
            count(report.skipped.len(), "file")
        );
    }
    for namespace in &report.namespaces {
        let index = match (args.dry_run, unopened.contains(namespace)) {
            (true, _) => "would be kept in step",
            (false, false) => "kept in step (the records rewritten put in again), if it has one",
            (false, true) => "removed (rebuilt from the records when a workspace opens it)",
        };
        println!(
            "workspace {namespace}: knowledge records {}; its SQLite index {index}; rebuild a PostgreSQL index with rebuild_index",
            if args.dry_run { "would be rewritten" } else { "rewritten" },
        );
    }
    Ok(())
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The SQLite index of `namespace` under `dir` (`root` as the library names it), when it
/// has one: `None` when it has none, `Some(None)` when it cannot be opened.
fn sqlite_index(
    dir: &std::path::Path,
    root: &str,
    namespace: &str,
) -> Option<Option<Arc<dyn RecordIndex>>> {
    let path = dir
        .join("context")
        .join(namespace)
        .join(tool_offload::INDEX_FILE);
    if !path.is_file() {
        return None;
    }
    let mut options = WorkspaceOptions::at(root);
    options.namespace = namespace.to_owned();
    // The workspace opens the index; its core hands it over (without the feature
    // `sqlite` it has none).
    let workspace = tool_offload::Workspace::new(options).ok();
    Some(workspace.and_then(|ws| ws.core().index().cloned()))
}

/// The namespaces under `dir` (`<dir>/context/<namespace>`), as far as they can be listed.
fn namespaces_in(dir: &std::path::Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir.join("context")) else {
        return Vec::new();
    };
    // Real directories only: a link is never followed out of the tree.
    let dirs = entries.filter_map(|e| e.ok().filter(|e| e.file_type().is_ok_and(|t| t.is_dir())));
    dirs.filter_map(|e| e.file_name().into_string().ok())
        .collect()
}

/// The SQLite index of every namespace whose records were rewritten, removed: it holds
/// the records' old sizes and hashes, and a workspace rebuilds a missing one on open.
fn remove_stale_indexes(dir: &std::path::Path, namespaces: &[String]) -> Result<(), CliError> {
    for namespace in namespaces {
        let index = dir
            .join("context")
            .join(namespace)
            .join(tool_offload::INDEX_FILE);
        for suffix in ["", "-wal", "-shm"] {
            let mut path = index.clone().into_os_string();
            path.push(suffix);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    return Err(CliError::failure(format!(
                        "{}: {e}",
                        std::path::Path::new(&path).display()
                    )))
                }
            }
        }
    }
    Ok(())
}
