//! JSON Lines mode: one message per line in and out, streamed, so memory stays flat
//! however long the conversation is.
//!
//! Ids must all be validated before anything is written, so the input is read twice:
//! pass 1 parses and plans each message on a throwaway batch (no IO); pass 2 plans
//! again on a fresh batch (same decisions, same names), writes the files and the output
//! line by line. Stdin is first copied to a temporary file so it can be read twice.

use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use tool_offload::core::BatchOptions;
use tool_offload::json::{stringify_into, LoneSurrogates};
use tool_offload::Value;

use crate::engine::{self, Engine};
use crate::error::CliError;
use crate::input::{Input, Rereadable};
use crate::location::LocationIo;
use crate::output::Output;
use crate::progress::{self, Counting, Progress};
use crate::summary::Stats;

/// Read buffer size.
const BUFFER: usize = 1 << 20;
/// A line buffer grown past this (by a huge message) is shrunk back afterwards.
const KEEP: usize = 16 << 20;

/// Offload the conversation in `input` (one message per line) and write it to
/// `output` (stdout when `None`), one message per line; return what was done and the
/// output directory. Stdin is spooled to a temporary file in one of `spool_dirs`.
pub fn run(
    input: &Input,
    options: &BatchOptions<'_>,
    io: &LocationIo,
    output: Option<&Path>,
    spool_dirs: &[PathBuf],
) -> Result<(Stats, String), CliError> {
    let file = input.rereadable(spool_dirs)?;

    let progress = Progress::bytes(progress::wanted(file.len(), None), file.len(), "checking");
    let mut batch = engine::batch(options)?;
    let count = each_message(&file, input, &progress, |index, line, message, lone| {
        engine::validate(&mut batch, index, &message, lone)
            .map_err(|e| CliError::offload(e, input.name(), &place(index, line)))
    })?;
    drop(progress);
    // The validation pass's names are not needed again: free them before pass 2.
    drop(batch);

    let show = progress::wanted(file.len(), Some(count as u64));
    let progress = Progress::bytes(show, file.len(), "offloading");
    let mut output = Output::create(output)?;
    let mut engine = Engine::new(options, io.clone())?;
    let mut text = String::new();
    each_message(&file, input, &progress, |index, line, mut message, lone| {
        engine
            .offload(index, &mut message, lone)
            .map_err(|e| CliError::offload(e, input.name(), &place(index, line)))?;
        text.clear();
        stringify_into(&message, &mut text);
        text.push('\n');
        output.write(lone.restore(&text).as_bytes())
    })?;
    drop(progress);
    output.commit()?;
    Ok((*engine.stats(), engine.dir().to_owned()))
}

/// Call `f(index, line number, message, stand-ins)` for each non-blank line of `file`,
/// in order; return the number of messages. Escaped lone surrogates, which `JSON.parse`
/// reads but serde_json cannot, get stand-ins (per line).
fn each_message(
    file: &Rereadable,
    input: &Input,
    progress: &Progress,
    mut f: impl FnMut(usize, u64, Value, &LoneSurrogates) -> Result<(), CliError>,
) -> Result<usize, CliError> {
    let read_error = |e: io::Error| CliError::failure(format!("{}: {e}", input.name()));
    let mut lines = Lines::new(Counting::new(file.pass().map_err(read_error)?, progress));
    let mut index = 0;
    while let Some((line, text)) = lines.next().map_err(read_error)? {
        let bad = |what: String| {
            CliError::bad_input(format!("{}: {}: {what}", input.name(), place(index, line)))
        };
        let (marked, lone) = LoneSurrogates::mark(text).map_err(|e| bad(e.to_string()))?;
        let message = serde_json::from_slice(&marked).map_err(|e| bad(syntax_error(&e)))?;
        drop(marked);
        f(index, line, message, &lone)?;
        index += 1;
    }
    Ok(index)
}

/// How errors locate a message: `message 4 (line 7)`.
fn place(index: usize, line: u64) -> String {
    format!("message {index} (line {line})")
}

/// serde_json's message, placed by column only: its line is always 1 within a line.
fn syntax_error(err: &serde_json::Error) -> String {
    let full = err.to_string();
    let position = format!(" at line {} column {}", err.line(), err.column());
    match full.strip_suffix(&position) {
        Some(what) => format!("{what} at column {}", err.column()),
        None => full,
    }
}

/// The non-blank lines of a reader, numbered from 1 (blank lines count in the
/// numbering).
struct Lines<R> {
    reader: BufReader<R>,
    buf: Vec<u8>,
    number: u64,
}

impl<R: Read> Lines<R> {
    fn new(reader: R) -> Self {
        Lines {
            reader: BufReader::with_capacity(BUFFER, reader),
            buf: Vec::new(),
            number: 0,
        }
    }

    /// The next non-blank line (with its line ending) and its number.
    fn next(&mut self) -> io::Result<Option<(u64, &[u8])>> {
        loop {
            self.buf.clear();
            if self.buf.capacity() > KEEP {
                self.buf.shrink_to(BUFFER);
            }
            if self.reader.read_until(b'\n', &mut self.buf)? == 0 {
                return Ok(None);
            }
            self.number += 1;
            if !self
                .buf
                .iter()
                .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            {
                return Ok(Some((self.number, &self.buf)));
            }
        }
    }
}
