//! Loading the vectors: their options, expected outcome, and bless mode.

use std::path::PathBuf;

use tool_offload_core::json::LoneSurrogates;
use tool_offload_core::materialize::{MaterializeWhen, ToolLimits};
use tool_offload_core::redact::{RedactPattern, Redaction};
use tool_offload_core::{json, Map, Value};

use super::diff::first_difference;
use super::expand::{expand, fill_core, resolve};
use crate::vectors_dir;

/// One vector.
#[derive(Debug, Clone)]
pub struct Vector {
    /// The file name without `.json` (`<group>-<name>`): the key of recorded outcomes.
    pub id: String,
    /// The file.
    pub path: PathBuf,
    /// The file as written, `$text` recipes unexpanded (what bless rewrites).
    pub raw: Value,
    /// `$text` recipes expanded.
    pub expanded: Value,
    /// Stand-ins for the file's escaped lone surrogates (`"\ud83d"`), which serde_json
    /// cannot hold; empty for most vectors.
    pub lone: LoneSurrogates,
}

/// The materializer's options: the conversation and the limits (defaults filled in).
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// `options.conversationId`.
    pub conversation_id: String,
    /// `options.maxInlineChars`, default 4000.
    pub max_inline_chars: usize,
    /// `options.maxInlineBytes`, default 16384.
    pub max_inline_bytes: usize,
    /// `options.snippetLines`, default 40.
    pub snippet_lines: usize,
    /// `options.snippetBytes`, default none.
    pub snippet_bytes: Option<usize>,
    /// `options.offloadDir`, default none: a virtual absolute path.
    pub offload_dir: Option<String>,
    /// `options.tools`: `{ name: { maxInlineChars?, maxInlineBytes?, materialize? } }`.
    pub tools: Vec<(String, ToolLimits)>,
    /// `options.redact`: `true` or `{ patterns, replace? }`, default off.
    pub redact: Redaction,
    /// `options.messageBudgetChars`, default none.
    pub message_budget_chars: Option<usize>,
    /// `options.contextWindow`: `{ tokens, resultShare? }`, default none.
    pub context_window: Option<tool_offload_core::materialize::ContextWindow>,
    /// `options.countTokens: "words"`: tokens are space-separated words (a runner's
    /// stand-in for a host's tokenizer), else core's estimate.
    pub count_words: bool,
}

/// A vector's `redact` option: `true`, or `{ patterns: [string | { pattern, kind?,
/// ignoreCase? }], replace? }` (a vector holds valid ones only); anything else is off.
pub fn redaction(value: &Value) -> Redaction {
    if let Some(on) = value.as_bool() {
        return on.into();
    }
    let Some(options) = value.as_object() else {
        return Redaction::off();
    };
    let patterns = options
        .get("patterns")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|p| match p.as_str() {
            Some(pattern) => RedactPattern::new(pattern),
            None => RedactPattern {
                kind: p["kind"].as_str().unwrap_or("custom").into(),
                pattern: p["pattern"].as_str().unwrap_or_default().into(),
                ignore_case: p["ignoreCase"].as_bool().unwrap_or(false),
            },
        })
        .collect();
    let replace = options
        .get("replace")
        .and_then(Value::as_str)
        .map(str::to_owned);
    Redaction::with_patterns(patterns, replace).expect("a vector's patterns are valid")
}

/// The `countTokens: "words"` counter: space-separated words.
pub fn count_words(text: &str) -> usize {
    text.split(' ').count()
}

impl Options {
    /// Core's options for a materializer under `user_data` (an empty `cwd`: the tokio
    /// host fills it in, core's runner gives `/`), so a new option is read here once for
    /// every runner.
    pub fn materializer_options(
        &self,
        user_data: impl Into<String>,
    ) -> tool_offload_core::materialize::MaterializerOptions {
        tool_offload_core::materialize::MaterializerOptions {
            max_inline_chars: self.max_inline_chars,
            max_inline_bytes: self.max_inline_bytes,
            snippet_lines: self.snippet_lines,
            snippet_bytes: self.snippet_bytes,
            offload_dir: self.offload_dir.clone(),
            tools: self.tools.clone(),
            redact: self.redact.clone(),
            message_budget_chars: self.message_budget_chars,
            context_window: self.context_window,
            ..tool_offload_core::materialize::MaterializerOptions::at(
                user_data,
                &self.conversation_id,
            )
        }
    }
}

/// Every vector, sorted by file name.
pub fn load() -> Vec<Vector> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("tests/vectors exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".json"))
        })
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no vectors found");
    paths
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("readable vector");
            let (marked, lone) = LoneSurrogates::mark(&bytes).expect("lone surrogates marked");
            let text = std::str::from_utf8(&marked).expect("UTF-8 vector");
            let raw = json::parse(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let expanded = expand(&raw);
            Vector {
                id: path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .expect("utf-8 file name")
                    .to_owned(),
                path,
                raw,
                expanded,
                lone,
            }
        })
        .collect()
}

impl Vector {
    /// The virtual working directory (`cwd`, default `/work`).
    pub fn cwd(&self) -> &str {
        self.expanded["cwd"].as_str().unwrap_or("/work")
    }

    /// The materializer's options (`conversationId` default `conv-1`).
    pub fn options(&self) -> Options {
        let o = &self.expanded["options"];
        let num = |key: &str, default: usize| {
            o.get(key)
                .and_then(Value::as_u64)
                .map_or(default, |n| n as usize)
        };
        Options {
            conversation_id: o["conversationId"].as_str().unwrap_or("conv-1").to_owned(),
            max_inline_chars: num("maxInlineChars", 4000),
            max_inline_bytes: num("maxInlineBytes", 16384),
            snippet_lines: num("snippetLines", 40),
            snippet_bytes: o["snippetBytes"].as_u64().map(|n| n as usize),
            offload_dir: o["offloadDir"].as_str().map(str::to_owned),
            tools: tool_limits(&o["tools"]),
            redact: redaction(&o["redact"]),
            message_budget_chars: o["messageBudgetChars"].as_u64().map(|n| n as usize),
            context_window: o["contextWindow"]["tokens"].as_u64().map(|tokens| {
                let mut window =
                    tool_offload_core::materialize::ContextWindow::new(tokens as usize);
                if let Some(share) = o["contextWindow"]["resultShare"].as_f64() {
                    window.result_share = share;
                }
                window
            }),
            count_words: o["countTokens"].as_str() == Some("words"),
        }
    }

    pub(super) fn steps(&self) -> &[Value] {
        self.expanded["steps"]
            .as_array()
            .unwrap_or_else(|| panic!("{}: steps", self.id))
    }

    /// The expected canonical outcome, given the actual results of the steps (for
    /// `$from`). `None` while a `$core` text is not blessed yet.
    pub fn expected(&self, actual: &[Value]) -> Option<String> {
        let mut steps = Vec::new();
        for step in self.steps() {
            let mut out = Map::new();
            if let Some(error) = step.get("error") {
                out.insert("error".into(), resolve(error, actual, true)?);
            } else {
                let expect = resolve(&step["expect"], actual, true)?;
                out.insert("expect".into(), expect);
            }
            steps.push(Value::Object(out));
        }
        let mut out = Map::new();
        out.insert("steps".into(), Value::Array(steps));
        out.insert("files".into(), self.expanded["files"].clone());
        Some(
            self.lone
                .restore(&json::stringify(&Value::Object(out)))
                .into_owned(),
        )
    }

    /// Write the vector back with every `$core` text taken from `actual` (results) and
    /// `steps` (step outcomes: error messages). Refuses (the
    /// difference as error) unless everything else already matches.
    pub fn bless(&self, actual: &[Value], steps: &[Value], outcome: &str) -> Result<(), String> {
        let mut raw = self.raw.clone();
        for (i, step) in raw["steps"]
            .as_array_mut()
            .expect("steps")
            .iter_mut()
            .enumerate()
        {
            if let (Some(expect), Some(got)) = (step.get_mut("expect"), actual.get(i)) {
                fill_core(expect, got);
            }
            if let (Some(error), Some(got)) = (step.get_mut("error"), steps.get(i)) {
                fill_core(error, &got["error"]);
            }
        }
        let blessed = Vector {
            expanded: expand(&raw),
            raw,
            ..self.clone()
        };
        let want = blessed.expected(actual).unwrap_or_default();
        if want != outcome {
            return Err(format!(
                "{}: not blessed, facts other than core texts differ:\n{}",
                self.id,
                first_difference(&want, outcome)
            ));
        }
        let text = serde_json::to_string_pretty(&blessed.raw).expect("serialisable") + "\n";
        let text = self.lone.restore(&text);
        std::fs::write(&self.path, text.as_bytes()).expect("write blessed vector");
        Ok(())
    }
}

/// A `tools` option (`{ [name]: { maxInlineChars?, maxInlineBytes?, maxInlineTokens?,
/// materialize? } }`) of a Materializer or a Workspace, in key order.
pub(super) fn tool_limits(tools: &Value) -> Vec<(String, ToolLimits)> {
    let Some(tools) = tools.as_object() else {
        return Vec::new();
    };
    tools
        .iter()
        .map(|(name, t)| {
            let count = |k: &str| t[k].as_u64().map(|n| n as usize);
            let materialize = match t["materialize"].as_str() {
                Some("never") => Some(MaterializeWhen::Never),
                Some("always") => Some(MaterializeWhen::Always),
                _ => None,
            };
            let limits = ToolLimits {
                max_inline_chars: count("maxInlineChars"),
                max_inline_bytes: count("maxInlineBytes"),
                max_inline_tokens: count("maxInlineTokens"),
                materialize,
            };
            (name.clone(), limits)
        })
        .collect()
}
