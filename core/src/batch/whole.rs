//! A whole conversation at once: [`offload_tool_results`], and [`BatchPlan`] for hosts
//! that build their own copies of the changed messages.

use std::borrow::Cow;

use super::plan::{Batch, BatchOptions, PlannedMessage};
use crate::json::view::{JsonView, Text};
use crate::message::{with_contents, Slot};
use crate::{error::OffloadError, io::FileReader, io::FileWriter};
use serde_json::Value;

/// What a batch did, as edits for the host to apply to its own copies.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchEdits {
    /// For each changed message, by index: its slot → placeholder edits.
    pub changed: Vec<(usize, Vec<(Slot, String)>)>,
    /// Number of tool results offloaded.
    pub offloaded_count: usize,
    /// Sum of the original sizes of the offloaded contents, in UTF-16 code units.
    pub freed_chars: u64,
    /// Absolute paths written, in walk order.
    pub files: Vec<String>,
    /// Tool results seen, offloaded or not.
    pub tool_results: usize,
    /// Their total size in UTF-16 code units.
    pub tool_result_chars: u64,
    /// See [`PlannedMessage::unrecognized`], for the whole batch.
    pub unrecognized: Vec<String>,
}

/// [`offload_tool_results`] in two steps, for messages of any [`JsonView`]: plan every
/// message (validation, names; no IO), then write. Hosts that must build their output
/// copies before anything is written do so from [`BatchPlan::edits`] in between.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::{BatchOptions, BatchPlan, MemoryWriter};
/// let messages = [json!({"role": "tool", "tool_call_id": "c1", "content": "x".repeat(100)})];
/// let views: Vec<_> = messages.iter().collect();
/// let mut plan = BatchPlan::new(&views, &BatchOptions::new("out", "/w")).unwrap();
/// assert_eq!(plan.edits().changed[0].1[0].1, "[Content offloaded to: ./tool-result-c1.md]");
/// futures_executor::block_on(plan.write(&MemoryWriter::new())).unwrap();
/// ```
#[derive(Debug)]
pub struct BatchPlan<T> {
    batch: Batch,
    /// What was decided for each message, in order.
    pub messages: Vec<PlannedMessage<T>>,
}

impl<T: Text> BatchPlan<T> {
    /// Plan every message. See [`offload_tool_results`] for the rules and errors (all
    /// but `WRITE_FAILED` come from here).
    pub fn new<V: JsonView<Text = T>>(
        messages: &[V],
        options: &BatchOptions<'_>,
    ) -> Result<Self, OffloadError> {
        let mut batch = Batch::new(options)?;
        let messages = messages
            .iter()
            .enumerate()
            .map(|(i, m)| batch.plan(i, m))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(BatchPlan { batch, messages })
    }

    /// Write every planned file, in walk order; whether any result moved to another
    /// name because its planned one held different content (see [`Batch::write`]):
    /// then [`BatchPlan::edits`] has changed.
    ///
    /// # Errors
    /// `WRITE_FAILED` with the path when the writer fails.
    pub async fn write<W: FileWriter<T::Data> + FileReader + ?Sized>(
        &mut self,
        writer: &W,
    ) -> Result<bool, OffloadError> {
        self.batch.write_all(&mut self.messages, writer).await
    }

    /// The edits and counts of the whole batch.
    pub fn edits(&self) -> BatchEdits {
        let mut done = BatchEdits::default();
        for (index, message) in self.messages.iter().enumerate() {
            let offloads = message.offloads.iter().map(|o| {
                let (path, placeholder) = (o.path.clone(), o.placeholder.clone());
                (o.slot, path, placeholder, o.chars)
            });
            done.add(
                index,
                message,
                message.unrecognized.iter().cloned(),
                offloads,
            );
        }
        done
    }

    /// [`BatchPlan::edits`] for the last time: the paths and placeholders are moved
    /// out of the plan, not copied.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::{BatchOptions, BatchPlan};
    /// let messages = [json!({"role": "tool", "tool_call_id": "c1", "content": "x".repeat(100)})];
    /// let views: Vec<_> = messages.iter().collect();
    /// let plan = BatchPlan::new(&views, &BatchOptions::new("out", "/w")).unwrap();
    /// let expected = plan.edits();
    /// assert_eq!(plan.into_edits(), expected);
    /// ```
    pub fn into_edits(self) -> BatchEdits {
        let mut done = BatchEdits::default();
        for (index, mut message) in self.messages.into_iter().enumerate() {
            let offloads = std::mem::take(&mut message.offloads)
                .into_iter()
                .map(|o| (o.slot, o.path, o.placeholder, o.chars));
            let unrecognized = std::mem::take(&mut message.unrecognized);
            done.add(index, &message, unrecognized, offloads);
        }
        done
    }
}

impl BatchEdits {
    /// Count in the `index`-th message: its totals, its unrecognised items and its
    /// offloads (slot, path, placeholder, chars).
    fn add<T>(
        &mut self,
        index: usize,
        message: &PlannedMessage<T>,
        unrecognized: impl IntoIterator<Item = String>,
        offloads: impl ExactSizeIterator<Item = (Slot, String, String, usize)>,
    ) {
        self.tool_results += message.tool_results;
        self.tool_result_chars += message.tool_result_chars;
        self.unrecognized.extend(unrecognized);
        if offloads.len() == 0 {
            return;
        }
        let mut edits = Vec::with_capacity(offloads.len());
        for (slot, path, placeholder, chars) in offloads {
            self.offloaded_count += 1;
            self.freed_chars += chars as u64;
            self.files.push(path);
            edits.push((slot, placeholder));
        }
        self.changed.push((index, edits));
    }
}

/// What [`offload_tool_results`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchOffload<'a> {
    /// The conversation after offloading: unchanged messages borrowed from the input,
    /// changed ones as new deep copies.
    pub messages: Vec<Cow<'a, Value>>,
    /// Number of tool results offloaded.
    pub offloaded_count: usize,
    /// Sum of the original sizes of the offloaded contents, in UTF-16 code units.
    pub freed_chars: u64,
    /// Absolute paths written, in walk order.
    pub files: Vec<String>,
    /// Tool results seen, offloaded or not.
    pub tool_results: usize,
    /// Their total size in UTF-16 code units.
    pub tool_result_chars: u64,
    /// See [`PlannedMessage::unrecognized`], for the whole batch.
    pub unrecognized: Vec<String>,
}

/// Offload every tool result of at least `options.threshold` UTF-16 code units in a
/// conversation to `<output_dir>/tool-result-<id>.md`, replacing its content with
/// `[Content offloaded to: ./tool-result-<id>.md]`.
///
/// Tool results are Anthropic `tool_result` blocks, OpenAI Chat `role: "tool"`
/// messages and OpenAI Responses `function_call_output` items, in any mix. A string is
/// measured and written as is, an array as its `JSON.stringify`. The input is never
/// modified; unchanged messages are returned borrowed.
///
/// # Errors
/// `INVALID_MESSAGE`, `INVALID_ID` (before anything is written), `INVALID_ARGUMENT`,
/// `WRITE_FAILED`.
///
/// ```
/// use serde_json::json;
/// use std::borrow::Cow;
/// use tool_offload_core::{offload_tool_results, BatchOptions, MemoryWriter};
/// let messages = vec![
///     json!({"role": "user", "content": "hi"}),
///     json!({"role": "tool", "tool_call_id": "c1", "content": "x".repeat(150)}),
/// ];
/// let writer = MemoryWriter::new();
/// let done = futures_executor::block_on(
///     offload_tool_results(&messages, &BatchOptions::new("out", "/w"), &writer),
/// ).unwrap();
/// assert!(matches!(done.messages[0], Cow::Borrowed(_)));
/// assert_eq!(done.messages[1]["content"], "[Content offloaded to: ./tool-result-c1.md]");
/// assert_eq!((done.offloaded_count, done.freed_chars), (1, 150));
/// assert_eq!(writer.read("/w/out/tool-result-c1.md").unwrap().len(), 150);
/// ```
pub async fn offload_tool_results<'a, W: FileWriter + FileReader + ?Sized>(
    messages: &'a [Value],
    options: &BatchOptions<'_>,
    writer: &W,
) -> Result<BatchOffload<'a>, OffloadError> {
    offload_tool_results_through(messages, |m| m, options, writer).await
}

/// [`offload_tool_results`] reading each message through `view`, e.g.
/// [`LoneSurrogates::view`](crate::json::LoneSurrogates::view) for JSON text that held
/// escaped lone surrogates.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::{offload_tool_results_through, BatchOptions, MemoryWriter};
/// let messages = [json!({"role": "tool", "tool_call_id": "c1", "content": "x".repeat(100)})];
/// let writer = MemoryWriter::new();
/// let done = futures_executor::block_on(
///     offload_tool_results_through(&messages, |m| m, &BatchOptions::new("out", "/w"), &writer),
/// ).unwrap();
/// assert_eq!(done.offloaded_count, 1);
/// ```
pub async fn offload_tool_results_through<'a, V, W>(
    messages: &'a [Value],
    view: impl Fn(&'a Value) -> V,
    options: &BatchOptions<'_>,
    writer: &W,
) -> Result<BatchOffload<'a>, OffloadError>
where
    V: JsonView,
    W: FileWriter<<V::Text as Text>::Data> + FileReader + ?Sized,
{
    let views: Vec<V> = messages.iter().map(view).collect();
    let mut plan = BatchPlan::new(&views, options)?;
    plan.write(writer).await?;
    let done = plan.into_edits();
    let mut out: Vec<Cow<'a, Value>> = messages.iter().map(Cow::Borrowed).collect();
    for (index, edits) in done.changed {
        out[index] = Cow::Owned(with_contents(&messages[index], edits));
    }
    Ok(BatchOffload {
        messages: out,
        offloaded_count: done.offloaded_count,
        freed_chars: done.freed_chars,
        files: done.files,
        tool_results: done.tool_results,
        tool_result_chars: done.tool_result_chars,
        unrecognized: done.unrecognized,
    })
}
