//! [`Workspace`] for Rust users: core's knowledge store on tokio, with `tracing` events
//! and (feature `sqlite`, on by default) a SQLite index for queries.

#[cfg(feature = "sqlite")]
mod index;
#[cfg(feature = "sqlite")]
pub use index::INDEX_FILE;
#[cfg(feature = "postgres")]
mod postgres;
mod read;
mod tools;
mod trace;

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use tool_offload_core::workspace::{
    self as core_ws, KnowledgeInput, KnowledgeType, RecordIndex, Stored, ToolResultOffload,
    WorkspaceOptions,
};
use tool_offload_core::{apply_edits, FileReader, FileWriter, Map, OffloadError, Value};

#[cfg(feature = "postgres")]
pub use postgres::{PostgresIndex, POSTGRES_CONNECT_TIMEOUT, POSTGRES_COUNT_TTL};

use crate::writer::TokioFileWriter;

use crate::paths::{fill_cwd, utf8};

use crate::count::{fallible, CountTokens, TryCountTokens};
pub use tool_offload_core::workspace::ToolResultCall;
/// A clock: milliseconds since the Unix epoch (for `created_at`; fix it in tests).
pub type Clock = Arc<dyn Fn() -> f64 + Send + Sync>;

/// What [`Workspace::offload_messages`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct OffloadedMessages<'a> {
    /// The conversation: unchanged messages borrowed, changed ones as new copies.
    pub messages: Vec<Cow<'a, Value>>,
    /// The ids of the artifacts stored (or found already stored), in walk order.
    pub artifact_ids: Vec<String>,
    /// Paths of the items that look like tool results but are of no shape we know.
    pub unrecognized: Vec<String>,
}

/// A knowledge store over one namespace: one artifact and record per tool call,
/// `<knowledge_list>` references, queries, and the knowledge read tools (see
/// [`tool_offload_core::workspace`]).
///
/// ```no_run
/// use serde_json::json;
/// use tool_offload::{ToolResultCall, Workspace, WorkspaceOptions};
/// # async fn demo() -> Result<(), tool_offload::OffloadError> {
/// let ws = Workspace::new(WorkspaceOptions::at("/var/lib/agent"))?;
/// let log = json!("…a 200 KB build log…");
/// let call = ToolResultCall { tool_call_id: "call_1", tool_name: "bash", action_name: None, content: &log, metadata: None };
/// let done = ws.offload_tool_result(&call).await?;
/// println!("{}", done.content(log.as_str().unwrap()));
/// # Ok(()) }
/// ```
pub struct Workspace<IO = TokioFileWriter> {
    core: core_ws::Workspace,
    io: IO,
    count_tokens: Option<TryCountTokens>,
    now: Option<Clock>,
}

impl Workspace {
    /// A workspace on the local file system, with the SQLite index (feature `sqlite`) in
    /// `<root>/context/<namespace>/index.sqlite`.
    ///
    /// # Errors
    /// `INVALID_ID` for a namespace that cannot name a directory; `INVALID_ARGUMENT` for
    /// a path that is not UTF-8 or an `inline_limit` under
    /// [`MIN_INLINE_LIMIT`](tool_offload_core::workspace::MIN_INLINE_LIMIT); `READ_FAILED`
    /// when the index cannot be opened.
    pub fn new(options: WorkspaceOptions) -> Result<Self, OffloadError> {
        #[allow(unused_mut)]
        let mut ws = Self::with_io(options, TokioFileWriter::new())?;
        #[cfg(feature = "sqlite")]
        {
            let core = ws.core;
            let index = index::SqliteIndex::open(
                std::path::Path::new(core.dir()),
                std::path::Path::new(core.records_dir()),
            )?;
            ws.core = core.with_index(Arc::new(index));
        }
        Ok(ws)
    }
}

impl Workspace {
    /// A workspace with the default options in `root` (relative: to the working
    /// directory), as [`Workspace::new`].
    ///
    /// # Errors
    /// As [`Workspace::new`].
    pub fn in_dir(root: impl AsRef<Path>) -> Result<Self, OffloadError> {
        Self::new(WorkspaceOptions::at(utf8(root.as_ref(), "workspace root")?))
    }
}

impl<IO: FileWriter + FileReader + Send + Sync> Workspace<IO> {
    /// A workspace over any writer-and-reader (e.g. an
    /// [`ObjectStoreIo`](crate::object_store_io::ObjectStoreIo)); queries scan the records until
    /// [`with_index`](Workspace::with_index) gives it an index.
    ///
    /// # Errors
    /// As [`Workspace::new`].
    pub fn with_io(mut options: WorkspaceOptions, io: IO) -> Result<Self, OffloadError> {
        fill_cwd(&mut options.cwd, &options.root)?;
        Ok(Workspace {
            core: core_ws::Workspace::new(options)?,
            io,
            count_tokens: None,
            now: None,
        })
    }

    /// This workspace counting tokens with `count` (exactly with the feature
    /// `tokenizer`'s [`token_counter`](crate::tokens::token_counter)) instead of core's
    /// [`estimate_tokens`](tool_offload_core::estimate_tokens). It is asked only for
    /// results longer in UTF-8 bytes than the threshold: it must not count more tokens
    /// than bytes.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// let ws = tool_offload::Workspace::in_dir("/var/lib/agent").unwrap()
    ///     .with_token_counter(Arc::new(|text: &str| text.len() / 3));
    /// ```
    pub fn with_token_counter(mut self, count: CountTokens) -> Self {
        self.count_tokens = Some(fallible(count));
        self
    }

    /// [`Workspace::with_token_counter`] with a counter that may fail: its error fails
    /// the call that asked at once.
    pub fn with_fallible_token_counter(mut self, count: TryCountTokens) -> Self {
        self.count_tokens = Some(count);
        self
    }

    /// This workspace reading `created_at` from `clock` (milliseconds since the Unix
    /// epoch) instead of the system clock: fix it in tests.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// let ws = tool_offload::Workspace::in_dir("/var/lib/agent").unwrap()
    ///     .with_clock(Arc::new(|| 1_700_000_000_000.0));
    /// ```
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.now = Some(clock);
        self
    }

    /// This workspace with `index` answering its queries instead of a scan: a shared
    /// [`PostgresIndex`] (feature `postgres`) for many workers, or
    /// any [`RecordIndex`]. Every record this workspace stores is added to it at once;
    /// see [`RecordIndex::changed`] for when it catches up with the records.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_offload::{TokioFileWriter, Workspace, WorkspaceOptions};
    /// use tool_offload_core::workspace::{IndexFuture, KnowledgeRecord, Query, RecordIndex};
    /// # struct Nothing;
    /// # impl RecordIndex for Nothing {
    /// #     fn changed(&self) -> IndexFuture<'_, Option<String>> { Box::pin(async { Ok(None) }) }
    /// #     fn synced<'a>(&'a self, _: &'a str) -> IndexFuture<'a, ()> { Box::pin(async { Ok(()) }) }
    /// #     fn ids(&self) -> IndexFuture<'_, std::collections::HashSet<String>> { Box::pin(async { Ok(Default::default()) }) }
    /// #     fn insert<'a>(&'a self, _: &'a [KnowledgeRecord]) -> IndexFuture<'a, ()> { Box::pin(async { Ok(()) }) }
    /// #     fn remove<'a>(&'a self, _: &'a [String]) -> IndexFuture<'a, ()> { Box::pin(async { Ok(()) }) }
    /// #     fn clear(&self) -> IndexFuture<'_, ()> { Box::pin(async { Ok(()) }) }
    /// #     fn query<'a>(&'a self, _: &'a Query) -> IndexFuture<'a, Vec<KnowledgeRecord>> { Box::pin(async { Ok(Vec::new()) }) }
    /// # }
    /// let index: Arc<dyn RecordIndex> = Arc::new(Nothing);
    /// let ws = Workspace::with_io(WorkspaceOptions::at("/var/lib/agent"), TokioFileWriter::new())
    ///     .unwrap()
    ///     .with_index(index);
    /// assert!(ws.core().index().is_some());
    /// ```
    pub fn with_index(mut self, index: Arc<dyn RecordIndex>) -> Self {
        self.core = self.core.with_index(index);
        self
    }

    fn now(&self) -> f64 {
        match &self.now {
            Some(now) => now(),
            None => crate::lifecycle::now_ms() as f64,
        }
    }

    /// Store any knowledge: `content` a string (type `text`) or a JSON value (type
    /// `json`, its `JSON.stringify`); `kind` names the type explicitly. `metadata`
    /// needs `context_type`.
    ///
    /// # Errors
    /// `INVALID_ID`, `INVALID_ARGUMENT`, `ARTIFACT_EXISTS`, `READ_FAILED`, `WRITE_FAILED`.
    pub async fn add(
        &self,
        id: &str,
        content: &Value,
        kind: Option<&str>,
        metadata: &Map<String, Value>,
    ) -> Result<Stored, OffloadError> {
        let (text, was_value) = tool_offload_core::materialize::output_text(content);
        let kind = KnowledgeType::resolve(kind, !was_value, &text)?;
        let input = KnowledgeInput {
            id,
            text: &text,
            kind,
            metadata: metadata.clone(),
            known: Default::default(),
        };
        let stored = self.core.add(&input, self.now(), &self.io).await?;
        tracing::info!(
            target: "tool_offload::workspace",
            context_type = stored.record.str_field("context_type"),
            id = %stored.record.id, path = %stored.path, reused = stored.reused,
            "stored knowledge"
        );
        Ok(stored)
    }

    /// The tool-result entry point: decide, store as `tool_result_<toolCallId>` (`-1`…
    /// when that id holds another output), and
    /// replace by a `<knowledge_list>` from `inline_limit` characters on.
    ///
    /// # Errors
    /// As [`Workspace::add`].
    pub async fn offload_tool_result(
        &self,
        call: &ToolResultCall<'_>,
    ) -> Result<ToolResultOffload, OffloadError> {
        let (text, was_value) = tool_offload_core::materialize::output_text(call.content);
        let input = call.with_text(&text, was_value);
        // The counter is only used before the core's future, which does not hold it:
        // dropped here, it is not held across the await either, so this future is `Send`.
        let store = {
            let counter = self.counter();
            self.core
                .offload_tool_result(&input, counter.as_deref(), self.now(), &self.io)
        };
        let done = store.await?;
        trace::offloaded(call.tool_call_id, &done);
        Ok(done)
    }

    /// [`Workspace::offload_tool_result`] over a conversation: every tool result, the
    /// tool name from its call; what already stands for stored content (`<knowledge_list>`s)
    /// left alone, so it can run every turn.
    ///
    /// # Errors
    /// `INVALID_MESSAGE`, `INVALID_ID` (before anything is written), and as
    /// [`Workspace::add`].
    pub async fn offload_messages<'a>(
        &self,
        messages: &'a [Value],
    ) -> Result<OffloadedMessages<'a>, OffloadError> {
        let views: Vec<&Value> = messages.iter().collect();
        let store = {
            let counter = self.counter();
            self.core
                .offload_messages(&views, counter.as_deref(), self.now(), &self.io)
        };
        let done = store.await?;
        let mut out: Vec<Cow<'a, Value>> = messages.iter().map(Cow::Borrowed).collect();
        for (index, edits) in done.changed {
            let mut message = messages[index].clone();
            apply_edits(&mut message, edits);
            out[index] = Cow::Owned(message);
        }
        let mut artifact_ids = Vec::new();
        for (_, result) in &done.results {
            let call = result
                .stored
                .as_ref()
                .and_then(|s| s.record.str_field("biz_id"))
                .unwrap_or_default();
            trace::offloaded(call, result);
            artifact_ids.extend(result.artifact_id.clone());
        }
        Ok(OffloadedMessages {
            messages: out,
            artifact_ids,
            unrecognized: done.unrecognized,
        })
    }

    /// Every record of the namespace with its content, as one bundle.
    ///
    /// # Errors
    /// `REF_NOT_FOUND`, `READ_FAILED`.
    pub async fn export_namespace(&self) -> Result<Value, OffloadError> {
        self.core.export_namespace(&self.io).await
    }

    /// Restore a bundle from [`Workspace::export_namespace`] into this namespace; the ids.
    ///
    /// # Errors
    /// `INVALID_BUNDLE`, `ARTIFACT_EXISTS`, `READ_FAILED`, `WRITE_FAILED`.
    pub async fn import_namespace(&self, bundle: &Value) -> Result<Vec<String>, OffloadError> {
        self.core.import_namespace(bundle, &self.io).await
    }

    /// Rebuild the index (SQLite, PostgreSQL, any) from the records, the source of
    /// truth, read through this workspace's IO (a directory or object storage alike); a
    /// no-op without one. The SQLite index also rebuilds itself when missing and catches
    /// up with records other processes wrote; a shared index trusts its writers, so run
    /// this after records were written by a process without it.
    ///
    /// # Errors
    /// `READ_FAILED`, `WRITE_FAILED`.
    pub async fn rebuild_index(&self) -> Result<(), OffloadError> {
        self.core.rebuild_index(&self.io).await
    }

    /// The core workspace, for what this host does not wrap.
    pub fn core(&self) -> &core_ws::Workspace {
        &self.core
    }

    /// The writer-and-reader in use.
    pub fn io(&self) -> &IO {
        &self.io
    }

    fn counter(&self) -> Option<Box<core_ws::TokenCounter<'static>>> {
        crate::count::core_counter(self.count_tokens.as_ref())
    }
}
