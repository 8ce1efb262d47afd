//! Shared by `agent_loop.rs` and `materialize_loop.rs` (each includes it with
//! `#[path = "common/scripted_loop.rs"] mod scripted_loop;`): the scripted model, the
//! turn loop, the size accounting and the failing build both demos replay.
//! `examples/lib/scripted-loop.mjs` is the JavaScript counterpart.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use tool_offload::tools::{ToolDefinition, ToolOutput, ToolResult};
use tool_offload::{json, utf16_len, ToolRegistry, Value};

pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Rewrites one string of a script turn as the model says it, given the history so far.
pub type FillText = fn(&str, &[Value]) -> Result<String, String>;

/// A model that replies with the script's assistant turns in order. Like a real model it
/// reads earlier results: every string of a turn goes through its [`FillText`].
pub struct ScriptedModel {
    turns: Vec<Value>,
    next: usize,
    fill_text: FillText,
}

impl ScriptedModel {
    pub fn new(turns: &Value, fill_text: FillText) -> Result<Self, String> {
        let turns = turns
            .as_array()
            .ok_or("script.json: `assistant` must be an array")?;
        Ok(ScriptedModel {
            turns: turns.clone(),
            next: 0,
            fill_text,
        })
    }

    pub fn reply(&mut self, history: &[Value]) -> Result<Value, String> {
        let turn = self
            .turns
            .get(self.next)
            .ok_or("the script has no more turns")?;
        self.next += 1;
        self.fill(turn, history)
    }

    fn fill(&self, value: &Value, history: &[Value]) -> Result<Value, String> {
        Ok(match value {
            Value::String(s) => Value::String((self.fill_text)(s, history)?),
            Value::Array(items) => items
                .iter()
                .map(|v| self.fill(v, history))
                .collect::<Result<_, _>>()?,
            Value::Object(map) => (map.iter())
                .map(|(k, v)| Ok((k.clone(), self.fill(v, history)?)))
                .collect::<Result<_, String>>()?,
            other => other.clone(),
        })
    }
}

/// The content of the tool result for `id` in `history`, if there is one.
pub fn result_content<'a>(history: &'a [Value], id: &str) -> Option<&'a str> {
    history
        .iter()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .find(|b| b["type"] == "tool_result" && b["tool_use_id"] == id)
        .and_then(|b| b["content"].as_str())
}

/// One tool call of the loop, as reported by `print_call`.
pub struct Call<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub result: &'a ToolResult,
    /// `result` with its full text, read back from `file`.
    pub full: &'a ToolResult,
    /// The file that holds the full text, `None` for a result kept inline.
    pub file: Option<&'a str>,
}

impl Call<'_> {
    /// `" (is_error)"` for a result that reports an error, else nothing.
    pub fn flag(&self) -> &'static str {
        if self.result.is_error {
            " (is_error)"
        } else {
            ""
        }
    }
}

/// A finished conversation. `history` is what the loop sent; `full_history` is the same
/// conversation with every result whose full text is in a file read back from it.
pub struct Loop {
    pub history: Vec<Value>,
    pub full_history: Vec<Value>,
    /// The files holding full results, in the order they appeared.
    pub files: Vec<String>,
    /// Characters sent over all the model calls, and what `full_history` would have sent.
    pub sent: usize,
    pub sent_full: usize,
}

/// The agent loop: prints `title`, the tools and the prompt, then asks `model` for a turn,
/// prints its text and runs its tool calls through `registry` until a turn has none.
/// `full_copy(content)` names the file holding a result's full text (`None` for a result
/// kept inline); `print_call` reports each call.
pub async fn run_loop(
    title: &str,
    registry: &ToolRegistry,
    model: &mut ScriptedModel,
    prompt: &str,
    full_copy: impl Fn(&str) -> Option<String>,
    mut print_call: impl FnMut(Call) -> Result<(), Error>,
) -> Result<Loop, Error> {
    let tools = registry.get_tool_definitions(); // what a real loop passes as `tools`
    let message = json!({"role": "user", "content": prompt});
    let mut history = vec![message.clone()];
    let mut full_history = vec![message];
    let mut files = Vec::new();
    let (mut sent, mut sent_full) = (0, 0);

    println!("{title}, scripted model:");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    println!("  {} tools: {}", tools.len(), names.join(", "));
    println!("  user: {prompt}");
    for turn in 1.. {
        sent += size(&history);
        sent_full += size(&full_history);
        let reply = model.reply(&history)?;
        history.push(reply.clone());
        full_history.push(reply.clone());
        let blocks = reply["content"]
            .as_array()
            .ok_or("a turn without content")?;
        let said = blocks
            .iter()
            .find(|b| b["type"] == "text")
            .and_then(|b| b["text"].as_str())
            .unwrap_or_default();
        let mut lines = said.split('\n');
        println!(
            "  turn {turn} assistant: {}",
            lines.next().unwrap_or_default()
        );
        for line in lines {
            println!("{}", format!("  | {line}").trim_end());
        }
        let calls: Vec<&Value> = blocks.iter().filter(|b| b["type"] == "tool_use").collect();
        if calls.is_empty() {
            break; // end_turn: no tool_use, the model has answered
        }

        let (mut results, mut full_results) = (Vec::new(), Vec::new());
        for call in calls {
            let (id, name) = (text(call, "id")?, text(call, "name")?);
            let result = registry
                .execute_tool(id, name, call["input"].clone())
                .await?;
            let file = full_copy(&result.content);
            let full = match &file {
                Some(file) => ToolResult {
                    content: tokio::fs::read_to_string(file).await?,
                    ..result.clone()
                },
                None => result.clone(),
            };
            print_call(Call {
                id,
                name,
                result: &result,
                full: &full,
                file: file.as_deref(),
            })?;
            files.extend(file);
            results.push(result.to_value());
            full_results.push(full.to_value());
        }
        history.push(json!({"role": "user", "content": results}));
        full_history.push(json!({"role": "user", "content": full_results}));
    }
    Ok(Loop {
        history,
        full_history,
        files,
        sent,
        sent_full,
    })
}

impl Loop {
    /// The line above the size report: how many messages the conversation has.
    pub fn print_size_heading(&self) {
        let n = self.history.len();
        println!("\nConversation size ({n} messages; JSON characters, ~4 per token):");
    }

    /// What was sent over all the model calls, and what would have been `without` the feature.
    pub fn print_sent(&self, without: &str) {
        let calls = (self.history.iter())
            .filter(|m| m["role"] == "assistant")
            .count();
        let (sent, sent_full) = (self.sent, self.sent_full);
        let (t, t_full) = (tokens(sent), tokens(sent_full));
        println!(
            "Sent to the model over {calls} calls: {sent} chars (~{t} tokens); \
             without {without} {sent_full} chars (~{t_full} tokens)"
        );
    }
}

/// `heading`, then each file relative to `dir` (padded to `width`) with its size in bytes.
pub async fn print_files<S: AsRef<str>>(
    heading: &str,
    dir: &str,
    files: impl IntoIterator<Item = S>,
    width: usize,
) -> Result<(), Error> {
    println!("\n{heading}");
    for file in files {
        let file = file.as_ref();
        let bytes = tokio::fs::metadata(file).await?.len();
        println!("  {:<width$} {bytes:>6} bytes", relative(dir, file)?);
    }
    Ok(())
}

/// `file` relative to `dir` (which may itself be relative to the working directory).
pub fn relative(dir: &str, file: &str) -> Result<String, Error> {
    let base = std::env::current_dir()?.join(dir);
    let file = Path::new(file);
    let shown = file.strip_prefix(&base).or(file.strip_prefix(dir))?;
    Ok(shown.display().to_string())
}

/// Size of a conversation as the API receives it: UTF-16 length of its JSON.
pub fn size<'a>(messages: impl IntoIterator<Item = &'a Value>) -> usize {
    let array = Value::Array(messages.into_iter().cloned().collect());
    utf16_len(&json::stringify(&array))
}

/// A rough token estimate: about four characters per token.
pub fn tokens(chars: usize) -> usize {
    (chars as f64 / 4.0).round() as usize
}

pub fn chars(n: usize) -> String {
    format!("{n:>6} chars ≈ {:>5} tokens", tokens(n))
}

/// A string field of a script value.
pub fn text<'a>(value: &'a Value, key: &str) -> Result<&'a str, String> {
    value[key]
        .as_str()
        .ok_or_else(|| format!("script.json: `{key}` must be a string"))
}

/// A non-negative integer field of a script value.
pub fn number(value: &Value, key: &str) -> Result<usize, String> {
    value[key]
        .as_u64()
        .map(|n| n as usize)
        .ok_or_else(|| format!("script.json: `{key}` must be a non-negative integer"))
}

/// Registers `run_build`, whose result is always the build log `build` describes (see
/// [`generate_build_log`]). The build fails, so the result reports is_error, which
/// offloading and materializing keep.
pub fn register_build_tool(registry: &mut ToolRegistry, build: &Value) -> Result<(), Error> {
    let build_log: Arc<str> = generate_build_log(build)?.into();
    let run_build = ToolDefinition::new(
        "run_build",
        "Run a build command in the repository and return its full output.",
        json!({"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}),
    );
    registry.register(run_build, move |_| {
        let log = build_log.clone();
        async move { Ok(ToolOutput::error(log.to_string())) }
    })?;
    Ok(())
}

/// A deterministic cargo-style build log of about `targetChars` characters: compile
/// lines with a warning every 89th line, `buried[i]` (if given) inserted after line i,
/// then `tail` (`{warnings}` filled in). The random numbers are a Park–Miller generator
/// (exact in both JavaScript and Rust integers).
fn generate_build_log(build: &Value) -> Result<String, String> {
    let strings = |list: &Value| -> Vec<String> {
        let items = list.as_array().into_iter().flatten();
        items.filter_map(Value::as_str).map(str::to_owned).collect()
    };
    let mut state = number(build, "seed")? as u64;
    let target = number(build, "targetChars")?;
    let mut next = |n: usize| {
        state = state * 48271 % 2_147_483_647;
        (state % n as u64) as usize
    };
    let crates = strings(&build["crates"]);
    if crates.is_empty() {
        return Err("script.json: `build.crates` must list crate names".into());
    }
    let (mut lines, mut total, mut warnings) = (Vec::new(), 0, 0);
    let mut i = 0;
    while total < target {
        i += 1;
        let krate = &crates[next(crates.len())];
        let version = format!("0.{}.{}", next(30), next(20));
        let ms = next(3000);
        let line = if i % 89 == 0 {
            warnings += 1;
            let at = format!("src/worker_{}.rs:{}:9", i % 9, ms % 400 + 1);
            format!("warning: unused variable: `tmp_{i}` — {at}")
        } else if i % 37 == 0 {
            format!("  Downloaded {krate} v{version} ({} KB)", ms % 900 + 20)
        } else {
            format!("   Compiling {krate} v{version} (build #{i}, {ms} ms)")
        };
        let buried = strings(&build["buried"][i.to_string()]);
        for added in std::iter::once(line).chain(buried) {
            total += utf16_len(&added) + 1;
            lines.push(added);
        }
    }
    for line in strings(&build["tail"]) {
        lines.push(line.replace("{warnings}", &warnings.to_string()));
    }
    Ok(lines.join("\n"))
}
