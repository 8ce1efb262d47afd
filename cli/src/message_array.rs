//! Parsing a JSON array of messages message by message, so that an error names the
//! message it is in.

use std::cell::Cell;
use std::fmt;

use serde::de::{Deserializer as _, SeqAccess, Visitor};
use tool_offload::Value;

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
