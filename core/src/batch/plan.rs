//! A batch planned: its options, each message's plan, the offloads named and checked before anything is written.

use super::names::{FileNames, PREFIX, SUFFIX};
use crate::concurrent::{run_bounded, WRITE_CONCURRENCY};
use crate::create::{create_at_free_name, create_fresh, Creation, Same};
use crate::error::OffloadError;
use crate::forms::placeholder::batch_placeholder;
use crate::io::{FileReader, FileWriter};
use crate::json::view::{JsonView, Text};
use crate::message::{id_path, tool_results, At, Slot};
use crate::path::{join, resolve};
use crate::plan::{edits, PlannedOffload};
use std::cell::Cell;

/// The default threshold, in UTF-16 code units.
pub const DEFAULT_THRESHOLD: usize = 100;

/// Where and from what size to offload.
///
/// ```
/// use tool_offload_core::BatchOptions;
/// let options = BatchOptions { threshold: 4000, ..BatchOptions::new("artifacts", "/srv/app") };
/// assert_eq!(options.output_dir, "artifacts");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchOptions<'a> {
    /// Directory for the files; relative paths resolve against `cwd`.
    pub output_dir: &'a str,
    /// Absolute working directory.
    pub cwd: &'a str,
    /// Offload content of at least this many UTF-16 code units (empty content never).
    pub threshold: usize,
    /// Replace well-known secrets before anything is written
    /// ([`redact_offloads`](crate::plan::redact_offloads)); the threshold counts the content
    /// as it is in the message.
    pub redact: crate::redact::Redaction,
}

impl<'a> BatchOptions<'a> {
    /// [`BatchOptions::new`] with an empty `cwd`: the host fills it in with its working
    /// directory (the tokio host does; core alone needs an absolute `output_dir` then).
    ///
    /// ```
    /// use tool_offload_core::BatchOptions;
    /// let options = BatchOptions { threshold: 4000, ..BatchOptions::at("artifacts") };
    /// assert_eq!((options.output_dir, options.cwd), ("artifacts", ""));
    /// ```
    pub fn at(output_dir: &'a str) -> Self {
        Self::new(output_dir, "")
    }

    /// Options with the [default threshold](DEFAULT_THRESHOLD).
    pub fn new(output_dir: &'a str, cwd: &'a str) -> Self {
        BatchOptions {
            output_dir,
            cwd,
            threshold: DEFAULT_THRESHOLD,
            redact: crate::redact::Redaction::off(),
        }
    }
}

/// What [`Batch::plan`] decided for one message.
#[derive(Debug)]
pub struct PlannedMessage<T> {
    /// Tool results at or over the threshold, in order.
    pub offloads: Vec<PlannedOffload<T>>,
    /// Tool results seen in the message, offloaded or not.
    pub tool_results: usize,
    /// Their total size in UTF-16 code units.
    pub tool_result_chars: u64,
    /// Paths of the items that look like tool results but are of no shape we know
    /// (`messages[3]`, `messages[2].content[1]`): reported, never silently skipped.
    pub unrecognized: Vec<String>,
}

impl<T> PlannedMessage<T> {
    /// The slot → placeholder edits that turn the message into its offloaded copy.
    pub fn edits(&self) -> Vec<(Slot, String)> {
        edits(&self.offloads)
    }
}

/// Batch offloading state that lasts a whole conversation (or stream of messages):
/// the output directory and the file names already given out.
///
/// Use [`offload_tool_results`](super::offload_tool_results) or [`BatchPlan`](super::BatchPlan) for whole arrays; `Batch`
/// itself serves streams: [`plan`](Batch::plan) each message (validation and naming, no
/// IO), then [`write`](Batch::write) it.
///
/// ```
/// use serde_json::json;
/// use tool_offload_core::{Batch, BatchOptions, MemoryWriter};
/// let mut batch = Batch::new(&BatchOptions { threshold: 3, ..BatchOptions::new("out", "/w") }).unwrap();
/// let message = json!({"role": "tool", "tool_call_id": "c1", "content": "long"});
/// let mut planned = batch.plan(0, &&message).unwrap();
/// assert_eq!(planned.offloads[0].path, "/w/out/tool-result-c1.md");
/// let moved = futures_executor::block_on(batch.write(&mut planned, &MemoryWriter::new())).unwrap();
/// assert!(!moved); // the planned name was free
/// ```
#[derive(Debug)]
pub struct Batch {
    dir: String,
    threshold: usize,
    redact: crate::redact::Redaction,
    dir_created: bool,
    names: FileNames,
}

impl Batch {
    /// A batch writing under `options.output_dir`.
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` when `options.cwd` is not absolute or a path holds NUL.
    pub fn new(options: &BatchOptions<'_>) -> Result<Self, OffloadError> {
        Ok(Batch {
            dir: resolve(options.cwd, options.output_dir)?,
            threshold: options.threshold,
            redact: options.redact.clone(),
            dir_created: false,
            names: FileNames::default(),
        })
    }

    /// The absolute output directory.
    pub fn dir(&self) -> &str {
        &self.dir
    }

    /// Decide which tool results of `message` (the `index`-th of the conversation) to
    /// offload and name their files: the first offloaded result with an id gets
    /// `tool-result-<id>.md`, later ones `tool-result-<id>-1.md`, `-2`, … (skipping names
    /// already given out, so no file of the batch is ever overwritten). Validates, but
    /// writes nothing.
    ///
    /// # Errors
    /// `INVALID_MESSAGE` for a malformed message; `INVALID_ID` for an offloaded result
    /// whose id cannot name a file.
    pub fn plan<V: JsonView>(
        &mut self,
        index: usize,
        message: &V,
    ) -> Result<PlannedMessage<V::Text>, OffloadError> {
        let mut unrecognized = Vec::new();
        let found = tool_results(
            message,
            At::Index(index),
            PREFIX.len() + SUFFIX.len(),
            &mut unrecognized,
        )?;
        let mut planned = PlannedMessage {
            offloads: Vec::new(),
            tool_results: found.len(),
            tool_result_chars: 0,
            unrecognized,
        };
        for result in found {
            let chars = result.chars();
            planned.tool_result_chars += chars as u64;
            // Empty content saves nothing; what already stands for stored content (a
            // placeholder, whose file writing it again would overwrite; a summary, a
            // knowledge list, a page read back) stays ([`crate::stored_form::stored_form`]).
            if chars == 0 || chars < self.threshold || result.text.stored_form().is_some() {
                continue;
            }
            let id = result.id()?;
            let name = self
                .claim_name(&id)
                .ok_or_else(|| OffloadError::InvalidId {
                    field: id_path(At::Index(index), result.slot),
                    value: Some(id.clone()),
                    reason: "makes a file name longer than 255 bytes",
                })?;
            planned.offloads.push(PlannedOffload {
                id,
                slot: result.slot,
                path: join(&self.dir, &name),
                placeholder: batch_placeholder(&name),
                chars,
                text: result.text,
            });
        }
        if self.redact.is_on() {
            crate::plan::redact_offloads(&mut planned.offloads, &self.redact);
        }
        Ok(planned)
    }

    /// Write the files of a planned message, creating the output directory first if
    /// this batch has not yet. Files are created exclusively
    /// ([`FileWriter::create_file`]): a planned name that already holds the same text is
    /// reused (so a re-run writes nothing new), and one that holds different content —
    /// from an earlier run into the same directory, or another process — is never
    /// overwritten: the result moves to the next free `-N` name, and its `path` and
    /// `placeholder` in `planned` change with it.
    ///
    /// Returns whether any result moved.
    ///
    /// # Errors
    /// `WRITE_FAILED` with the path when the writer fails; `READ_FAILED` when the
    /// reader fails; `INVALID_ID` when the next free name would be too long.
    pub async fn write<T, W>(
        &mut self,
        planned: &mut PlannedMessage<T>,
        writer: &W,
    ) -> Result<bool, OffloadError>
    where
        T: Text,
        W: FileWriter<T::Data> + FileReader + ?Sized,
    {
        self.write_all(std::slice::from_mut(planned), writer).await
    }

    /// [`Batch::write`] for several planned messages at once. Every planned name is
    /// distinct within the batch, so the first attempts run side by side (at most
    /// [`WRITE_CONCURRENCY`] at a time); the results whose names turn out to be taken
    /// then move to free names one after another, in walk order, exactly as if each had
    /// been written in turn. After a failure no further write starts; the error is the
    /// first in walk order.
    pub(super) async fn write_all<T, W>(
        &mut self,
        messages: &mut [PlannedMessage<T>],
        writer: &W,
    ) -> Result<bool, OffloadError>
    where
        T: Text,
        W: FileWriter<T::Data> + FileReader + ?Sized,
    {
        let mut offloads: Vec<&mut PlannedOffload<T>> = messages
            .iter_mut()
            .flat_map(|m| m.offloads.iter_mut())
            .collect();
        if offloads.is_empty() {
            return Ok(false);
        }
        if !self.dir_created {
            writer
                .mkdir(&self.dir)
                .await
                .map_err(crate::create::dir_failed(&self.dir))?;
            self.dir_created = true;
        }
        let failed = Cell::new(false);
        let attempts = offloads
            .iter()
            .map(|offload| {
                let failed = &failed;
                async move {
                    if failed.get() {
                        return None;
                    }
                    // The file holds the text as UTF-8 (a lone surrogate as U+FFFD), as `to_str`.
                    let same = Same::Text(|existing: &str| offload.text.to_str() == existing);
                    let created =
                        create_fresh(writer, &offload.path, offload.text.data(), &same).await;
                    failed.set(created.is_err());
                    Some(created)
                }
            })
            .collect();
        let outcomes = run_bounded(attempts, WRITE_CONCURRENCY).await;
        let mut taken = Vec::new();
        for (index, outcome) in outcomes.into_iter().enumerate() {
            match outcome {
                Some(Ok(Creation::Created | Creation::Same)) => {}
                Some(Ok(Creation::Taken)) => taken.push(index),
                Some(Err(err)) => return Err(err),
                // Skipped: only after a failure, which an earlier outcome returned.
                None => break,
            }
        }
        for &index in &taken {
            self.move_to_free_name(offloads[index], writer).await?;
        }
        Ok(!taken.is_empty())
    }

    /// Write `offload`, whose planned name holds other content, at the next free name.
    async fn move_to_free_name<T, W>(
        &mut self,
        offload: &mut PlannedOffload<T>,
        writer: &W,
    ) -> Result<(), OffloadError>
    where
        T: Text,
        W: FileWriter<T::Data> + FileReader + ?Sized,
    {
        let same = Same::Text(|existing: &str| offload.text.to_str() == existing);
        let (dir, id) = (&self.dir, &offload.id);
        let names = &mut self.names;
        let mut name = String::new();
        // Candidate 0, the planned name, is taken: the search goes on from 1.
        let placed = create_at_free_name(writer, offload.text.data(), &same, 1, |_| {
            name = names.claim(id).ok_or_else(|| OffloadError::InvalidId {
                field: "tool result id".into(),
                value: Some(id.clone()),
                reason: "makes a file name longer than 255 bytes",
            })?;
            Ok(join(dir, &name))
        })
        .await?;
        offload.path = placed.path;
        offload.placeholder = batch_placeholder(&name);
        Ok(())
    }

    /// The file name for the next offloaded result with `id`, or `None` if too long.
    fn claim_name(&mut self, id: &str) -> Option<String> {
        self.names.claim(id)
    }
}
