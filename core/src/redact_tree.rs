//! Redacting what is already stored: every artifact of ours under a directory (the files
//! retention counts as ours: the Materializer's tool and terminal artifacts, batch
//! offload's `tool-result-*.md`; and workspace knowledge with its record, and the
//! record's row in the namespace's index) rewritten in place, atomically, with its
//! secrets replaced; a stale line index beside it removed.

use std::sync::Arc;

use crate::gc::{index_for, ours, walk};
use crate::redact::{add_counts, Redaction};
use crate::redact_knowledge::{knowledge_file, redact_knowledge};
use crate::workspace::RecordIndex;
use crate::{error::OffloadError, io::FileLifecycle, io::FileReader, io::FileWriter};

/// The index of a namespace's records, if it has one a redaction must keep in step.
pub type IndexOf<'a> = &'a (dyn Fn(&str) -> Option<Arc<dyn RecordIndex>> + Sync);

/// What [`redact_tree`] found and did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RedactReport {
    /// Artifacts of ours read.
    pub scanned: usize,
    /// Artifacts that held secrets, rewritten (or, in a dry run, that would be), in
    /// path order; for knowledge whose content held none but whose record did, the
    /// record.
    pub rewritten: Vec<String>,
    /// Kinds of secrets replaced, with their counts, in rule order.
    pub counts: Vec<(String, usize)>,
    /// Files of ours left as they are because they are not text to redact: binary
    /// artifacts (`.bin`) and files that are not UTF-8.
    pub skipped: Vec<String>,
    /// Workspace namespaces whose knowledge records were rewritten (or would be): an
    /// index of them that [`redact_tree_indexed`] was not given (the tokio host's
    /// `index.sqlite`, a PostgreSQL index) is stale until rebuilt from the records.
    pub namespaces: Vec<String>,
}

/// Rewrite every artifact of ours under `root` that holds a well-known secret, with each
/// replaced by `[REDACTED:<kind>]` (the rules of [`redact`](crate::redact::redact)): in
/// place, through `write_file` (atomic: a reader sees the old file or the new one),
/// removing the line index beside it (rebuilt on the next read). With `dry_run`, nothing
/// is written: the report says what would be. Symbolic links are never followed.
/// Summaries already sent to a model hold what they held; turn on `redact` for what
/// is stored from now on.
///
/// # Errors
/// `READ_FAILED` when the tree or a file cannot be read, `WRITE_FAILED` when a rewrite
/// fails (what was rewritten before stays rewritten).
///
/// ```
/// use tool_offload_core::{redact_tree, FileWriter, MemoryWriter};
/// let io = MemoryWriter::new();
/// let dir = "/d/context/c/artifacts/tool";
/// futures_executor::block_on(async {
///     io.mkdir(dir).await.unwrap();
///     io.write_file(&format!("{dir}/k.txt"), "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n").await.unwrap();
///     let report = redact_tree("/d", false, &io).await.unwrap();
///     assert_eq!(report.rewritten, [format!("{dir}/k.txt")]);
///     assert_eq!(report.counts, [("aws-access-key".to_owned(), 1)]);
/// });
/// assert_eq!(io.read("/d/context/c/artifacts/tool/k.txt").unwrap(), "AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]\n");
/// ```
pub async fn redact_tree<IO>(
    root: &str,
    dry_run: bool,
    io: &IO,
) -> Result<RedactReport, OffloadError>
where
    IO: FileReader + FileWriter + FileLifecycle + ?Sized,
{
    redact_tree_with(root, &Redaction::builtin(), dry_run, io).await
}

/// [`redact_tree`] with `redaction`: the user's patterns and replacement beside the
/// built-in rules (a knowledge record's `redacted` counts what was replaced).
///
/// # Errors
/// As [`redact_tree`].
///
/// ```
/// use tool_offload_core::redact::{RedactPattern, Redaction};
/// use tool_offload_core::{redact_tree_with, FileWriter, MemoryWriter};
/// let io = MemoryWriter::new();
/// let dir = "/d/context/c/artifacts/tool";
/// let redaction = Redaction::with_patterns(vec![RedactPattern::new("ACME-[0-9]{6}")], None).unwrap();
/// futures_executor::block_on(async {
///     io.mkdir(dir).await.unwrap();
///     io.write_file(&format!("{dir}/k.txt"), "id ACME-123456\n").await.unwrap();
///     let report = redact_tree_with("/d", &redaction, false, &io).await.unwrap();
///     assert_eq!(report.counts, [("custom".to_owned(), 1)]);
/// });
/// assert_eq!(io.read("/d/context/c/artifacts/tool/k.txt").unwrap(), "id [REDACTED:custom]\n");
/// ```
pub async fn redact_tree_with<IO>(
    root: &str,
    redaction: &Redaction,
    dry_run: bool,
    io: &IO,
) -> Result<RedactReport, OffloadError>
where
    IO: FileReader + FileWriter + FileLifecycle + ?Sized,
{
    redact_tree_indexed(root, redaction, dry_run, io, &|_| None).await
}

/// [`redact_tree_with`], keeping each namespace's index (`index_of` gives it, asked once
/// per namespace) in step: a knowledge record rewritten is put into it again (an index
/// catches up with ids added and removed, not with records rewritten in place), right
/// after its file and before its content, so no record in it describes content no
/// longer there, for a workspace open meanwhile too.
///
/// # Errors
/// As [`redact_tree`], and `WRITE_FAILED` when an index refuses a record (what was
/// rewritten before stays rewritten; the record's file already is).
pub async fn redact_tree_indexed<IO>(
    root: &str,
    redaction: &Redaction,
    dry_run: bool,
    io: &IO,
    index_of: IndexOf<'_>,
) -> Result<RedactReport, OffloadError>
where
    IO: FileReader + FileWriter + FileLifecycle + ?Sized,
{
    let root = root.trim_end_matches('/');
    // Each namespace's index, asked for once.
    let mut indexes: Vec<(String, Option<Arc<dyn RecordIndex>>)> = Vec::new();
    let mut files = walk(root, io).await?;
    crate::sort::sort_by(&mut files, |a, b| a.0.cmp(&b.0));
    let mut report = RedactReport::default();
    for (path, _) in files {
        let knowledge = knowledge_file(root, &path);
        // A temporary file is another writer's work in progress: never ours to rewrite.
        let name = crate::search::after_last_slash(&path);
        if (ours(root, &path).is_none() && knowledge.is_none()) || crate::temp::is_temp(name) {
            continue;
        }
        if crate::read::artifacts::is_binary_path(&path) {
            report.skipped.push(path);
            continue;
        }
        let text = match io.read_file(&path).await {
            Ok(Some(text)) => text,
            // Gone since the listing: nothing to redact.
            Ok(None) => continue,
            Err(_) if is_not_text(io, &path).await => {
                report.skipped.push(path);
                continue;
            }
            Err(source) => return Err(OffloadError::ReadFailed { path, source }),
        };
        report.scanned += 1;
        if let Some((namespace, file)) = knowledge {
            let at = (root, namespace, file);
            let known = indexes.iter().position(|(n, _)| n == namespace);
            let i = known.unwrap_or_else(|| {
                indexes.push((namespace.to_owned(), index_of(namespace)));
                indexes.len() - 1
            });
            let index = indexes[i].1.as_deref();
            let how = (redaction, dry_run, index);
            let Some(done) = redact_knowledge(at, &path, &text, how, io).await? else {
                continue;
            };
            add_counts(&mut report.counts, done.counts);
            if done.record_rewritten && !report.namespaces.iter().any(|n| n == namespace) {
                report.namespaces.push(namespace.to_owned());
            }
            report.rewritten.push(done.rewritten);
            continue;
        }
        let redacted = redaction.apply(&text);
        let std::borrow::Cow::Owned(clean) = redacted.text else {
            continue;
        };
        add_counts(&mut report.counts, redacted.counts);
        if !dry_run {
            let failed = |source| OffloadError::WriteFailed {
                path: path.clone(),
                source,
            };
            io.write_file(&path, &clean).await.map_err(failed)?;
            if let Some(index) = index_for(root, &path) {
                io.remove(&index)
                    .await
                    .map_err(|source| OffloadError::WriteFailed {
                        path: index.clone(),
                        source,
                    })?;
            }
        }
        report.rewritten.push(path);
    }
    crate::sort::sort_by(&mut report.counts, |a, b| {
        redaction.kind_order(&a.0).cmp(&redaction.kind_order(&b.0))
    });
    Ok(report)
}

/// Whether the file at `path` reads as bytes but not as text: not UTF-8.
async fn is_not_text<IO: FileReader + ?Sized>(io: &IO, path: &str) -> bool {
    let Ok(Some(size)) = io.size(path).await else {
        return false;
    };
    io.read_range(path, 0, size)
        .await
        .is_ok_and(|bytes| std::str::from_utf8(&bytes).is_err())
}
