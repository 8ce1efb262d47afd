//! Retention: removing artifacts nobody needs any more, so a store that runs for months
//! does not only grow. Only our own files are ever touched (materialized artifacts and
//! their line indexes, batch `tool-result-*.md` files, writers' stale temporary files);
//! never one the messages passed as `keep` still refer to.
//!
//! Where an artifact is removed, an empty `<artifact>.removed` marker stays beside it, so
//! reading its ref later says it was removed by retention rather than never existing.

use std::collections::HashSet;

use crate::concurrent::{run_bounded, WRITE_CONCURRENCY};
pub use crate::io::{FileLifecycle, FileStat};
use crate::temp::{is_stale_temp, is_temp};
use crate::{error::OffloadError, io::FileReader, io::FileWriter};
use serde_json::Value;

/// What to collect.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GcOptions {
    /// Remove artifacts last modified longer ago than this (milliseconds).
    pub older_than_ms: Option<u64>,
    /// Then remove the least recently modified ones until ours take at most this many
    /// bytes (referenced ones count, but stay).
    pub max_bytes: Option<u64>,
    /// Refs (`ctx://…`) and batch file names (`tool-result-….md`) that stay whatever
    /// their age: see [`referenced`].
    pub keep: HashSet<String>,
    /// Report what would go, remove nothing.
    pub dry_run: bool,
    /// Now, milliseconds since the Unix epoch (passed in: the core has no clock).
    pub now_ms: u64,
}

/// What a collection removed (or, dry, would remove).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GcReport {
    /// Paths removed, in path order (line indexes and temporary files included).
    pub removed: Vec<String>,
    /// Their bytes.
    pub bytes: u64,
    /// Artifacts of ours that stay.
    pub kept: usize,
    /// Their bytes.
    pub kept_bytes: u64,
}

impl GcReport {
    /// The report as every host returns it: `{ removed, bytes, kept, keptBytes }`.
    ///
    /// ```
    /// use tool_offload_core::gc::GcReport;
    /// let report = GcReport { removed: vec!["/d/a.txt".into()], bytes: 3, kept: 1, kept_bytes: 9 };
    /// assert_eq!(tool_offload_core::json::stringify(&report.to_value()),
    ///     r#"{"removed":["/d/a.txt"],"bytes":3,"kept":1,"keptBytes":9}"#);
    /// ```
    pub fn to_value(&self) -> serde_json::Value {
        let mut shown = serde_json::Map::new();
        let removed: Vec<serde_json::Value> =
            self.removed.iter().map(|p| p.as_str().into()).collect();
        shown.insert("removed".into(), removed.into());
        shown.insert("bytes".into(), self.bytes.into());
        shown.insert("kept".into(), self.kept.into());
        shown.insert("keptBytes".into(), self.kept_bytes.into());
        shown.into()
    }
}

/// The refs and batch file names `messages` still point at: every string anywhere in
/// them that is a summary (its ref) or a batch placeholder (its file name).
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::gc::referenced;
/// let messages = json!([{"role": "tool", "tool_call_id": "c", "content": "[Content offloaded to: ./tool-result-c.md]"}]);
/// assert!(referenced(&messages).contains("tool-result-c.md"));
/// ```
pub fn referenced(messages: &Value) -> HashSet<String> {
    let mut found = HashSet::new();
    // Every ref anywhere: in a summary, in advice, in a note beside an MCP result (its
    // `-structured.json`), in JSON quoted inside text (a legacy `<function_call>`).
    crate::materialize::ref_scan::refs_in(messages, &mut |f| {
        found.insert(f.reference.into_owned());
    });
    visit(messages, &mut |s| {
        for prefix in [
            "[Content offloaded to: ./",
            "[Tool result offloaded to file: ",
        ] {
            let mut rest = s;
            while let Some(at) = crate::search::find(rest, prefix) {
                rest = &rest[at + prefix.len()..];
                let Some(end) = crate::search::find(rest, "]") else {
                    break;
                };
                let name = crate::search::after_last_slash(&rest[..end]);
                if !name.is_empty() {
                    found.insert(name.to_owned());
                }
                rest = &rest[end..];
            }
        }
    });
    found
}

fn visit(value: &Value, f: &mut impl FnMut(&str)) {
    match value {
        Value::String(s) => f(s),
        Value::Array(items) => items.iter().for_each(|v| visit(v, f)),
        Value::Object(fields) => fields.values().for_each(|v| visit(v, f)),
        _ => {}
    }
}

/// One artifact of ours.
struct Candidate {
    path: String,
    /// How `keep` names it: its ref, or its batch file name.
    name: String,
    stat: FileStat,
}

/// Collect under `root` (a user-data directory or a batch output directory) as
/// `options` say.
///
/// # Errors
/// `READ_FAILED` when the tree cannot be listed, `WRITE_FAILED` when a removal fails
/// (what was removed before stays removed and is not reported).
pub async fn gc<IO>(root: &str, options: &GcOptions, io: &IO) -> Result<GcReport, OffloadError>
where
    IO: FileReader + FileWriter + FileLifecycle + ?Sized,
{
    let root = root.trim_end_matches('/');
    let files = walk(root, io).await?;
    let mut candidates = Vec::new();
    let mut temps = Vec::new();
    let mut indexes: Vec<(String, String, u64)> = Vec::new();
    for (path, stat) in files {
        let name = crate::search::after_last_slash(&path);
        if is_temp(name) {
            if is_stale_temp(name, options.now_ms.saturating_sub(stat.modified_ms)) {
                temps.push((path, stat.size));
            }
        } else if let Some(artifact) = index_of(root, &path) {
            indexes.push((artifact, path, stat.size));
        } else if let Some(name) = ours(root, &path) {
            candidates.push(Candidate { path, name, stat });
        }
    }
    let (mut doomed, mut kept): (Vec<Candidate>, Vec<Candidate>) =
        candidates.into_iter().partition(|c| {
            !options.keep.contains(&c.name)
                && options
                    .older_than_ms
                    .is_some_and(|ttl| options.now_ms.saturating_sub(c.stat.modified_ms) > ttl)
        });
    if let Some(max) = options.max_bytes {
        // Oldest first; referenced ones never go.
        crate::sort::sort_by(&mut kept, |a, b| {
            (a.stat.modified_ms, &a.path).cmp(&(b.stat.modified_ms, &b.path))
        });
        let mut total: u64 = kept.iter().map(|c| c.stat.size).sum();
        let mut stay = Vec::new();
        for c in kept {
            if total > max && !options.keep.contains(&c.name) {
                total -= c.stat.size;
                doomed.push(c);
            } else {
                stay.push(c);
            }
        }
        kept = stay;
    }
    let mut report = GcReport {
        kept: kept.len(),
        kept_bytes: kept.iter().map(|c| c.stat.size).sum(),
        ..GcReport::default()
    };
    // (path, size, whether it is an artifact that leaves a marker)
    let mut removals: Vec<(String, u64, bool)> =
        temps.into_iter().map(|(p, s)| (p, s, false)).collect();
    for c in doomed {
        if let Some((_, index, size)) = indexes.iter().find(|(a, _, _)| *a == c.path) {
            removals.push((index.clone(), *size, false));
        }
        removals.push((c.path, c.stat.size, true));
    }
    crate::sort::sort_by(&mut removals, |a, b| a.0.cmp(&b.0));
    if !options.dry_run {
        // A few at a time: each is a round trip to a disk's thread pool or a server.
        let removing = removals
            .iter()
            .map(|(path, _, artifact)| remove(io, path, *artifact))
            .collect();
        for removed in run_bounded(removing, WRITE_CONCURRENCY).await {
            removed?;
        }
    }
    for (path, size, _) in removals {
        report.bytes += size;
        report.removed.push(path);
    }
    Ok(report)
}

/// Every file under `root` with its stat, depth first.
pub(crate) async fn walk<IO>(root: &str, io: &IO) -> Result<Vec<(String, FileStat)>, OffloadError>
where
    IO: FileReader + FileLifecycle + ?Sized,
{
    let mut files = Vec::new();
    let mut pending = vec![root.to_owned()];
    while let Some(dir) = pending.pop() {
        let names = io
            .list_dir(&dir)
            .await
            .map_err(|source| OffloadError::ReadFailed {
                path: dir.clone(),
                source,
            })?;
        let paths: Vec<String> = names.iter().map(|name| format!("{dir}/{name}")).collect();
        let stats = run_bounded(
            paths.iter().map(|path| io.stat(path)).collect(),
            WRITE_CONCURRENCY,
        )
        .await;
        for (path, stat) in paths.into_iter().zip(stats) {
            match stat {
                // Never followed: a link to a directory outside would have retention
                // remove files there, and a link loop would never end.
                Ok(Some(stat)) if stat.is_link => {}
                Ok(Some(stat)) if stat.is_dir => pending.push(path),
                Ok(Some(stat)) => files.push((path, stat)),
                Ok(None) => {}
                Err(source) => return Err(OffloadError::ReadFailed { path, source }),
            }
        }
    }
    Ok(files)
}

/// Remove `path`, leaving the marker beside it when it is an artifact.
async fn remove<IO>(io: &IO, path: &str, artifact: bool) -> Result<(), OffloadError>
where
    IO: FileWriter + FileLifecycle + ?Sized,
{
    let failed = |source| OffloadError::WriteFailed {
        path: path.to_owned(),
        source,
    };
    if artifact {
        // The marker that lets a later read say why the ref is gone, and keeps the name
        // from being given to another content. Written first: a writer picking names
        // never finds the name free and unmarked (see `create_fresh`).
        let marker = format!("{path}{REMOVED_SUFFIX}");
        io.write_file(&marker, "").await.map_err(failed)?;
    }
    io.remove(path).await.map_err(failed)?;
    Ok(())
}

/// For an artifact `<root>/context/<conv>/artifacts/<kind>/<file>`, the path of its line
/// index, `<root>/context/<conv>/index/<kind>/<file>.lines`.
pub(crate) fn index_for(root: &str, artifact: &str) -> Option<String> {
    let rel = artifact.strip_prefix(root)?.strip_prefix("/context/")?;
    let (conversation, rest) = crate::search::split_once(rel, "/artifacts/")?;
    Some(format!("{root}/context/{conversation}/index/{rest}.lines"))
}

/// For a line index `<root>/context/<conv>/index/<kind>/<file>.lines`, the path of the
/// artifact it indexes.
fn index_of(root: &str, path: &str) -> Option<String> {
    let rel = path.strip_prefix(root)?.strip_prefix("/context/")?;
    let (conversation, rest) = crate::search::split_once(rel, "/index/")?;
    let artifact = rest.strip_suffix(".lines")?;
    Some(format!(
        "{root}/context/{conversation}/artifacts/{artifact}"
    ))
}

pub use crate::create::REMOVED_SUFFIX;

/// How `keep` names the file at `path` if it is one of ours: a materialized artifact
/// (`<root>/context/<conv>/artifacts/<kind>/<file>`, named by its ref) or a batch file
/// (`tool-result-*.md`, named by its file name).
pub(crate) fn ours(root: &str, path: &str) -> Option<String> {
    let rel = path
        .strip_prefix(root.trim_end_matches('/'))?
        .strip_prefix('/')?;
    let parts: Vec<&str> = rel.split('/').collect();
    if let ["context", conversation, "artifacts", kind, file] = parts.as_slice() {
        // Workspace knowledge is kept by its records, not by retention of artifacts.
        let kind = crate::forms::reference::ArtifactKind::from_dir(kind)
            .filter(|&kind| kind != crate::forms::reference::ArtifactKind::Knowledge)?;
        if file.ends_with(REMOVED_SUFFIX) {
            return None;
        }
        return Some(crate::forms::reference::artifact_ref(
            conversation,
            kind,
            file,
        ));
    }
    let name = parts.last()?;
    (name.starts_with("tool-result-") && name.ends_with(".md")).then(|| (*name).to_owned())
}
