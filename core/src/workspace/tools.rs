//! The model's knowledge tools: `get_knowledge_by_id`, `get_knowledge_by_lines`,
//! `grep_knowledge`, `query_artifacts`, `get_tool_result_offload_info`. Definitions,
//! argument checks and pages live here so every host registers the same tools.

use super::query::{OffloadInfo, Query};
use super::record::KnowledgeRecord;
use super::store::Workspace;
use crate::grep::pattern::compile_pattern;
use crate::read::tool_args::{
    count, flag, object_schema, string, within, Property, DEFAULT_CONTEXT, DEFAULT_MAX_MATCHES,
    GREP_ARGS,
};
use crate::text::thousands;
use crate::tools::{RegisterError, ToolDefinition, ToolOutput, ToolRegistry};
use crate::{error::OffloadError, io::FileReader, text::utf16_len};
use serde_json::{Map, Value};

/// `get_knowledge_by_id`'s name.
pub const GET_KNOWLEDGE_BY_ID: &str = "get_knowledge_by_id";
/// `get_knowledge_by_lines`'s name.
pub const GET_KNOWLEDGE_BY_LINES: &str = "get_knowledge_by_lines";
/// `grep_knowledge`'s name.
pub const GREP_KNOWLEDGE: &str = "grep_knowledge";
/// `query_artifacts`'s name.
pub const QUERY_ARTIFACTS: &str = "query_artifacts";
/// `get_tool_result_offload_info`'s name.
pub const GET_TOOL_RESULT_OFFLOAD_INFO: &str = "get_tool_result_offload_info";

/// The five tools' definitions, in the order they are registered.
///
/// ```
/// let names: Vec<_> = tool_offload_core::workspace::knowledge_tool_definitions()
///     .into_iter().map(|d| d.name).collect();
/// assert_eq!(names, ["get_knowledge_by_id", "get_knowledge_by_lines", "grep_knowledge", "query_artifacts", "get_tool_result_offload_info"]);
/// ```
pub fn knowledge_tool_definitions() -> [ToolDefinition; 5] {
    const ID: Property = (
        "id",
        "string",
        None,
        "The knowledge artifact's id, e.g. tool_result_<toolCallId> as named in a <knowledge_list>.",
    );
    let mut query = object_schema(
        &[
            (
                "limit",
                "integer",
                Some(1),
                "Artifacts to list at most (default 50, at most 1000).",
            ),
            (
                "offset",
                "integer",
                Some(0),
                "Artifacts to skip first, newest first (default 0).",
            ),
        ],
        &[],
    );
    let mut filter = Map::new();
    filter.insert("type".into(), "object".into());
    filter.insert(
        "description".into(),
        "Metadata fields and the values they must equal, e.g. {\"context_type\": \"tool_result\", \"tool_name\": \"bash\"}.".into(),
    );
    // `filter` first: the rest appended after it (not `shift_insert`, which would bring
    // IndexMap's shifting code into the wasm for this one call).
    if let Some(Value::Object(properties)) = query.get_mut("properties") {
        let rest = std::mem::take(properties);
        properties.insert("filter".into(), Value::Object(filter));
        properties.extend(rest);
    }
    [
        ToolDefinition::new(
            GET_KNOWLEDGE_BY_ID,
            "Read a stored knowledge artifact (e.g. an offloaded tool result) by id: its metadata, and its content when it fits, else its first page.",
            object_schema(&[ID], &["id"]),
        ),
        ToolDefinition::new(
            GET_KNOWLEDGE_BY_LINES,
            "Read numbered lines of a stored knowledge artifact. Returns at most one page; the header says where to continue.",
            object_schema(
                &[
                    ID,
                    ("start_line", "integer", Some(1), "First line to show, 1-based."),
                    ("end_line", "integer", Some(1), "Last line to show (default start_line + 199)."),
                    ("part", "integer", Some(1), "For a line over 2000 characters, shown as parts 57.1, 57.2, …: the part of start_line to begin at (default 1)."),
                    ("char", "integer", Some(0), "Begin at this character of start_line instead (0-based): a grep window labelled 57.3@4010 is start_line 57, char 4010."),
                ],
                &["id", "start_line"],
            ),
        ),
        ToolDefinition::new(
            GREP_KNOWLEDGE,
            "Search a stored knowledge artifact with a regular expression; returns the numbered matching lines with context. Omit id to search all of them, newest first.",
            object_schema(
                &[&[("id", "string", None, "The knowledge artifact's id, as named in a <knowledge_list>; omit it to search every one.")], &GREP_ARGS[..]].concat(),
                &["pattern"],
            ),
        ),
        ToolDefinition::new(
            QUERY_ARTIFACTS,
            "List stored knowledge artifacts whose metadata equals every field of the filter, newest first: ids and metadata, no content.",
            query,
        ),
        ToolDefinition::new(
            GET_TOOL_RESULT_OFFLOAD_INFO,
            "List the tool results stored so far (newest first), optionally of one task or session: id, tool, call and size of each.",
            object_schema(
                &[
                    ("task_id", "string", None, "Only this task's results."),
                    ("session_id", "string", None, "Only this session's results."),
                ],
                &[],
            ),
        ),
    ]
}

/// Register the five knowledge tools on `registry` as passthrough tools (their
/// results are bounded and never offloaded), each with the host handler `handler(name)`
/// gives; all five or none.
///
/// # Errors
/// [`RegisterError::Duplicate`] when a name is taken (then none is registered).
///
/// ```
/// use tool_offload_core::workspace::register_knowledge_tools;
/// use tool_offload_core::tools::ToolRegistry;
/// let mut registry = ToolRegistry::new();
/// register_knowledge_tools(&mut registry, |name| name.to_owned()).unwrap();
/// assert!(registry.is_passthrough("grep_knowledge"));
/// ```
pub fn register_knowledge_tools<H>(
    registry: &mut ToolRegistry<H>,
    handler: impl FnMut(&str) -> H,
) -> Result<(), RegisterError> {
    registry.register_all_passthrough(knowledge_tool_definitions(), handler)
}

impl Workspace {
    /// Run a call of one of the knowledge tools for the model. Every failure (bad
    /// argument, unknown or unsafe id, bad pattern, read error) is an `is_error` output
    /// naming the problem.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::workspace::{Workspace, WorkspaceOptions};
    /// use tool_offload_core::MemoryWriter;
    /// let ws = Workspace::new(WorkspaceOptions::new("/data", "/")).unwrap();
    /// let out = futures_executor::block_on(ws.run_knowledge_tool("get_knowledge_by_id", &json!({"id": "nope"}), &MemoryWriter::new()));
    /// assert!(out.is_error);
    /// assert_eq!(out.content, "no knowledge artifact \"nope\" in namespace \"default\"");
    /// ```
    pub async fn run_knowledge_tool<R>(&self, name: &str, input: &Value, reader: &R) -> ToolOutput
    where
        R: FileReader + ?Sized,
    {
        let known = [
            GET_KNOWLEDGE_BY_ID,
            GET_KNOWLEDGE_BY_LINES,
            GREP_KNOWLEDGE,
            QUERY_ARTIFACTS,
            GET_TOOL_RESULT_OFFLOAD_INFO,
        ];
        if !known.contains(&name) {
            return ToolOutput::error(format!("{name} is not a knowledge tool"));
        }
        let input = match input {
            Value::Null => &Value::Object(Map::new()),
            Value::Object(_) => input,
            other => {
                return ToolOutput::error(format!(
                    "{name} input must be an object, got {}",
                    crate::json::stringify(other)
                ))
            }
        };
        match self.run(name, input, reader).await {
            Ok(Ok(page)) => ToolOutput::ok(page),
            Ok(Err(message)) => ToolOutput::error(message),
            Err(error) => ToolOutput::error(error.to_string()),
        }
    }

    /// The page, or the argument problem (`Ok(Err)`), or a store error.
    async fn run<R: FileReader + ?Sized>(
        &self,
        name: &str,
        input: &Value,
        reader: &R,
    ) -> Result<Result<String, String>, OffloadError> {
        macro_rules! arg {
            ($e:expr) => {
                match $e {
                    Ok(value) => value,
                    Err(message) => return Ok(Err(message)),
                }
            };
        }
        let page = match name {
            GET_KNOWLEDGE_BY_ID => self.by_id_page(&arg!(string(input, "id")), reader).await?,
            GET_KNOWLEDGE_BY_LINES => {
                let id = arg!(string(input, "id"));
                let start = arg!(required_count(input, "start_line"));
                let end = arg!(count(
                    input,
                    "end_line",
                    super::read::default_end_line(start)
                ));
                let within = arg!(within(input));
                self.get_by_lines_from(&id, (start, within), end, reader)
                    .await?
            }
            GREP_KNOWLEDGE => {
                let id = arg!(optional_string(input, "id"));
                let pattern = arg!(string(input, "pattern"));
                let context = arg!(count(input, "context", DEFAULT_CONTEXT));
                let max_matches = arg!(count(input, "max_matches", DEFAULT_MAX_MATCHES));
                let pattern = compile_pattern(&pattern, arg!(flag(input, "ignore_case")))?;
                match id {
                    Some(id) => {
                        self.grep(&id, &pattern, context, max_matches, reader)
                            .await?
                    }
                    None => {
                        self.grep_all(&pattern, context, max_matches, reader)
                            .await?
                    }
                }
            }
            QUERY_ARTIFACTS => {
                let filter = match input.get("filter") {
                    None | Some(Value::Null) => Map::new(),
                    Some(Value::Object(filter)) => filter.clone(),
                    Some(other) => {
                        return Ok(Err(format!(
                            "filter must be an object, got {}",
                            crate::json::stringify(other)
                        )))
                    }
                };
                let mut query = Query::new(filter);
                query.limit = arg!(count(input, "limit", query.limit));
                query.offset = arg!(count(input, "offset", 0));
                self.query_page(&query, reader).await?
            }
            _ => {
                let task = arg!(optional_string(input, "task_id"));
                let session = arg!(optional_string(input, "session_id"));
                let infos = self
                    .tool_result_offload_info(task.as_deref(), session.as_deref(), reader)
                    .await?;
                self.info_page(&infos)
            }
        };
        Ok(Ok(page))
    }

    /// The metadata (cut to half the limit), then the content when it fits, else where
    /// to read it.
    async fn by_id_page<R: FileReader + ?Sized>(
        &self,
        id: &str,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let record = self.existing(id, reader).await?;
        let limit = self.options.inline_limit;
        let metadata = crate::json::stringify(&Value::Object(record.metadata.clone()));
        let head = crate::text::measure::cut(
            &format!("[{id}: {}; metadata {metadata}]\n", record.kind.as_str()),
            limit / 2,
        );
        let chars = record.metadata.get("chars").and_then(Value::as_u64);
        if chars.is_some_and(|chars| chars as usize + utf16_len(&head) < limit) {
            let knowledge = self.get_by_id(id, reader).await?;
            return Ok(head + &knowledge.content);
        }
        let lines = record.metadata.get("lines").and_then(Value::as_u64);
        Ok(format!(
            "{head}[Content: {} characters, {} lines; too long to show here: read it with get_knowledge_by_lines(\"{id}\", 1, 200) or search it with grep_knowledge(\"{id}\", \"<pattern>\").]",
            thousands(chars.unwrap_or(0) as usize),
            thousands(lines.unwrap_or(0) as usize),
        ))
    }

    /// One JSON line per record, as many as fit under the inline limit.
    async fn query_page<R: FileReader + ?Sized>(
        &self,
        query: &Query,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let hits = self.query(query, reader).await?;
        let lines = hits.iter().map(KnowledgeRecord::to_json);
        Ok(self.bounded(lines, |shown, total| match (shown, total) {
            (_, 0) => "[No artifacts match.]".to_owned(),
            (s, t) if s == t => format!(
                "[{}, newest first, from offset {}.]",
                crate::text::measure::count(t, "artifact"),
                query.offset
            ),
            (s, t) => format!(
                "[{} of {} shown, newest first. More: query_artifacts with offset {}]",
                thousands(s),
                crate::text::measure::count(t, "artifact"),
                query.offset + s
            ),
        }))
    }

    fn info_page(&self, infos: &[OffloadInfo]) -> String {
        let namespace = &self.options.namespace;
        self.bounded(infos.iter().map(OffloadInfo::line), |shown, total| {
            match (shown, total) {
                (_, 0) => format!("[No tool results stored in namespace {namespace:?}.]"),
                (s, t) if s == t => format!(
                    "[{} stored in namespace {namespace:?}, newest first.]",
                    crate::text::measure::count(t, "tool result")
                ),
                (s, t) => format!(
                    "[{} of {} stored in namespace {namespace:?} shown, newest first; narrow by task_id or session_id.]",
                    thousands(s),
                    crate::text::measure::count(t, "tool result")
                ),
            }
        })
    }

    /// What a listing leaves out: the record files the walk found holding no record
    /// (at most 3 named, the note at most 300 characters), or nothing.
    fn skipped_note(&self) -> String {
        let skipped = self.skipped_records();
        if skipped.is_empty() {
            return String::new();
        }
        let mut names = String::new();
        for (i, (id, _)) in skipped.iter().take(3).enumerate() {
            if i > 0 {
                names.push_str(", ");
            }
            names.push_str(id);
        }
        if skipped.len() > 3 {
            names.push_str(", …");
        }
        let note = format!(
            " [{} left out: not a readable record ({names}).]",
            crate::text::measure::count(skipped.len(), "record file"),
        );
        crate::text::measure::cut(&note, 300)
    }

    /// A header (from lines shown and total, and what was skipped) and as many `lines`
    /// as keep the page under the inline limit.
    pub(super) fn bounded(
        &self,
        lines: impl ExactSizeIterator<Item = String>,
        header: impl Fn(usize, usize) -> String,
    ) -> String {
        let total = lines.len();
        let header = |shown, total| header(shown, total) + &self.skipped_note();
        // Room for the longest header.
        let budget = self.options.inline_limit - 1 - utf16_len(&header(total, total + 1));
        let (mut body, mut used, mut shown) = (String::new(), 0, 0);
        for line in lines {
            let size = utf16_len(&line) + 1;
            if used + size > budget {
                break;
            }
            body.push('\n');
            body += &line;
            used += size;
            shown += 1;
        }
        header(shown, total) + &body
    }
}

fn required_count(input: &Value, key: &str) -> Result<usize, String> {
    match input.get(key) {
        None | Some(Value::Null) => Err(format!("{key} is required")),
        Some(_) => count(input, key, 0),
    }
}

fn optional_string(input: &Value, key: &str) -> Result<Option<String>, String> {
    match input.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(_) => string(input, key).map(Some),
    }
}
