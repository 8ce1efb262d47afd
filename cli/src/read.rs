//! Reading one input whole: a JSON array of messages, or a session log (Claude Code,
//! Codex) turned into one; the format told from the content when `--from auto`.

use std::fmt;

use clap::ValueEnum;

use tool_offload::core::materialize::count;
use tool_offload::core::transcript::{self, ClaudeCode, Codex, Format};
use tool_offload::json::{self, LoneSurrogates};
use tool_offload::Value;

use crate::error::CliError;
use crate::input::Input;
use crate::message_array::parse;

/// What an input holds (`--from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum From {
    /// Told from the content, and said on stderr.
    Auto,
    /// A JSON array of messages (Anthropic, OpenAI Chat or OpenAI Responses items).
    Messages,
    /// A Claude Code session log (~/.claude/projects/<project>/<session>.jsonl).
    ClaudeCode,
    /// A Codex CLI rollout (~/.codex/sessions/…/rollout-*.jsonl).
    Codex,
}

/// A conversation read from an input.
pub struct Conversation {
    /// The messages, lone surrogates as stand-ins (see `lone`).
    pub messages: Vec<Value>,
    /// Stand-ins for the escaped lone surrogates of the input.
    pub lone: LoneSurrogates,
    /// What the input held.
    pub format: Format,
    /// The input's size in bytes.
    pub bytes: u64,
}

/// Read `input` as `from` says (`auto`: a JSON array is messages; JSON Lines are a
/// Claude Code log or a Codex rollout by their first line).
pub fn read(
    input: &Input,
    from: From,
    include_sidechains: bool,
    lossy: bool,
) -> Result<Conversation, CliError> {
    let bytes = well_formed(input, not_empty(input, input.read_all()?)?, lossy)?;
    let bad = |e: &dyn fmt::Display| CliError::bad_input(format!("{}: {e}", input.name()));
    let (marked, lone) = LoneSurrogates::mark(&bytes).map_err(|e| bad(&e))?;
    let first = marked.iter().find(|b| !b.is_ascii_whitespace());
    let format = match from {
        From::Messages => Format::Messages,
        From::ClaudeCode => Format::ClaudeCode,
        From::Codex => Format::Codex,
        From::Auto if first != Some(&b'{') => Format::Messages,
        From::Auto => detected(&marked).map_err(|e| bad(&e))?,
    };
    let messages = match format {
        // Not an array either: the parser says what it found instead (JSON Lines of
        // messages are read with --jsonl).
        Format::Messages => parse(&marked).map_err(|e| bad(&e))?,
        Format::ClaudeCode => {
            let mut log = ClaudeCode::new(include_sidechains);
            let cut = lines(&marked, |line| log.push(line)).map_err(|e| bad(&e))?;
            incomplete(input, cut);
            restore_persisted(&mut log, input);
            let left_out = log.sidechain_events();
            let messages = log.finish();
            if messages.is_empty() && left_out > 0 {
                crate::inputs::note(&format!(
                    "{}: holds only side-chain (sub-agent) events ({left_out}), left out by default: add --include-sidechains to read them",
                    input.name()
                ));
            }
            messages
        }
        Format::Codex => {
            let mut rollout = Codex::default();
            let cut = lines(&marked, |line| rollout.push(line)).map_err(|e| bad(&e))?;
            incomplete(input, cut);
            rollout.finish()
        }
    };
    Ok(Conversation {
        messages,
        lone,
        format,
        bytes: bytes.len() as u64,
    })
}

/// An input as it is, for `audit`: a session log's lines unconverted (Claude Code, Codex)
/// or a JSON array's messages, and which of them it is.
pub fn read_raw(input: &Input, lossy: bool) -> Result<(Format, Vec<Value>), CliError> {
    let bytes = well_formed(input, not_empty(input, input.read_all()?)?, lossy)?;
    let bad = |e: &dyn fmt::Display| CliError::bad_input(format!("{}: {e}", input.name()));
    let (marked, _lone) = LoneSurrogates::mark(&bytes).map_err(|e| bad(&e))?;
    if marked.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Ok((Format::Messages, parse(&marked).map_err(|e| bad(&e))?));
    }
    let format = detected(&marked).map_err(|e| bad(&e))?;
    if format == Format::Messages {
        return Err(bad(
            &"JSON Lines that are neither a Claude Code log nor a Codex rollout",
        ));
    }
    let mut values = Vec::new();
    let cut = lines(&marked, |line| values.push(line)).map_err(|e| bad(&e))?;
    incomplete(input, cut);
    Ok((format, values))
}

/// The log format of JSON Lines, from its first line (logs start with a line of their
/// own: a Claude Code event or snapshot, a Codex `session_meta`).
fn detected(text: &[u8]) -> Result<Format, LineError> {
    let first = text
        .split(|&b| b == b'\n')
        .position(|line| !line.iter().all(u8::is_ascii_whitespace))
        .unwrap_or(0);
    let end = text
        .split(|&b| b == b'\n')
        .take(first + 1)
        .map(|l| l.len() + 1)
        .sum::<usize>()
        .min(text.len());
    let mut found = None;
    // A first line still being written says nothing.
    lines(&text[..end], |line| found = transcript::detect(&line))?;
    Ok(found.unwrap_or(Format::Messages))
}

/// Each non-blank line of JSON Lines `text`, parsed. A last line that is not JSON and has
/// no line ending is a line still being written (a live session log): it is left out,
/// and its number returned.
fn lines(text: &[u8], mut each: impl FnMut(Value)) -> Result<Option<usize>, LineError> {
    let complete = text.ends_with(b"\n");
    let count = text.split(|&b| b == b'\n').count();
    for (index, line) in text.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let error = |message: String| LineError {
            line: index + 1,
            message,
        };
        let parsed = std::str::from_utf8(line)
            .map_err(|e| e.to_string())
            .and_then(|line| json::parse(line).map_err(|e| e.to_string()));
        match parsed {
            Ok(value) => each(value),
            Err(_) if !complete && index + 1 == count => return Ok(Some(index + 1)),
            Err(message) => return Err(error(message)),
        }
    }
    Ok(None)
}

/// Say that the last line of `input`, number `line`, was left out as incomplete.
fn incomplete(input: &Input, line: Option<usize>) {
    if let Some(line) = line {
        crate::inputs::note(&format!(
            "{}: line {line} is incomplete (a session still being written?): read up to line {}",
            input.name(),
            line - 1
        ));
    }
}

/// A line of JSON Lines that is not JSON.
#[derive(Debug)]
struct LineError {
    line: usize,
    message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Put back the full text of each tool result a Claude Code log shows only as a
/// `<persisted-output>` preview, from `<session>/tool-results/<tool_use_id>.txt` beside
/// the log (where Claude Code saved it); say which could not be found, rather than
/// offload or materialize a 2 KB preview as if it were the output.
fn restore_persisted(log: &mut ClaudeCode, input: &Input) {
    let previews = log.previews();
    if previews.is_empty() {
        return;
    }
    let dir = input
        .path()
        .map(|path| path.with_extension("").join("tool-results"));
    let mut missing = Vec::new();
    for id in previews {
        // The id names a file: one safe component only, as core checks every id.
        let safe = tool_offload::core::path::unsafe_component(&id, ".txt".len()).is_none();
        let full = dir
            .as_ref()
            .filter(|_| safe)
            .and_then(|dir| std::fs::read(dir.join(format!("{id}.txt"))).ok());
        match full {
            Some(bytes) => {
                log.restore(&id, String::from_utf8_lossy(&bytes).into_owned());
            }
            None => missing.push(id),
        }
    }
    if !missing.is_empty() {
        let place = dir.map_or("beside the log".to_owned(), |d| d.display().to_string());
        let what = match missing.len() {
            1 => "is a <persisted-output> preview",
            _ => "are <persisted-output> previews",
        };
        crate::inputs::note(&format!(
            "{}: {} {what} whose full text is not in {place}: {}",
            input.name(),
            count(missing.len(), "tool result"),
            missing.join(", ")
        ));
    }
}

/// `bytes`, refused when there is nothing but white space in them.
fn not_empty(input: &Input, bytes: Vec<u8>) -> Result<Vec<u8>, CliError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(CliError::bad_input(format!(
            "{}: empty: no message and no log line",
            input.name()
        )));
    }
    Ok(bytes)
}

/// `bytes` as UTF-8: refused at the first byte that is not, naming its offset and
/// `--lossy`; with `lossy`, each such sequence read as U+FFFD, and how many said.
fn well_formed(input: &Input, bytes: Vec<u8>, lossy: bool) -> Result<Vec<u8>, CliError> {
    let bad_at = match std::str::from_utf8(&bytes) {
        Ok(_) => return Ok(bytes),
        Err(e) => e.valid_up_to(),
    };
    if !lossy {
        return Err(CliError::bad_input(format!(
            "{}: not UTF-8 at byte {bad_at}: fix the input, or pass --lossy to read such bytes as U+FFFD",
            input.name()
        )));
    }
    let replaced = bytes
        .utf8_chunks()
        .filter(|c| !c.invalid().is_empty())
        .count();
    let what = match replaced {
        1 => "of bytes that is not UTF-8 read",
        _ => "of bytes that are not UTF-8 read",
    };
    crate::inputs::note(&format!(
        "{}: {} {what} as U+FFFD (--lossy)",
        input.name(),
        count(replaced, "sequence")
    ));
    Ok(String::from_utf8_lossy(&bytes).into_owned().into_bytes())
}
