//! `ls` and `stats`: what a directory holds of ours. Materialized artifacts
//! (`<dir>/context/<conversation>/artifacts/<kind>/<file>`, named by their ref) and batch
//! offload files (`tool-result-*.md`); anything else is not ours and is left out.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::json;
use tool_offload::core::materialize::{artifact_ref, count as counted, ArtifactKind};
use tool_offload::core::utf16_len;
use tool_offload::json::stringify;
use tool_offload::Value;

use crate::args::ListArgs;
use crate::error::CliError;

/// One artifact found.
struct Found {
    /// Its ref, for a materialized artifact.
    reference: Option<String>,
    /// Its conversation, for a materialized artifact.
    conversation: Option<String>,
    /// `tool`, `terminal` or `batch`.
    kind: &'static str,
    path: PathBuf,
    bytes: u64,
    modified: Option<SystemTime>,
}

/// Every artifact under `dir`, in path order.
fn find(dir: &Path) -> Result<Vec<Found>, CliError> {
    if !dir.is_dir() {
        return Err(CliError::bad_input(format!(
            "{}: not a directory",
            dir.display()
        )));
    }
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        let entries = std::fs::read_dir(&at)
            .map_err(|e| CliError::failure(format!("{}: {e}", at.display())))?;
        for entry in entries.flatten() {
            let path = entry.path();
            // `DirEntry::metadata` does not follow links; a link is never ours, and
            // never followed (it may lead out of the directory, or round a loop).
            let Ok(meta) = entry.metadata() else { continue };
            if meta.file_type().is_symlink() {
                continue;
            }
            if meta.is_dir() {
                pending.push(path);
            } else if let Some((reference, conversation, kind)) = classify(dir, &path) {
                found.push(Found {
                    reference,
                    conversation,
                    kind,
                    path,
                    bytes: meta.len(),
                    modified: meta.modified().ok(),
                });
            }
        }
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(found)
}

type Classified = (Option<String>, Option<String>, &'static str);

/// Whether `path` is ours, and what: `context/<conv>/artifacts/<kind>/<file>` relative
/// to `root`, or a `tool-result-*.md` file.
fn classify(root: &Path, path: &Path) -> Option<Classified> {
    let name = path.file_name()?.to_str()?;
    let parts: Vec<&str> = path
        .strip_prefix(root)
        .ok()?
        .iter()
        .map(|p| p.to_str())
        .collect::<Option<_>>()?;
    if let ["context", conversation, "artifacts", kind, file] = parts.as_slice() {
        let kind = ArtifactKind::from_dir(kind)?;
        let reference = artifact_ref(conversation, kind, file);
        return Some((
            Some(reference),
            Some((*conversation).to_owned()),
            kind.dir(),
        ));
    }
    (name.starts_with("tool-result-") && name.ends_with(".md")).then_some((None, None, "batch"))
}

/// `ls`: one line (or JSON object) per artifact.
pub fn ls(args: &ListArgs) -> Result<(), CliError> {
    let found = find(&args.dir)?;
    let mut out = String::new();
    if args.json {
        let rows: Vec<Value> = found
            .iter()
            .map(|f| {
                json!({
                    "ref": f.reference,
                    "kind": f.kind,
                    "path": f.path.display().to_string(),
                    "bytes": f.bytes,
                    "modified": f.modified.map(iso8601),
                })
            })
            .collect();
        out = stringify(&Value::Array(rows)) + "\n";
    } else {
        for f in &found {
            let name = f
                .reference
                .clone()
                .unwrap_or_else(|| f.path.display().to_string());
            let modified = f.modified.map(iso8601).unwrap_or_else(|| "-".into());
            out.push_str(&format!("{name}\t{}\t{}\t{modified}\n", f.kind, f.bytes));
        }
    }
    print!("{out}");
    Ok(())
}

/// `stats`: counts, bytes and characters, in all and by kind and conversation.
pub fn stats(args: &ListArgs) -> Result<(), CliError> {
    let found = find(&args.dir)?;
    let mut chars = 0u64;
    for f in &found {
        let text = std::fs::read(&f.path)
            .map_err(|e| CliError::failure(format!("{}: {e}", f.path.display())))?;
        chars += utf16_len(&String::from_utf8_lossy(&text)) as u64;
    }
    let count = |kind: &str| found.iter().filter(|f| f.kind == kind).count();
    let mut conversations: Vec<&str> = found
        .iter()
        .filter_map(|f| f.conversation.as_deref())
        .collect();
    conversations.sort_unstable();
    conversations.dedup();
    let bytes: u64 = found.iter().map(|f| f.bytes).sum();
    if args.json {
        let summary = json!({
            "artifacts": found.len(),
            "bytes": bytes,
            "chars": chars,
            "conversations": conversations.len(),
            "byKind": {"tool": count("tool"), "terminal": count("terminal"), "batch": count("batch")},
        });
        println!("{}", stringify(&summary));
    } else {
        println!(
            "artifacts:     {} ({} tool, {} terminal, {} batch)\n\
             conversations: {}\n\
             size:          {}, {} kept out of conversations",
            found.len(),
            count("tool"),
            count("terminal"),
            count("batch"),
            conversations.len(),
            counted(usize::try_from(bytes).unwrap_or(usize::MAX), "byte"),
            counted(usize::try_from(chars).unwrap_or(usize::MAX), "character"),
        );
    }
    Ok(())
}

/// `time` as `YYYY-MM-DDTHH:MM:SSZ` (UTC): core's `toISOString` without milliseconds.
fn iso8601(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let iso = tool_offload::core::workspace::iso8601(secs as f64 * 1000.0);
    format!("{}Z", &iso[..19])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn iso8601_dates() {
        let at = |secs| iso8601(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_795_000_000), "2026-11-18T11:06:40Z");
        assert_eq!(at(4_107_542_399), "2100-02-28T23:59:59Z");
    }
}
