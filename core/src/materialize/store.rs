//! Storing outputs: each decided first, in full, then written. The decision (redaction,
//! measure, limits, a host's token counter) runs before the returned future, which holds
//! neither the counter nor anything of the host's, so a host with `Send` IO gets a
//! `Send` future whatever its counter is.

use std::future::Future;
use std::sync::atomic::Ordering;

use super::materializer::Materializer;
use super::messages::output_of;
use super::types::Materialized;
use crate::create::Payload;
use crate::forms::context_ref::{ContextRef, RefHint};
use crate::forms::reference;
use crate::forms::reference::unsafe_ref_component;
use crate::forms::reference::ArtifactKind;
use crate::message::Planned;
use crate::read::line_index::{LineIndex, INDEX_STEP};
use crate::summary::ToolOutputRef;
use crate::summary::{summary, SummaryInput};
use crate::text::measure::{line_count, Measure};
use crate::{error::OffloadError, io::FileReader, io::FileWriter, tokens::TokenCounter};

/// An output decided on and to be stored: what is written, measured once.
pub(crate) struct ToStore<'a> {
    kind: ArtifactKind,
    stem: &'a str,
    output: ToolOutputRef<'a>,
    /// The text with its secrets replaced, when `redact` found any: it is what is
    /// written and summarised.
    redacted: Option<String>,
    /// The secrets replaced, by kind.
    redacted_counts: Vec<(String, usize)>,
    measure: Measure,
    /// Over [`INDEX_STEP`], the line index (it counted the lines).
    index: Option<LineIndex>,
    repeated_end: Option<usize>,
}

/// What [`Materializer::decide_store`] decided.
pub(crate) enum Decision<'a> {
    /// It stays inline: as it is, or (with `redact`) as this text.
    Inline(Option<String>),
    /// It is stored.
    Store(ToStore<'a>),
}

impl Materializer {
    /// An output that stays inline, as the model gets it: redacted when `redact` finds
    /// secrets in `text`.
    pub(crate) fn inline(&self, text: &str) -> Materialized {
        match self.options().redact.apply(text).text {
            std::borrow::Cow::Owned(content) => Materialized::Redacted { content },
            std::borrow::Cow::Borrowed(_) => Materialized::Inline,
        }
    }

    /// Materialize `output` as artifact `<stem>.<ext>` of `kind` — with `always`, whatever
    /// its size (the budget stores an inline result before it clears it); when a different
    /// artifact already has that name, as `<stem>-1.<ext>`, `<stem>-2.<ext>`… (an identical
    /// one is reused), so no artifact is ever overwritten. `chars` is the text's length
    /// when known; `repeated_end` where it ends as an earlier output did
    /// ([`SummaryInput::repeated_end`]); tokens by `count_tokens` when given.
    pub(crate) fn store_as<'a, IO: FileWriter + FileReader + ?Sized>(
        &'a self,
        (kind, stem): (ArtifactKind, &'a str),
        output: &ToolOutputRef<'a>,
        ends: (Option<usize>, Option<usize>),
        always: bool,
        count_tokens: Option<&TokenCounter<'_>>,
        io: &'a IO,
    ) -> impl Future<Output = Result<Materialized, OffloadError>> + 'a {
        let decided = self.decide_store(kind, stem, output, ends, always, count_tokens);
        async move {
            match decided? {
                Decision::Inline(None) => Ok(Materialized::Inline),
                Decision::Inline(Some(content)) => Ok(Materialized::Redacted { content }),
                Decision::Store(to_store) => self.write_decided(to_store, io).await,
            }
        }
    }

    /// Whether `output` is stored (else it stays inline, redacted with `redact`, and is
    /// counted so), decided now: see [`Materializer::store_as`].
    ///
    /// # Errors
    /// `INVALID_ID`; the counter's own.
    pub(crate) fn decide_store<'a>(
        &self,
        kind: ArtifactKind,
        stem: &'a str,
        output: &ToolOutputRef<'a>,
        (chars, repeated_end): (Option<usize>, Option<usize>),
        always: bool,
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<Decision<'a>, OffloadError> {
        // Checked whatever the size, so a bad id fails for every output (with room for
        // the shortest extension here, the actual one once it is known).
        if let Some(reason) = unsafe_ref_component(stem, ".txt".len()) {
            return Err(OffloadError::InvalidId {
                field: kind.id_field().into(),
                value: Some(stem.into()),
                reason,
            });
        }
        // With `redact`, the secrets go before anything else sees the text: what is
        // measured, written and summarised is the redacted text.
        let crate::redact::Redacted {
            text: redacted,
            counts: redacted_counts,
        } = self.options().redact.apply(output.text);
        let redacted = match redacted {
            std::borrow::Cow::Owned(text) => Some(text),
            std::borrow::Cow::Borrowed(_) => None,
        };
        // (Offsets into the text given do not hold in a redacted one.)
        let (text, chars, repeated_end) = match &redacted {
            Some(text) => (text.as_str(), None, None),
            None => (output.text, chars, repeated_end),
        };
        // Measured once: the sizes decide, and then go in the summary and the ref. Over
        // INDEX_STEP the line index counts the lines: one pass over the newlines.
        let bytes = text.as_bytes();
        let index = (bytes.len() as u64 > INDEX_STEP).then(|| LineIndex::of(bytes));
        let measure = Measure {
            bytes: bytes.len(),
            chars: chars.unwrap_or_else(|| crate::text::utf16_len(text)),
            lines: index
                .as_ref()
                .map_or_else(|| line_count(bytes), |index| index.lines),
        };
        // What already stands for stored content — a page our read-back tools returned
        // (bounded, and a knowledge page can be over these limits), a summary, a
        // placeholder, a knowledge list — is never stored again, whatever its size.
        if crate::forms::stored_form::stored_form(text).is_some()
            || !(always || self.counted_exceeds(&measure, text, output.tool_name, count_tokens)?)
        {
            self.inlined.fetch_add(1, Ordering::Relaxed);
            return Ok(Decision::Inline(redacted));
        }
        Ok(Decision::Store(ToStore {
            kind,
            stem,
            output: *output,
            redacted,
            redacted_counts,
            measure,
            index,
            repeated_end,
        }))
    }

    /// Write what [`Materializer::decide_store`] decided to store, and summarise it.
    ///
    /// # Errors
    /// `WRITE_FAILED` (or `READ_FAILED` when the name's current holder cannot be read).
    pub(crate) async fn write_decided<IO: FileWriter + FileReader + ?Sized>(
        &self,
        to_store: ToStore<'_>,
        io: &IO,
    ) -> Result<Materialized, OffloadError> {
        let ToStore {
            kind,
            stem,
            output,
            redacted,
            redacted_counts,
            measure,
            index,
            repeated_end,
        } = to_store;
        let output = ToolOutputRef {
            text: redacted.as_deref().unwrap_or(output.text),
            ..output
        };
        let is_json = kind != ArtifactKind::Terminal
            && (output.was_value || crate::json::is_json_document(output.text));
        let ext = match kind {
            ArtifactKind::Terminal => "log",
            _ if is_json => "json",
            _ => "txt",
        };
        let text = Payload::Text(output.text);
        let (file, path) = self.place(kind, (stem, ext), text, io).await?;
        let bit = 1 << kind as u8;
        if let Some(index) = &index {
            // The index directories' bits follow the artifact directories'.
            self.artifacts
                .write_index(&path, index, Some(bit << 3), io)
                .await;
        }

        let id = reference::mint(&self.options().conversation_id, kind, &file);
        let text = summary(&SummaryInput {
            reference: &id,
            output,
            kind,
            measure,
            is_json,
            snippet_lines: self.options().snippet_lines,
            snippet_bytes: self.options().snippet_bytes,
            max_chars: self.page_chars(),
            repeated_end,
        });
        self.hits.fetch_add(1, Ordering::Relaxed);
        self.saved_chars.fetch_add(
            measure.chars.saturating_sub(crate::text::utf16_len(&text)) as u64,
            Ordering::Relaxed,
        );
        let hint = RefHint {
            tool_name: output.tool_name.into(),
            server_name: output.server_name.map(str::to_owned),
            tool_call_id: output.tool_call_id.into(),
            bytes: measure.bytes,
            chars: measure.chars,
            lines: measure.lines,
            is_json,
            redacted: redacted_counts,
        };
        Ok(Materialized::Artifact {
            summary: text,
            reference: ContextRef { id, hint },
            path,
        })
    }

    /// Which of `planned` are stored (with `always`, whatever its size): decided on
    /// what would be written (redacted, measured), before anything is.
    ///
    /// # Errors
    /// `INVALID_ID`; the counter's own.
    pub(crate) fn decide_planned(
        &self,
        planned: &[&Planned],
        always: bool,
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<Vec<bool>, OffloadError> {
        let mut stores = Vec::with_capacity(planned.len());
        for p in planned {
            let output = output_of(p);
            let ends = (None, p.repeated_end);
            let kind = ArtifactKind::Tool;
            let to_store = self.decide_store(kind, &p.id, &output, ends, always, count_tokens)?;
            stores.push(matches!(to_store, Decision::Store(_)));
        }
        Ok(stores)
    }

    /// Store each of `planned` in turn (with `always`, whatever its size), stopping at
    /// the first failure — or, when [`Materializer::decide_planned`] decided already,
    /// each it said `stores` (the others are `Inline`). Materializing and the budget both
    /// store through here, so the wasm holds one copy of storing.
    pub(crate) async fn store_planned<IO: FileWriter + FileReader + ?Sized>(
        &self,
        planned: &[&Planned],
        always: bool,
        stores: Option<&[bool]>,
        io: &IO,
    ) -> Result<Vec<Materialized>, OffloadError> {
        let mut out = Vec::with_capacity(planned.len());
        for (i, p) in planned.iter().enumerate() {
            if stores.is_some_and(|stores| !stores[i]) {
                out.push(self.inline(&p.text));
                continue;
            }
            let output = output_of(p);
            let ends = (None, p.repeated_end);
            let always = always || stores.is_some();
            let kind = ArtifactKind::Tool;
            out.push(
                self.store_as((kind, &p.id), &output, ends, always, None, io)
                    .await?,
            );
        }
        Ok(out)
    }
}
