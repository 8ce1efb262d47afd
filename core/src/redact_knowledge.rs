//! Redacting workspace knowledge already stored: the content and its record together,
//! and the namespace's index with the record. The record holds the content's sizes and
//! SHA-256, and its metadata may hold secrets of its own, so both are rewritten — the
//! record first, then its row in the index, then the content: a crash between them
//! leaves a record describing the redacted content beside the content still holding its
//! secrets, which the next run finds and finishes the same way (the index included).

use std::borrow::Cow;

use crate::sha256::sha256_hex;

use crate::redact::{add_counts, Redaction};
use crate::text::measure::Measure;
use crate::workspace::{KnowledgeRecord, RecordIndex};
use crate::{error::OffloadError, io::FileLifecycle, io::FileReader, io::FileWriter};
use serde_json::Value;

/// `<root>/context/<namespace>/artifacts/knowledge/<file>`: the namespace and the file.
pub(crate) fn knowledge_file<'a>(root: &str, path: &'a str) -> Option<(&'a str, &'a str)> {
    let rel = path.strip_prefix(root)?.strip_prefix("/context/")?;
    let (namespace, file) = crate::search::split_once(rel, "/artifacts/knowledge/")?;
    (!file.contains('/')).then_some((namespace, file))
}

/// What redacting one knowledge artifact found.
pub(crate) struct KnowledgeRedacted {
    /// Kinds of secrets replaced in the content and the record, with their counts.
    pub(crate) counts: Vec<(String, usize)>,
    /// Whether its record was rewritten (its namespace's index is then stale).
    pub(crate) record_rewritten: bool,
    /// What the report names as rewritten: the content, or the record when only its
    /// metadata held secrets.
    pub(crate) rewritten: String,
}

/// Redact the knowledge content `text` at `path` (of `namespace` under `root`) and its
/// record, and put the record as rewritten into the namespace's `index` when it has
/// one: `None` when neither holds a secret. With `dry_run`, nothing is written. A
/// content without a record (a store that crashed before its commit point) or with a
/// record that does not parse has only its content rewritten.
///
/// # Errors
/// `READ_FAILED` when the record cannot be read, `WRITE_FAILED` when a write (the
/// index's too) fails.
pub(crate) async fn redact_knowledge<IO>(
    (root, namespace, file): (&str, &str, &str),
    path: &str,
    text: &str,
    (redaction, dry_run, index): (&Redaction, bool, Option<&dyn RecordIndex>),
    io: &IO,
) -> Result<Option<KnowledgeRedacted>, OffloadError>
where
    IO: FileReader + FileWriter + FileLifecycle + ?Sized,
{
    let id = file
        .strip_suffix(".txt")
        .or_else(|| file.strip_suffix(".json"))
        .unwrap_or(file);
    let record_path = format!("{root}/context/{namespace}/records/{id}.json");
    let record = io
        .read_file(&record_path)
        .await
        .map_err(|source| OffloadError::ReadFailed {
            path: record_path.clone(),
            source,
        })?
        .and_then(|record| KnowledgeRecord::parse(&record).ok())
        .filter(|record| record.id == id);
    let content = redaction.apply(text);
    let mut counts = content.counts.clone();
    let mut record = record;
    // What the record will count: the content's secrets, unless a run that stopped
    // before the content's write counted them already (its record describes the
    // redacted content), and the record's own.
    let mut record_counts = Vec::new();
    if let Some(record) = &mut record {
        let mut own = Vec::new();
        for (key, value) in record.metadata.iter_mut() {
            if key != crate::workspace::REDACTED_FACT {
                redact_strings(value, redaction, &mut own);
            }
        }
        if record.sha256() != Some(sha256_hex(&content.text).as_str()) {
            record_counts = content.counts;
        }
        add_counts(&mut record_counts, own.clone());
        add_counts(&mut counts, own);
    }
    if counts.is_empty() {
        return Ok(None);
    }
    // The facts of the content as it will be (a record may have been rewritten already
    // by a run that stopped before the content).
    let rewritten_record = record.map(|mut record| {
        let measure = Measure::of(&content.text);
        let facts = [
            ("chars", measure.chars.into()),
            ("bytes", measure.bytes.into()),
            ("lines", measure.lines.into()),
            ("sha256", sha256_hex(&content.text).into()),
        ];
        for (key, value) in facts {
            record.metadata.insert(key.into(), value);
        }
        crate::workspace::add_redacted_fact(&mut record.metadata, &record_counts);
        record
    });
    let failed = |path: &str| {
        let path = path.to_owned();
        move |source| OffloadError::WriteFailed { path, source }
    };
    if !dry_run {
        if let Some(record) = &rewritten_record {
            let written = io.write_file(&record_path, &record.to_json()).await;
            written.map_err(failed(&record_path))?;
            // A sync adds and drops ids only: a record rewritten in place is put in
            // again here, or the index would describe content no longer there.
            if let Some(index) = index {
                index.insert(std::slice::from_ref(record)).await?;
            }
        }
        if let Cow::Owned(clean) = &content.text {
            io.write_file(path, clean).await.map_err(failed(path))?;
            if let Some(index) = crate::gc::index_for(root, path) {
                io.remove(&index).await.map_err(failed(&index))?;
            }
        }
    }
    let rewritten = match content.text {
        Cow::Owned(_) => path.to_owned(),
        Cow::Borrowed(_) => record_path,
    };
    Ok(Some(KnowledgeRedacted {
        counts,
        record_rewritten: rewritten_record.is_some(),
        rewritten,
    }))
}

/// Every string in `value` with its secrets replaced, their kinds added to `counts`.
fn redact_strings(value: &mut Value, redaction: &Redaction, counts: &mut Vec<(String, usize)>) {
    match value {
        Value::String(text) => {
            let redacted = redaction.apply(text);
            if let Cow::Owned(clean) = redacted.text {
                add_counts(counts, redacted.counts);
                *text = clean;
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|v| redact_strings(v, redaction, counts)),
        Value::Object(fields) => fields
            .values_mut()
            .for_each(|v| redact_strings(v, redaction, counts)),
        _ => {}
    }
}

#[cfg(test)]
#[path = "redact_knowledge_tests.rs"]
mod tests;
