//! JSON-array mode: the whole conversation in memory, parsed message by message so
//! that an error names the message it is in.

use std::cell::Cell;
use std::fmt;
use std::path::Path;

use serde::de::{Deserializer as _, SeqAccess, Visitor};
use tool_offload::core::BatchOptions;
use tool_offload::json::stringify_into;
use tool_offload::Value;

use crate::engine::{self, Engine};
use crate::error::CliError;
use crate::input::Input;
use crate::location::LocationIo;
use crate::output::Output;
use crate::progress::{self, Progress};
use crate::read::Conversation;
use crate::summary::Stats;

/// Offload `conversation` (read from `input`) and write it to `output` (stdout when
/// `None`) as a JSON array; return what was done and the output directory. Every
/// message is validated before any file is written, and the output is written only once
/// every file is. Escaped lone surrogates are read as `JSON.parse` reads them, written
/// back as `JSON.stringify` writes them, and offloaded as U+FFFD.
pub fn run(
    input: &Input,
    conversation: Conversation,
    options: &BatchOptions<'_>,
    io: &LocationIo,
    output: Option<&Path>,
) -> Result<(Stats, String), CliError> {
    let Conversation {
        mut messages,
        lone,
        bytes,
        ..
    } = conversation;
    let show = progress::wanted(bytes, Some(messages.len() as u64));

    let mut batch = engine::batch(options)?;
    for (index, message) in messages.iter().enumerate() {
        engine::validate(&mut batch, index, message, &lone)
            .map_err(|e| CliError::offload(e, input.name(), &format!("message {index}")))?;
    }

    let mut output = Output::create(output)?;
    let mut engine = Engine::new(options, io.clone())?;
    let progress = Progress::messages(show, messages.len() as u64, "offloading");
    for (index, message) in messages.iter_mut().enumerate() {
        engine
            .offload(index, message, &lone)
            .map_err(|e| CliError::offload(e, input.name(), &format!("message {index}")))?;
        progress.inc(1);
    }
    drop(progress);

    let mut text = String::new();
    output.write(b"[")?;
    for (index, message) in messages.iter().enumerate() {
        text.clear();
        if index > 0 {
            text.push(',');
        }
        stringify_into(message, &mut text);
        output.write(lone.restore(&text).as_bytes())?;
    }
    output.write(b"]\n")?;
    output.commit()?;
    Ok((*engine.stats(), engine.dir().to_owned()))
}

/// A JSON parse error, placed in the message it occurred in when there is one.
#[derive(Debug)]
struct ParseError {
    message: Option<usize>,
    error: serde_json::Error,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.message {
            // The input ended inside the array: no message is at fault.
            _ if self.error.is_eof() => write!(
                f,
                "the input ends before the JSON array does (truncated?): {}",
                self.error
            ),
            Some(index) => write!(f, "message {index}: {}", self.error),
            None => write!(f, "{}", self.error),
        }
    }
}

/// Parse a JSON array of messages, each as a [`Value`] (numbers and key order as
/// `tool_offload::json::parse` keeps them).
pub fn parse(bytes: &[u8]) -> Result<Vec<Value>, impl fmt::Display> {
    let current = Cell::new(None);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let parsed = de
        .deserialize_seq(Messages { current: &current })
        .and_then(|messages| de.end().map(|()| messages));
    parsed.map_err(|error| ParseError {
        message: current.get(),
        error,
    })
}

/// Collects the array's elements, noting which one is being read so that an error
/// can name it.
struct Messages<'a> {
    current: &'a Cell<Option<usize>>,
}

impl<'de> Visitor<'de> for Messages<'_> {
    type Value = Vec<Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array of messages")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Value>, A::Error> {
        let mut messages = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        loop {
            self.current.set(Some(messages.len()));
            match seq.next_element()? {
                Some(message) => messages.push(message),
                None => break,
            }
        }
        self.current.set(None);
        Ok(messages)
    }
}
