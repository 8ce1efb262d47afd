//! Materialization vectors (`tests/vectors/materialize-*.json`, issue 5): a small
//! interpreter of their steps, shared by the native hosts.
//!
//! A vector names the options of one conversation's materializer and a list of steps
//! (`materialize`, `terminal`, `read`, `tail`, `grep`, `materializeMessages`, `export`,
//! `import`), each with its expected result or error code, and the complete set of
//! files under the user-data root at the end. See `tests/vectors/generate-materialize.mjs`
//! for the format, including the `$text` (string recipe), `$from` (result of an earlier
//! step) and `$core` (text whose format core defines, filled in by bless mode) forms.
//!
//! A host implements [`Host`]: it runs one [`Op`] and returns the result in canonical
//! form (built with [`materialized`], [`context_ref`] and [`relative`]). [`run`] turns
//! a vector into its canonical outcome; [`expected`] gives what it must be.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tool_offload_core::materialize::{ContextRef, Materialized, MAX_PREVIEW_CHARS};
use tool_offload_core::{json, utf16_len, Map, OffloadError, Value};

use crate::vectors_dir;

/// Environment variable that turns on bless mode.
pub const BLESS: &str = "TOOL_OFFLOAD_BLESS";

/// One materialization vector.
#[derive(Debug, Clone)]
pub struct Vector {
    /// The file name without `.json` (`materialize-<name>`): the key of recorded outcomes.
    pub id: String,
    /// The file.
    pub path: PathBuf,
    /// The file as written, `$text` recipes unexpanded (what bless rewrites).
    pub raw: Value,
    /// `$text` recipes expanded.
    pub expanded: Value,
}

/// The materializer's options: the conversation and the limits (defaults filled in).
#[derive(Debug, Clone, PartialEq, Eq)]
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
}

/// One step, inputs resolved.
#[derive(Debug, Clone)]
pub enum Op {
    /// `materialize({ toolCallId, toolName, serverName?, output })`.
    Materialize {
        /// `toolCallId`.
        tool_call_id: String,
        /// `toolName`.
        tool_name: String,
        /// `serverName`.
        server_name: Option<String>,
        /// `output`: a string or any JSON value.
        output: Value,
    },
    /// `materializeTerminal(snippetId, text)`.
    Terminal {
        /// `snippetId`.
        snippet_id: String,
        /// `text`.
        text: String,
    },
    /// `read(ref, { offset, part, limit })`, defaults applied.
    Read {
        /// `ref`.
        reference: String,
        /// `offset` (0).
        offset: usize,
        /// `part` (1).
        part: usize,
        /// `limit` (200).
        limit: usize,
        /// A user-data directory relative to the root, for another materializer.
        user_data: Option<String>,
    },
    /// `tail(ref, lines)`, default applied.
    Tail {
        /// `ref`.
        reference: String,
        /// `lines` (200).
        lines: usize,
        /// As in `Read`.
        user_data: Option<String>,
    },
    /// `grep(ref, pattern, { context, maxMatches, ignoreCase })`, defaults applied.
    Grep {
        /// `ref`.
        reference: String,
        /// `pattern`.
        pattern: String,
        /// `context` (2).
        context: usize,
        /// `maxMatches` (50).
        max_matches: usize,
        /// `ignoreCase` (false).
        ignore_case: bool,
        /// As in `Read`.
        user_data: Option<String>,
    },
    /// `materializeMessages(messages)`.
    Messages {
        /// `messages`.
        messages: Vec<Value>,
    },
    /// `exportConversation(messages)`.
    Export {
        /// `messages`.
        messages: Vec<Value>,
    },
    /// `importConversation(bundle, { userData })`.
    Import {
        /// `bundle`.
        bundle: Value,
        /// Relative to the root; `None` for the root itself.
        user_data: Option<String>,
    },
}

/// A host under test.
#[allow(async_fn_in_trait)] // the runner awaits them in place; no Send bound needed
pub trait Host {
    /// Run `op`; the result in canonical form, paths relative to the root.
    async fn run(&self, op: &Op) -> Result<Value, OffloadError>;
    /// Every file under the root, by path relative to it.
    fn files(&self) -> BTreeMap<String, String>;
}

/// Every materialization vector, sorted by file name.
pub fn load() -> Vec<Vector> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("tests/vectors exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("materialize-") && n.ends_with(".json"))
        })
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no materialize vectors found");
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable vector");
            let raw = json::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
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
            }
        })
        .collect()
}

impl Vector {
    /// The materializer's options.
    pub fn options(&self) -> Options {
        let o = &self.expanded["options"];
        let num = |key: &str, default: usize| {
            o.get(key)
                .and_then(Value::as_u64)
                .map_or(default, |n| n as usize)
        };
        Options {
            conversation_id: o["conversationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{}: options.conversationId", self.id))
                .to_owned(),
            max_inline_chars: num("maxInlineChars", 4000),
            max_inline_bytes: num("maxInlineBytes", 16384),
            snippet_lines: num("snippetLines", 40),
            snippet_bytes: o["snippetBytes"].as_u64().map(|n| n as usize),
        }
    }

    fn steps(&self) -> &[Value] {
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
                out.insert("error".into(), error.clone());
            } else {
                let expect = resolve(&step["expect"], actual, true)?;
                out.insert("expect".into(), expect);
            }
            steps.push(Value::Object(out));
        }
        let mut out = Map::new();
        out.insert("steps".into(), Value::Array(steps));
        out.insert("files".into(), self.expanded["files"].clone());
        Some(json::stringify(&Value::Object(out)))
    }

    /// Write the vector back with every `$core` text taken from `actual`. Refuses (the
    /// difference as error) unless everything else already matches.
    pub fn bless(&self, actual: &[Value], outcome: &str) -> Result<(), String> {
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
        std::fs::write(&self.path, text).expect("write blessed vector");
        Ok(())
    }
}

/// Run every step of `vector` through `host`; the canonical outcome and each step's
/// result (`Null` for a failed step).
pub async fn run<H: Host>(vector: &Vector, host: &H) -> (String, Vec<Value>) {
    let options = vector.options();
    let mut actual: Vec<Value> = Vec::new();
    let mut steps = Vec::new();
    let mut problems = Vec::new();
    for (i, step) in vector.steps().iter().enumerate() {
        let op = parse_op(step, &actual, &vector.id, i);
        let mut out = Map::new();
        match host.run(&op).await {
            Ok(result) => {
                problems.extend(shape_problems(&op, &result, &options, i));
                out.insert("expect".into(), result.clone());
                actual.push(result);
            }
            Err(err) => {
                let mut code = Map::new();
                code.insert("code".into(), err.code().as_str().into());
                out.insert("error".into(), Value::Object(code));
                actual.push(Value::Null);
            }
        }
        steps.push(Value::Object(out));
    }
    let mut out = Map::new();
    out.insert("steps".into(), Value::Array(steps));
    let files: Map<String, Value> = host
        .files()
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    out.insert("files".into(), Value::Object(files));
    if !problems.is_empty() {
        out.insert(
            "problems".into(),
            problems.into_iter().map(Value::from).collect(),
        );
    }
    (json::stringify(&Value::Object(out)), actual)
}

fn parse_op(step: &Value, actual: &[Value], id: &str, i: usize) -> Op {
    let step = resolve(step, actual, false).expect("inputs hold no $core");
    let s = |key: &str| {
        step[key]
            .as_str()
            .unwrap_or_else(|| panic!("{id} step {i}: {key}"))
            .to_owned()
    };
    let n = |key: &str, default: usize| {
        step.get(key)
            .map_or(default, |v| v.as_u64().expect("a count") as usize)
    };
    let user_data = step
        .get("userData")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let messages = || {
        step["messages"]
            .as_array()
            .unwrap_or_else(|| panic!("{id} step {i}: messages"))
            .clone()
    };
    match step["op"].as_str() {
        Some("materialize") => Op::Materialize {
            tool_call_id: s("toolCallId"),
            tool_name: s("toolName"),
            server_name: step
                .get("serverName")
                .and_then(Value::as_str)
                .map(str::to_owned),
            output: step["output"].clone(),
        },
        Some("terminal") => Op::Terminal {
            snippet_id: s("snippetId"),
            text: s("text"),
        },
        Some("read") => Op::Read {
            reference: s("ref"),
            offset: n("offset", 0),
            part: n("part", 1),
            limit: n("limit", 200),
            user_data,
        },
        Some("tail") => Op::Tail {
            reference: s("ref"),
            lines: n("lines", 200),
            user_data,
        },
        Some("grep") => Op::Grep {
            reference: s("ref"),
            pattern: s("pattern"),
            context: n("context", 2),
            max_matches: n("maxMatches", 50),
            ignore_case: step
                .get("ignoreCase")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            user_data,
        },
        Some("materializeMessages") => Op::Messages {
            messages: messages(),
        },
        Some("export") => Op::Export {
            messages: messages(),
        },
        Some("import") => Op::Import {
            bundle: step["bundle"].clone(),
            user_data,
        },
        other => panic!("{id} step {i}: unknown op {other:?}"),
    }
}

/// Invariants of summaries and pages, whatever the vector expects: a failed one adds a
/// `problems` entry to the outcome, so it cannot match.
fn shape_problems(op: &Op, result: &Value, options: &Options, i: usize) -> Vec<String> {
    let mut problems = Vec::new();
    let max = options.max_inline_chars;
    let summaries: Vec<(&str, &str)> = match op {
        Op::Materialize { .. } | Op::Terminal { .. } => {
            match (result["content"].as_str(), result["ref"]["id"].as_str()) {
                (Some(s), Some(r)) if result["inline"] == Value::Bool(false) => vec![(s, r)],
                _ => vec![],
            }
        }
        Op::Messages { .. } => {
            // Each summary names its ref on its first line.
            let mut found = Vec::new();
            let refs: Vec<&str> = result["refs"]
                .as_array()
                .map(|r| r.iter().filter_map(|r| r["id"].as_str()).collect())
                .unwrap_or_default();
            visit(&result["messages"], &mut |s| {
                if let Some(r) = refs.iter().find(|r| {
                    s.lines()
                        .next()
                        .is_some_and(|l| l.contains(&format!(" stored as {r} ")))
                }) {
                    found.push((s, *r));
                }
            });
            found
        }
        _ => vec![],
    };
    for (s, reference) in summaries {
        let first = s.lines().next().unwrap_or("");
        let advice = format!(
            "If you need more: context_tail(\"{reference}\", 200) or context_grep(\"{reference}\", \"Error|Exception\")."
        );
        if !(first.starts_with("[Output of ")
            && first.contains(&format!(" stored as {reference} ")))
        {
            problems.push(format!("step {i}: summary does not start with its pointer"));
        }
        if !s.lines().any(|l| l.starts_with("Size: ")) {
            problems.push(format!("step {i}: summary has no Size: line"));
        }
        if !s.contains(&advice) {
            problems.push(format!("step {i}: summary has no reading advice"));
        }
        if utf16_len(s) >= max {
            problems.push(format!(
                "step {i}: summary is {} units, not under {max}",
                utf16_len(s)
            ));
        }
        if s.lines().skip(1).any(preview_too_long) {
            problems.push(format!(
                "step {i}: summary has a preview line over {MAX_PREVIEW_CHARS} + marker"
            ));
        }
    }
    if let (Op::Read { .. } | Op::Tail { .. } | Op::Grep { .. }, Some(page)) = (op, result.as_str())
    {
        if utf16_len(page) > max {
            problems.push(format!(
                "step {i}: page is {} units, over {max}",
                utf16_len(page)
            ));
        }
    }
    problems
}

/// Whether `line` is a numbered preview line (`12| …`) longer than
/// [`MAX_PREVIEW_CHARS`] without its cut marker.
fn preview_too_long(line: &str) -> bool {
    let Some((label, text)) = line.split_once("| ") else {
        return false;
    };
    if label.is_empty() || !label.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let text = match text.rfind(" …[cut: ") {
        Some(at) if text.ends_with(" more characters]") => &text[..at],
        _ => text,
    };
    utf16_len(text) > MAX_PREVIEW_CHARS
}

fn visit<'a>(value: &'a Value, f: &mut impl FnMut(&'a str)) {
    match value {
        Value::String(s) => f(s),
        Value::Array(items) => items.iter().for_each(|v| visit(v, f)),
        Value::Object(fields) => fields.values().for_each(|v| visit(v, f)),
        _ => {}
    }
}

/// `value` with every `{"$text": [...]}` recipe expanded.
pub fn expand(value: &Value) -> Value {
    match value {
        Value::Object(fields) => {
            if let (1, Some(Value::Array(parts))) = (fields.len(), fields.get("$text")) {
                let mut text = String::new();
                for part in parts {
                    match part {
                        Value::String(s) => text.push_str(s),
                        Value::Array(pair) => {
                            let s = pair[0].as_str().expect("$text part string");
                            let times = pair[1].as_u64().expect("$text part count") as usize;
                            text.push_str(&s.repeat(times));
                        }
                        other => panic!("bad $text part {other}"),
                    }
                }
                return Value::String(text);
            }
            Value::Object(fields.iter().map(|(k, v)| (k.clone(), expand(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(expand).collect()),
        other => other.clone(),
    }
}

/// `value` with `$from` replaced by earlier results and, in expectations, `$core`
/// unwrapped (`None` for an unblessed one).
fn resolve(value: &Value, actual: &[Value], expectation: bool) -> Option<Value> {
    Some(match value {
        Value::Object(fields) if fields.len() == 1 && fields.contains_key("$from") => {
            let path = fields["$from"].as_array().expect("$from path");
            let step = path[0].as_u64().expect("$from step") as usize;
            let mut at = actual.get(step).cloned().unwrap_or(Value::Null);
            for key in &path[1..] {
                at = match key {
                    Value::String(k) => at.get(k.as_str()).cloned(),
                    Value::Number(n) => at.get(n.as_u64().expect("index") as usize).cloned(),
                    _ => None,
                }
                .unwrap_or(Value::Null);
            }
            at
        }
        Value::Object(fields)
            if expectation && fields.len() == 1 && fields.contains_key("$core") =>
        {
            let text = &fields["$core"];
            if text.is_null() {
                return None;
            }
            text.clone()
        }
        Value::Object(fields) => {
            let mut out = Map::new();
            for (k, v) in fields {
                out.insert(k.clone(), resolve(v, actual, expectation)?);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| resolve(v, actual, expectation))
                .collect::<Option<_>>()?,
        ),
        other => other.clone(),
    })
}

/// Replace the text of every `$core` in `expect` with the matching part of `got`.
fn fill_core(expect: &mut Value, got: &Value) {
    match expect {
        Value::Object(fields) if fields.len() == 1 && fields.contains_key("$core") => {
            fields.insert("$core".into(), got.clone());
        }
        Value::Object(fields)
            if fields.len() == 1
                && (fields.contains_key("$from") || fields.contains_key("$text")) => {}
        Value::Object(fields) => {
            for (k, v) in fields.iter_mut() {
                if let Some(g) = got.get(k.as_str()) {
                    fill_core(v, g);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                if let Some(g) = got.get(i) {
                    fill_core(v, g);
                }
            }
        }
        _ => {}
    }
}

/// Where two canonical outcomes first differ, with some context.
pub fn first_difference(want: &str, got: &str) -> String {
    let at = want
        .char_indices()
        .zip(got.chars())
        .find(|((_, a), b)| a != b)
        .map_or(want.len().min(got.len()), |((i, _), _)| i);
    let from = floor(want, at.saturating_sub(300));
    let show = |s: &str| {
        let start = floor(s, from.min(s.len()));
        let end = floor(s, (at + 300).min(s.len()));
        s[start..end].to_owned()
    };
    format!(
        "at byte {at}:\n  expected …{}…\n  got      …{}…",
        show(want),
        show(got)
    )
}

fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `path` relative to `root` (`<root>/…`); marked when outside it, so it cannot match.
pub fn relative(path: &str, root: &str) -> String {
    match path.strip_prefix(root).and_then(|p| p.strip_prefix('/')) {
        Some(rel) => rel.to_owned(),
        None => format!("OUTSIDE THE ROOT: {path}"),
    }
}

/// A ref as the JavaScript API gives it: `{ kind, id, hint: { toolName, serverName?,
/// toolCallId, bytes, chars, lines, isJson } }`.
pub fn context_ref(reference: &ContextRef) -> Value {
    let h = &reference.hint;
    let mut hint = Map::new();
    hint.insert("toolName".into(), h.tool_name.clone().into());
    if let Some(server) = &h.server_name {
        hint.insert("serverName".into(), server.clone().into());
    }
    hint.insert("toolCallId".into(), h.tool_call_id.clone().into());
    hint.insert("bytes".into(), h.bytes.into());
    hint.insert("chars".into(), h.chars.into());
    hint.insert("lines".into(), h.lines.into());
    hint.insert("isJson".into(), h.is_json.into());
    let mut out = Map::new();
    out.insert("kind".into(), "artifact".into());
    out.insert("id".into(), reference.id.clone().into());
    out.insert("hint".into(), Value::Object(hint));
    Value::Object(out)
}

/// The result of `materialize` / `materializeTerminal`: `{ inline: true, content }` with
/// the output given, or `{ inline: false, content, ref, path }`.
pub fn materialized(done: &Materialized, output: &Value, root: &str) -> Value {
    let mut out = Map::new();
    match done {
        Materialized::Inline => {
            out.insert("inline".into(), true.into());
            out.insert("content".into(), output.clone());
        }
        Materialized::Artifact {
            summary,
            reference,
            path,
        } => {
            out.insert("inline".into(), false.into());
            out.insert("content".into(), summary.clone().into());
            out.insert("ref".into(), context_ref(reference));
            out.insert("path".into(), relative(path, root).into());
        }
    }
    Value::Object(out)
}

/// The result of `materializeMessages`: `{ messages, refs, paths }`.
pub fn messages_result(
    messages: Vec<Value>,
    refs: &[ContextRef],
    paths: &[String],
    root: &str,
) -> Value {
    let mut out = Map::new();
    out.insert("messages".into(), Value::Array(messages));
    out.insert("refs".into(), refs.iter().map(context_ref).collect());
    out.insert(
        "paths".into(),
        paths
            .iter()
            .map(|p| Value::from(relative(p, root)))
            .collect(),
    );
    Value::Object(out)
}

/// The result of `importConversation`: `{ conversationId, messages, paths }`.
pub fn imported_result(
    conversation_id: &str,
    messages: Value,
    paths: &[String],
    root: &str,
) -> Value {
    let mut out = Map::new();
    out.insert("conversationId".into(), conversation_id.into());
    out.insert("messages".into(), messages);
    out.insert(
        "paths".into(),
        paths
            .iter()
            .map(|p| Value::from(relative(p, root)))
            .collect(),
    );
    Value::Object(out)
}

/// A bundle in canonical form: `{ format, version, conversationId, messages,
/// artifacts: [{ ref, path, sha256, content }] }`, other keys after them.
pub fn bundle_result(bundle: &Value) -> Value {
    let mut out = Map::new();
    for key in ["format", "version", "conversationId", "messages"] {
        out.insert(key.into(), bundle.get(key).cloned().unwrap_or(Value::Null));
    }
    let artifacts = bundle["artifacts"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|a| {
                    let mut o = Map::new();
                    for key in ["ref", "path", "sha256", "content"] {
                        o.insert(key.into(), a.get(key).cloned().unwrap_or(Value::Null));
                    }
                    Value::Object(o)
                })
                .collect()
        })
        .unwrap_or(Value::Null);
    out.insert("artifacts".into(), artifacts);
    if let Some(fields) = bundle.as_object() {
        for (k, v) in fields {
            if !out.contains_key(k) {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

/// Files under a real `root`, by path relative to it.
pub fn files_under(root: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    crate::collect(root, root, &mut found);
    found
        .into_iter()
        .map(|(k, v)| (k.trim_start_matches('/').to_owned(), v))
        .collect()
}
