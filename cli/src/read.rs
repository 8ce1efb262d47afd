//! Reading one input whole: a JSON array of messages, or a session log (Claude Code,
//! Codex) turned into one; the format told from the content when `--from auto`.

use std::fmt;

use tool_offload::core::transcript::{self, ClaudeCode, Codex, Format};
use tool_offload::json::{self, LoneSurrogates};
use tool_offload::Value;

use crate::args::From;
use crate::array::parse;
use crate::error::CliError;
use crate::input::Input;

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
pub fn read(input: &Input, from: From, include_sidechains: bool) -> Result<Conversation, CliError> {
    let bytes = input.read_all()?;
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
            lines(&marked, |line| log.push(line)).map_err(|e| bad(&e))?;
            log.finish()
        }
        Format::Codex => {
            let mut rollout = Codex::default();
            lines(&marked, |line| rollout.push(line)).map_err(|e| bad(&e))?;
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
    lines(&text[..end], |line| found = transcript::detect(&line))?;
    Ok(found.unwrap_or(Format::Messages))
}

/// Each non-blank line of JSON Lines `text`, parsed.
fn lines(text: &[u8], mut each: impl FnMut(Value)) -> Result<(), LineError> {
    for (index, line) in text.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let error = |message: String| LineError {
            line: index + 1,
            message,
        };
        let line = std::str::from_utf8(line).map_err(|e| error(e.to_string()))?;
        each(json::parse(line).map_err(|e| error(e.to_string()))?);
    }
    Ok(())
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
