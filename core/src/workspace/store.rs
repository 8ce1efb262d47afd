//! [`Workspace`]: stores knowledge artifacts with their records, and tool results with
//! the `need_offload` decision and the `<knowledge_list>` replacement.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::decide::{need_offload, Decision, ResultText};
use super::io_types::{
    Content, KnowledgeInput, Known, Stored, TokenCounter, ToolResultInput, ToolResultOffload,
};
use super::knowledge_list::knowledge_list;
use super::options::{WorkspaceOptions, MIN_INLINE_LIMIT};
use super::record::{KnowledgeRecord, KnowledgeType, TOOL_RESULT_CONTEXT_TYPE, TOOL_RESULT_PREFIX};
use super::record_index::RecordIndex;
use crate::forms::reference::unsafe_ref_component;
use crate::forms::reference::ArtifactKind;
use crate::path::{join, resolve};
use crate::read::artifacts::Artifacts;
use crate::read::page::MIN_PAGE_CHARS;
use crate::{error::OffloadError, io::FileReader, io::FileWriter};
use serde_json::{Map, Value};

/// A knowledge store over one namespace (see the [module docs](super)).
pub struct Workspace {
    pub(super) options: WorkspaceOptions,
    /// Reads back (conversation = namespace) and writes line indexes.
    /// Its knowledge artifacts as read-back sees them (the namespace is their
    /// conversation).
    pub(super) artifacts: Artifacts,
    /// The longest page read-back returns: under the inline limit, as the
    /// `<knowledge_list>` is.
    pub(super) page_chars: usize,
    /// `<root>/context/<namespace>/records`.
    pub(super) records_dir: String,
    /// `<root>/context/<namespace>/artifacts/knowledge`.
    pub(super) knowledge_dir: String,
    /// Records read or written so far, by id: the scan path's cache (records never
    /// change once written, so a cached one is never stale).
    pub(super) records: Mutex<HashMap<String, KnowledgeRecord>>,
    /// The host's index, which then answers queries instead of a scan.
    pub(super) index: Option<Arc<dyn RecordIndex>>,
    /// Record files the last walk over every record found holding no record, with why.
    pub(super) skipped: Mutex<Vec<(String, String)>>,
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace")
            .field("options", &self.options)
            .field("indexed", &self.index.is_some())
            .finish_non_exhaustive()
    }
}

impl Workspace {
    /// A workspace over `options.namespace`.
    ///
    /// # Errors
    /// `INVALID_ID` for a namespace that cannot name a directory; `INVALID_ARGUMENT`
    /// for a relative `cwd` or an `inline_limit` under [`MIN_INLINE_LIMIT`].
    pub fn new(options: WorkspaceOptions) -> Result<Self, OffloadError> {
        if options.inline_limit < MIN_INLINE_LIMIT {
            return Err(OffloadError::InvalidArgument(format!(
                "inlineLimit must be at least {MIN_INLINE_LIMIT}, got {}",
                options.inline_limit
            )));
        }
        if let Some(reason) = unsafe_ref_component(&options.namespace, 0) {
            return Err(OffloadError::InvalidId {
                field: "namespace".into(),
                value: Some(options.namespace.clone()),
                reason,
            });
        }
        let root = resolve(&options.cwd, &options.root)?;
        let artifacts = Artifacts::dir_of(&root, &options.namespace);
        // Once: a namespace named `artifacts` is `…/context/artifacts/artifacts`.
        let dir = artifacts
            .strip_suffix("/artifacts")
            .unwrap_or(&artifacts)
            .to_owned();
        Ok(Workspace {
            records_dir: join(&dir, "records"),
            knowledge_dir: join(&artifacts, ArtifactKind::Knowledge.dir()),
            artifacts: Artifacts::new(artifacts, options.namespace.clone(), None),
            page_chars: (options.inline_limit - 1).max(MIN_PAGE_CHARS),
            options,
            records: Mutex::default(),
            index: None,
            skipped: Mutex::default(),
        })
    }

    /// This workspace with `index` answering its queries (see [`RecordIndex`]); one
    /// index may serve several workspaces over the same records.
    pub fn with_index(mut self, index: Arc<dyn RecordIndex>) -> Self {
        self.index = Some(index);
        self
    }

    /// The index answering queries, if any.
    pub fn index(&self) -> Option<&Arc<dyn RecordIndex>> {
        self.index.as_ref()
    }

    /// The options in force.
    pub fn options(&self) -> &WorkspaceOptions {
        &self.options
    }

    /// The namespace's directory, `<root>/context/<namespace>` (absolute).
    pub fn dir(&self) -> &str {
        // Once: a namespace named `records` is `…/context/records/records`.
        let records = &self.records_dir;
        records.strip_suffix("/records").unwrap_or(records)
    }

    /// The directory of the records, `<dir>/records`.
    pub fn records_dir(&self) -> &str {
        &self.records_dir
    }

    /// Decide whether a result of `tool_name` is stored (see [`Decision`]); the token
    /// count comes from `count_tokens` when given, else [`estimate_tokens`](crate::tokens::estimate_tokens).
    ///
    /// # Errors
    /// The counter's own error.
    pub fn need_offload(
        &self,
        tool_name: &str,
        flag: Option<bool>,
        text: &str,
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<Decision, OffloadError> {
        let result = ResultText {
            text,
            chars: None,
            counted: count_tokens.is_some(),
        };
        need_offload(&self.options, tool_name, flag, result, |threshold| {
            estimate_or_count(text, threshold, count_tokens)
        })
    }

    /// Store `input` as knowledge artifact `input.id`, durable before this returns; the
    /// same id with the same content again is reused, not written twice.
    ///
    /// # Errors
    /// `INVALID_ID`; `INVALID_ARGUMENT` when `metadata.context_type` is not a string;
    /// `ARTIFACT_EXISTS` when the id holds a different content; `READ_FAILED`,
    /// `WRITE_FAILED`.
    pub async fn add<IO: FileWriter + FileReader + ?Sized>(
        &self,
        input: &KnowledgeInput<'_>,
        now_ms: f64,
        io: &IO,
    ) -> Result<Stored, OffloadError> {
        if !input
            .metadata
            .get("context_type")
            .is_some_and(Value::is_string)
        {
            return Err(OffloadError::InvalidArgument(
                "metadata.context_type must be a string saying what the knowledge is".into(),
            ));
        }
        let mut metadata = input.metadata.clone();
        for (key, value) in self.scope() {
            if !metadata.contains_key(key) {
                metadata.insert(key.into(), value.into());
            }
        }
        let (text, known) = self.redacted(input.text, &input.known, &mut metadata);
        let content = Content::new(&text, input.kind, &known);
        self.store(input.id, &content, metadata, false, now_ms, io)
            .await
    }

    /// The tool-result entry point: decide, store (as `tool_result_<toolCallId>`, or
    /// `tool_result_<toolCallId>-1`… when that id holds another output) and replace when
    /// the content is at least `inline_limit` long.
    ///
    /// The decision (and so the token counter) runs before the returned future: it does
    /// not hold `count_tokens`, so a host with `Send` IO gets a `Send` future whatever
    /// its counter is.
    ///
    /// # Errors
    /// As [`Workspace::add`], and the token counter's error.
    pub fn offload_tool_result<'a, IO: FileWriter + FileReader + ?Sized>(
        &'a self,
        input: &'a ToolResultInput<'a>,
        count_tokens: Option<&TokenCounter<'_>>,
        now_ms: f64,
        io: &'a IO,
    ) -> impl std::future::Future<Output = Result<ToolResultOffload, OffloadError>> + 'a {
        let decided = self.decide(input, count_tokens);
        async move { self.carry_out(input, decided?, now_ms, io).await }
    }

    /// What [`Workspace::decide`] decided, done: stored when it said so.
    pub(super) async fn carry_out<IO: FileWriter + FileReader + ?Sized>(
        &self,
        input: &ToolResultInput<'_>,
        decision: Option<Decision>,
        now_ms: f64,
        io: &IO,
    ) -> Result<ToolResultOffload, OffloadError> {
        match decision {
            Some(decision) if decision.offload => {
                self.store_tool_result(input, decision, now_ms, io).await
            }
            // Kept inline: with `redact`, the model still never sees a secret.
            Some(decision) => Ok(ToolResultOffload {
                offloaded: false,
                replacement: match self.options.redact.apply(input.text).text {
                    std::borrow::Cow::Owned(redacted) => Some(redacted),
                    std::borrow::Cow::Borrowed(_) => None,
                },
                artifact_id: None,
                decision: Some(decision),
                stored: None,
            }),
            None => Ok(ToolResultOffload {
                offloaded: false,
                replacement: None,
                artifact_id: None,
                decision: None,
                stored: None,
            }),
        }
    }

    /// Whether `input` is stored; `None` for its own lists and any read-back page,
    /// already stored and never stored again.
    pub(super) fn decide(
        &self,
        input: &ToolResultInput<'_>,
        count_tokens: Option<&TokenCounter<'_>>,
    ) -> Result<Option<Decision>, OffloadError> {
        if !input.is_json && crate::forms::stored_form::stored_form(input.text).is_some() {
            return Ok(None);
        }
        let flag = input.metadata.get("offload").and_then(Value::as_bool);
        let result = ResultText {
            text: input.text,
            chars: input.known.chars,
            counted: count_tokens.is_some(),
        };
        need_offload(&self.options, input.tool_name, flag, result, |threshold| {
            estimate_or_count(input.text, threshold, count_tokens)
        })
        .map(Some)
    }

    /// Store a result [`Workspace::decide`] said to store, and its `<knowledge_list>`.
    async fn store_tool_result<IO: FileWriter + FileReader + ?Sized>(
        &self,
        input: &ToolResultInput<'_>,
        decision: Decision,
        now_ms: f64,
        io: &IO,
    ) -> Result<ToolResultOffload, OffloadError> {
        let id = format!("{TOOL_RESULT_PREFIX}{}", input.tool_call_id);
        let kind = if input.is_json {
            KnowledgeType::Json
        } else {
            KnowledgeType::Text
        };
        let mut metadata = self.tool_result_metadata(input);
        let (text, known) = self.redacted(input.text, &input.known, &mut metadata);
        let content = Content::new(&text, kind, &known);
        let stored = self
            .store(&id, &content, metadata, true, now_ms, io)
            .await?;
        let measure = content.measure;
        let replacement = if measure.chars >= self.options.inline_limit {
            Some(knowledge_list(
                &stored.record,
                content.text,
                measure,
                self.options.inline_limit,
            ))
        } else if matches!(text, std::borrow::Cow::Owned(_)) {
            // Shown whole, but as stored: redacted.
            Some(content.text.to_owned())
        } else {
            None
        };
        Ok(ToolResultOffload {
            offloaded: true,
            replacement,
            artifact_id: Some(stored.record.id.clone()),
            decision: Some(decision),
            stored: Some(stored),
        })
    }

    /// `agent_id`, `task_id`, `session_id` of the options, those that are set.
    fn scope(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("agent_id", &self.options.agent_id),
            ("task_id", &self.options.task_id),
            ("session_id", &self.options.session_id),
        ]
        .into_iter()
        .filter_map(|(key, value)| value.as_deref().map(|v| (key, v)))
    }

    /// A tool result's metadata: `context_type`, `biz_id`, the scope, `tool_name`,
    /// `action_name`, then the caller's (which may override the scope, not the rest).
    fn tool_result_metadata(&self, input: &ToolResultInput<'_>) -> Map<String, Value> {
        const FIXED: [&str; 5] = [
            "context_type",
            "biz_id",
            "tool_name",
            "action_name",
            "offload",
        ];
        let mut metadata = Map::new();
        metadata.insert("context_type".into(), TOOL_RESULT_CONTEXT_TYPE.into());
        metadata.insert("biz_id".into(), input.tool_call_id.into());
        for (key, value) in self.scope() {
            metadata.insert(key.into(), value.into());
        }
        metadata.insert("tool_name".into(), input.tool_name.into());
        if let Some(action) = input.action_name {
            metadata.insert("action_name".into(), action.into());
        }
        for (key, value) in &input.metadata {
            if !FIXED.contains(&key.as_str()) {
                metadata.insert(key.clone(), value.clone());
            }
        }
        metadata
    }
}

impl Workspace {
    /// `text` as it is stored: with `redact`, its secrets replaced and counted in
    /// `metadata` ([`REDACTED_FACT`](super::record::REDACTED_FACT)); then what the host measured
    /// and hashed of the original no longer holds.
    fn redacted<'t>(
        &self,
        text: &'t str,
        known: &Known,
        metadata: &mut Map<String, Value>,
    ) -> (std::borrow::Cow<'t, str>, Known) {
        let redacted = self.options.redact.apply(text);
        match redacted.text {
            std::borrow::Cow::Borrowed(same) => (std::borrow::Cow::Borrowed(same), known.clone()),
            owned => {
                metadata.shift_remove(super::record::REDACTED_FACT);
                super::record::add_redacted_fact(metadata, &redacted.counts);
                (owned, Known::default())
            }
        }
    }
}

/// The tokens of `text` by the host's `count` when given; else whether the estimate is
/// over `threshold`, counted to the end only when it is not (`None`: over it).
fn estimate_or_count(
    text: &str,
    threshold: usize,
    count: Option<&TokenCounter<'_>>,
) -> Result<Option<usize>, crate::error::OffloadError> {
    match count {
        Some(count) => count(text).map(Some),
        None => Ok(crate::tokens::estimate_within(text, threshold)),
    }
}
