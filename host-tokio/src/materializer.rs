//! [`Materializer`] for Rust users: core's materializer on tokio.

use std::path::Path;

use std::borrow::Cow;

use tool_offload_core::materialize::{
    self, ContextRef, ImportedConversation, MaterializeStats, Materialized, MaterializerOptions,
};
use tool_offload_core::{apply_edits, FileReader, FileWriter, OffloadError, Value};

pub use tool_offload_core::materialize::ToolOutputInput;

use crate::count::{fallible, CountTokens, TryCountTokens};
use crate::paths::{fill_cwd, utf8, working_dir_for};
use crate::remind::{remind, MaterializeMessagesOptions};
use crate::writer::TokioFileWriter;

/// Options of [`Materializer::grep`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrepOptions {
    /// Rows of context around each match (default 2).
    pub context: usize,
    /// Matches shown at most (default 50).
    pub max_matches: usize,
    /// Match case-insensitively.
    pub ignore_case: bool,
}

impl Default for GrepOptions {
    fn default() -> Self {
        GrepOptions {
            context: materialize::DEFAULT_CONTEXT,
            max_matches: materialize::DEFAULT_MAX_MATCHES,
            ignore_case: false,
        }
    }
}

/// Moves tool outputs over the inline limits into artifacts of one conversation and
/// reads them back for the model (see [`tool_offload_core::materialize`]).
///
/// ```no_run
/// use serde_json::json;
/// use tool_offload::{Materializer, MaterializerOptions, ToolOutputInput};
/// use tool_offload::core::materialize::Materialized;
/// # async fn demo() -> Result<(), tool_offload::OffloadError> {
/// let materializer = Materializer::new(MaterializerOptions::at("/var/lib/agent", "conv-1"))?;
/// let log = json!("…a 200 KB build log…");
/// let out = ToolOutputInput { tool_call_id: "call_1", tool_name: "bash", server_name: None, output: &log };
/// if let Materialized::Artifact { summary, reference, .. } = materializer.materialize(&out).await? {
///     println!("{summary}");
///     println!("{}", materializer.tail(&reference.id, 50).await?);
/// }
/// # Ok(()) }
/// ```
pub struct Materializer<IO = TokioFileWriter> {
    core: materialize::Materializer,
    io: IO,
    pub(crate) count_tokens: Option<TryCountTokens>,
}

impl Materializer {
    /// A materializer writing and reading with a [`TokioFileWriter`].
    ///
    /// # Errors
    /// `INVALID_ID` for a conversation id that cannot name a directory;
    /// `INVALID_ARGUMENT` for a path that is not UTF-8.
    pub fn new(options: MaterializerOptions) -> Result<Self, OffloadError> {
        Self::with_io(options, TokioFileWriter::new())
    }

    /// A materializer with the default limits writing under `user_data` (relative: to
    /// the working directory) for `conversation_id`.
    ///
    /// ```no_run
    /// let materializer = tool_offload::Materializer::in_dir("/var/lib/agent", "conv-1").unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`Materializer::new`].
    pub fn in_dir(
        user_data: impl AsRef<Path>,
        conversation_id: impl Into<String>,
    ) -> Result<Self, OffloadError> {
        let user_data = utf8(user_data.as_ref(), "user data directory")?;
        Self::new(MaterializerOptions::at(user_data, conversation_id))
    }
}

impl<IO: FileWriter + FileReader + Send + Sync> Materializer<IO> {
    /// A materializer over any writer-and-reader.
    ///
    /// # Errors
    /// As [`Materializer::new`].
    pub fn with_io(mut options: MaterializerOptions, io: IO) -> Result<Self, OffloadError> {
        fill_cwd(&mut options.cwd, &options.user_data)?;
        let core = materialize::Materializer::new(options)?;
        Ok(Materializer {
            core,
            io,
            count_tokens: None,
        })
    }

    /// This materializer counting tokens (a `tools` entry's `max_inline_tokens`, the
    /// context window) with `count` — exactly with the feature `tokenizer`'s
    /// [`token_counter`](crate::tokens::token_counter) — instead of core's
    /// [`estimate_tokens`](tool_offload_core::estimate_tokens). It is asked only about
    /// outputs longer in UTF-8 bytes than the limit (so it must not count more tokens
    /// than bytes), and for the window about every message.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// let m = tool_offload::Materializer::in_dir("/var/lib/agent", "conv-1").unwrap()
    ///     .with_token_counter(Arc::new(|text: &str| text.len() / 3));
    /// ```
    pub fn with_token_counter(mut self, count: CountTokens) -> Self {
        self.count_tokens = Some(fallible(count));
        self
    }

    /// [`Materializer::with_token_counter`] with a counter that may fail: its error fails
    /// the call that asked (materialize, budget…) at once.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use tool_offload::OffloadError;
    /// let m = tool_offload::Materializer::in_dir("/var/lib/agent", "conv-1").unwrap()
    ///     .with_fallible_token_counter(Arc::new(|text: &str| match text.len() {
    ///         n if n < 1 << 30 => Ok(n / 3),
    ///         _ => Err(OffloadError::InvalidArgument("too long to count".into())),
    ///     }));
    /// ```
    pub fn with_fallible_token_counter(mut self, count: TryCountTokens) -> Self {
        self.count_tokens = Some(count);
        self
    }

    /// The token counter as core takes it, when one was given
    /// ([`Materializer::with_token_counter`]): for calls made on [`Materializer::core`].
    pub fn counter(&self) -> Option<Box<tool_offload_core::TokenCounter<'static>>> {
        crate::count::core_counter(self.count_tokens.as_ref())
    }

    /// Leave the output inline when within both limits; otherwise write it first and
    /// return its summary and ref.
    ///
    /// # Errors
    /// `INVALID_ID`, `WRITE_FAILED`.
    pub async fn materialize(
        &self,
        output: &ToolOutputInput<'_>,
    ) -> Result<Materialized, OffloadError> {
        let (text, was_value) = materialize::output_text(output.output);
        let out = output.with_text(&text, was_value);
        // The counter is dropped before the await: the future stays `Send`.
        let stored = {
            let counter = self.counter();
            self.core
                .materialize_counted(&out, None, counter.as_deref(), &self.io)
        };
        let done = stored.await?;
        trace(&done);
        Ok(done)
    }

    /// A binary output (an image, an archive, any bytes): stored as it is in
    /// `…/artifacts/tool/<tool_call_id>.bin` whatever its size, never shown; the summary
    /// names its size and kind (see [`materialize::Materializer::materialize_binary`]).
    ///
    /// ```no_run
    /// # async fn demo(m: tool_offload::Materializer, png: Vec<u8>) -> Result<(), tool_offload::OffloadError> {
    /// use tool_offload::core::materialize::BinaryOutputRef;
    /// let output = BinaryOutputRef { tool_call_id: "shot", tool_name: "screenshot", server_name: None, bytes: &png };
    /// let done = m.materialize_binary(&output).await?; // "… binary data, 48,213 bytes, looks like a PNG image …"
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `INVALID_ID`, `WRITE_FAILED`, `READ_FAILED`.
    pub async fn materialize_binary(
        &self,
        output: &materialize::BinaryOutputRef<'_>,
    ) -> Result<Materialized, OffloadError> {
        let done = self.core.materialize_binary(output, &self.io).await?;
        trace(&done);
        Ok(done)
    }

    /// Terminal output: over the limits, `text` goes to
    /// `…/artifacts/terminal/<snippet_id>.log` with the same summary and ref.
    ///
    /// # Errors
    /// `INVALID_ID`, `WRITE_FAILED`.
    pub async fn materialize_terminal(
        &self,
        snippet_id: &str,
        text: &str,
    ) -> Result<Materialized, OffloadError> {
        let done = self
            .core
            .materialize_terminal(snippet_id, text, &self.io)
            .await?;
        trace(&done);
        Ok(done)
    }

    /// Every oversize tool result of a conversation (Anthropic `tool_result`, OpenAI
    /// `role: "tool"`, Responses `function_call_output`) gets its summary as content;
    /// content that already is a summary is left alone, so this can run every turn.
    /// Unchanged messages come back borrowed.
    ///
    /// # Errors
    /// `INVALID_MESSAGE`, `INVALID_ID` (before anything is written), `WRITE_FAILED`.
    pub async fn materialize_messages<'a>(
        &self,
        messages: &'a [Value],
    ) -> Result<MaterializedMessages<'a>, OffloadError> {
        self.materialize_messages_with(messages, &MaterializeMessagesOptions::default())
            .await
    }

    /// [`Materializer::materialize_messages`] with `options`: with `remind_unread`, one
    /// line at the end of the last user turn names the results that reported errors and
    /// that no later tool call read back (a user message is added when the last message
    /// is not the user's); earlier messages are never touched.
    ///
    /// # Errors
    /// As [`Materializer::materialize_messages`].
    pub async fn materialize_messages_with<'a>(
        &self,
        messages: &'a [Value],
        options: &MaterializeMessagesOptions,
    ) -> Result<MaterializedMessages<'a>, OffloadError> {
        let views: Vec<&Value> = messages.iter().collect();
        // The counter is dropped before the await: the future stays `Send`.
        let stored = {
            let counter = self.counter();
            self.core
                .materialize_messages_counted(&views, counter.as_deref(), &self.io)
        };
        let done = stored.await?;
        let mut out: Vec<Cow<'a, Value>> = messages.iter().map(Cow::Borrowed).collect();
        for (index, edits) in done.changed {
            let mut message = messages[index].clone();
            apply_edits(&mut message, edits);
            out[index] = Cow::Owned(message);
        }
        for (reference, path) in done.refs.iter().zip(&done.paths) {
            trace_artifact(reference, path);
        }
        if options.remind_unread {
            remind(&mut out);
        }
        Ok(MaterializedMessages {
            messages: out,
            refs: done.refs,
            paths: done.paths,
            unrecognized: done.unrecognized,
        })
    }

    /// One self-contained bundle of `messages` and every artifact of this conversation
    /// they refer to, each with its SHA-256; restore it with [`import_conversation`].
    ///
    /// # Errors
    /// `REF_NOT_FOUND` when a referred artifact is missing; `READ_FAILED`.
    pub async fn export_conversation(&self, messages: &[Value]) -> Result<Value, OffloadError> {
        self.core
            .export_conversation(&Value::Array(messages.to_vec()), &self.io)
            .await
    }

    /// Counts over this materializer's lifetime.
    pub fn stats(&self) -> MaterializeStats {
        self.core.stats()
    }

    /// The conversation this materializer writes and reads.
    pub fn conversation_id(&self) -> &str {
        &self.core.options().conversation_id
    }

    /// The core materializer, for what this host does not wrap.
    pub fn core(&self) -> &materialize::Materializer {
        &self.core
    }

    /// The writer-and-reader in use.
    pub fn io(&self) -> &IO {
        &self.io
    }
}

/// What [`Materializer::materialize_messages`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct MaterializedMessages<'a> {
    /// The conversation after materializing: unchanged messages borrowed, changed ones
    /// as new copies.
    pub messages: Vec<Cow<'a, Value>>,
    /// The refs of the artifacts written, in walk order.
    pub refs: Vec<ContextRef>,
    /// Their absolute paths.
    pub paths: Vec<String>,
    /// Paths of the items that look like tool results but are of no shape we know
    /// (`messages[3]`, `messages[2].content[1]`): left as they are, and reported here.
    pub unrecognized: Vec<String>,
}

/// Restore a bundle from [`Materializer::export_conversation`] under `user_data` with a
/// [`TokioFileWriter`]: every ref in its messages resolves again. Refuses (before
/// writing anything) a bundle whose hashes do not match or whose paths would land
/// outside the conversation's artifacts, and never overwrites a different file.
///
/// # Errors
/// `INVALID_BUNDLE`, `ARTIFACT_EXISTS`, `INVALID_ARGUMENT`, `READ_FAILED`, `WRITE_FAILED`.
pub async fn import_conversation(
    bundle: &Value,
    user_data: impl AsRef<std::path::Path>,
) -> Result<ImportedConversation, OffloadError> {
    import_conversation_with(bundle, user_data, &TokioFileWriter::new()).await
}

/// [`import_conversation`] through any writer-and-reader.
///
/// # Errors
/// As [`import_conversation`].
pub async fn import_conversation_with<IO: FileWriter + FileReader + ?Sized>(
    bundle: &Value,
    user_data: impl AsRef<std::path::Path>,
    io: &IO,
) -> Result<ImportedConversation, OffloadError> {
    let user_data = utf8(user_data.as_ref(), "user data directory")?;
    materialize::import_conversation(bundle, user_data, &working_dir_for(user_data)?, io).await
}

/// A `tracing` event per materialization (target `tool_offload::materialize`).
pub(crate) fn trace(done: &Materialized) {
    if let Materialized::Artifact {
        reference, path, ..
    } = done
    {
        trace_artifact(reference, path);
    }
}

fn trace_artifact(reference: &ContextRef, path: &str) {
    let hint = &reference.hint;
    tracing::info!(
        target: "tool_offload::materialize",
        tool_call_id = %hint.tool_call_id,
        tool_name = %hint.tool_name,
        bytes = hint.bytes,
        chars = hint.chars,
        lines = hint.lines,
        path,
        reference = %reference.id,
        "materialized tool output"
    );
}
