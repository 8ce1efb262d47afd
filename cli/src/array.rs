//! JSON-array mode: the whole conversation in memory, parsed message by message so
//! that an error names the message it is in.

use std::path::Path;

use tool_offload::core::BatchOptions;
use tool_offload::json::stringify_into;

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
