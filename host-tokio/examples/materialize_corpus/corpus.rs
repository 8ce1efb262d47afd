//! Finding the tool results: the corpus directory, its transcripts (Anthropic Messages
//! and OpenAI Chat) and the tool results in them.

use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};

use tool_offload::core::materialize::output_text;
use tool_offload::{json, Value};

/// Any failure of the walk, the measures or the needle check.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// `$TOOL_OFFLOAD_CORPUS` (relative to the repository root), else `../shared/corpus`
/// beside the repository.
pub fn corpus_dir() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match std::env::var_os("TOOL_OFFLOAD_CORPUS") {
        Some(dir) if !dir.is_empty() => normalise(&repo.join(dir)),
        _ => normalise(&repo.join("../shared/corpus")),
    }
}

/// `path` without `.` and `..` components (lexically).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The transcript format a tool result was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
    /// A `tool_result` block in a `content` array.
    Anthropic,
    /// A `role: "tool"` message.
    OpenAi,
}

impl Format {
    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Format::Anthropic => "Anthropic Messages",
            Format::OpenAi => "OpenAI Chat",
        }
    }
}

/// One tool result of a transcript.
#[derive(Debug, Clone)]
pub struct ToolResult {
    /// Where it was found.
    pub format: Format,
    /// `tool_use_id` / `tool_call_id`.
    pub call_id: String,
    /// The name on the matching assistant call, or `unknown`.
    pub tool_name: String,
    /// The content: a string, or an array of blocks.
    pub output: Value,
    /// The output as the Materializer stores it: the string, an array of text parts as
    /// their texts joined with newlines, any other array as its `JSON.stringify`.
    pub text: String,
}

/// One transcript file and its tool results.
#[derive(Debug, Clone)]
pub struct Transcript {
    /// Path relative to the corpus directory, `/`-separated.
    pub name: String,
    /// The conversation id its artifacts go under.
    pub conversation_id: String,
    /// Its tool results in document order.
    pub results: Vec<ToolResult>,
}

/// Every transcript of a corpus, and what could not be used.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// Transcripts that parsed as JSON arrays.
    pub transcripts: Vec<Transcript>,
    /// Reasons things were skipped (unparseable files, results without id or with
    /// content that is neither string nor array, …) and how often.
    pub skipped: BTreeMap<String, usize>,
    /// Tool results whose call has no matching assistant call (named `unknown`).
    pub unnamed: usize,
}

impl Corpus {
    /// All tool results.
    pub fn results(&self) -> impl Iterator<Item = (&Transcript, &ToolResult)> {
        self.transcripts
            .iter()
            .flat_map(|t| t.results.iter().map(move |r| (t, r)))
    }
}

/// Read every `.json` file under `dir` (sorted by path) and find its tool results.
///
/// # Errors
/// Only when the directory cannot be listed; bad files are counted in
/// [`Corpus::skipped`].
pub fn load_corpus(dir: &Path) -> Result<Corpus, Error> {
    let mut files = Vec::new();
    json_files(dir, dir, &mut files)?;
    files.sort();
    let mut corpus = Corpus::default();
    for name in files {
        let text = match std::fs::read_to_string(dir.join(&name)) {
            Ok(text) => text,
            Err(_) => {
                *corpus.skipped.entry("unreadable file".into()).or_default() += 1;
                continue;
            }
        };
        let messages = match json::parse(&text) {
            Ok(Value::Array(messages)) => messages,
            _ => {
                *corpus
                    .skipped
                    .entry("file is not a JSON array".into())
                    .or_default() += 1;
                continue;
            }
        };
        let results = tool_results(&messages, &mut corpus);
        corpus.transcripts.push(Transcript {
            conversation_id: conversation_id(&name),
            name,
            results,
        });
    }
    Ok(corpus)
}

/// Every `.json` file under `dir`, as `/`-separated paths relative to `root`.
fn json_files(root: &Path, dir: &Path, found: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            json_files(root, &path, found)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            found.push(parts.join("/"));
        }
    }
    Ok(())
}

/// The transcript's path without `.json`, every character outside `[A-Za-z0-9._-]`
/// replaced by `_`.
pub fn conversation_id(name: &str) -> String {
    let stem = name.strip_suffix(".json").unwrap_or(name);
    let id: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match id.as_str() {
        "" | "." | ".." => format!("transcript{id}"),
        _ => id,
    }
}

/// The tool results of one transcript, named after the assistant calls they answer.
fn tool_results(messages: &[Value], corpus: &mut Corpus) -> Vec<ToolResult> {
    let str_of = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let mut names: HashMap<String, String> = HashMap::new();
    for message in messages {
        if let Some(blocks) = message.get("content").and_then(Value::as_array) {
            for block in blocks {
                if block.get("type").and_then(Value::as_str) == Some("tool_use") {
                    if let (Some(id), Some(name)) = (str_of(block, "id"), str_of(block, "name")) {
                        names.insert(id, name);
                    }
                }
            }
        }
        if let Some(calls) = message.get("tool_calls").and_then(Value::as_array) {
            for call in calls {
                let name = call.get("function").and_then(|f| str_of(f, "name"));
                if let (Some(id), Some(name)) = (str_of(call, "id"), name) {
                    names.insert(id, name);
                }
            }
        }
    }

    let mut found = Vec::new();
    let mut take = |format: Format, holder: &Value, id_key: &str, corpus: &mut Corpus| {
        let mut skip = |why: &str| *corpus.skipped.entry(why.into()).or_default() += 1;
        let Some(call_id) = str_of(holder, id_key) else {
            return skip("tool result without a string id");
        };
        // What the Materializer measures: a string as is, text parts as their texts,
        // other arrays as their JSON.
        let text = match holder.get("content") {
            Some(content @ (Value::String(_) | Value::Array(_))) => {
                output_text(content).0.into_owned()
            }
            None => return skip("tool result without content"),
            Some(_) => return skip("tool result content neither string nor array"),
        };
        let tool_name = names.get(&call_id).cloned().unwrap_or_else(|| {
            corpus.unnamed += 1;
            "unknown".into()
        });
        found.push(ToolResult {
            format,
            call_id,
            tool_name,
            output: holder["content"].clone(),
            text,
        });
    };
    for message in messages {
        if message.get("role").and_then(Value::as_str) == Some("tool") {
            take(Format::OpenAi, message, "tool_call_id", corpus);
        } else if let Some(blocks) = message.get("content").and_then(Value::as_array) {
            for block in blocks {
                if block.get("type").and_then(Value::as_str) == Some("tool_result") {
                    take(Format::Anthropic, block, "tool_use_id", corpus);
                }
            }
        }
    }
    found
}
