//! Offloading one message at a time, the same way in both input formats: validate every
//! message first ([`validate`], no IO), then [`Engine::offload`] each in turn, which
//! writes its files and edits the message in place.

use tokio::runtime::Runtime;
use tool_offload::core::{apply_edits, Batch, BatchOptions};
use tool_offload::json::LoneSurrogates;
use tool_offload::{OffloadError, Value};

use crate::error::CliError;
use crate::location::LocationIo;
use crate::summary::Stats;

/// A fresh [`Batch`] for `options`.
pub fn batch(options: &BatchOptions<'_>) -> Result<Batch, CliError> {
    Batch::new(options).map_err(|e| CliError::bad_input(e.to_string()))
}

/// Check the `index`-th message as [`Engine::offload`] would, writing nothing. `batch`
/// is a throwaway one: it remembers the names given out, exactly as the engine's will.
/// `lone` are the stand-ins for lone surrogates of the text `message` was parsed from.
pub fn validate(
    batch: &mut Batch,
    index: usize,
    message: &Value,
    lone: &LoneSurrogates,
) -> Result<(), OffloadError> {
    batch.plan(index, &lone.view(message)).map(drop)
}

/// Writes the files of each message through a location's IO and puts the
/// placeholders in.
pub struct Engine {
    batch: Batch,
    writer: LocationIo,
    runtime: Runtime,
    stats: Stats,
}

impl Engine {
    /// An engine writing under `options.output_dir` through `writer`.
    pub fn new(options: &BatchOptions<'_>, writer: LocationIo) -> Result<Self, CliError> {
        // All drivers: an object store's client needs network and timers.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| CliError::failure(format!("cannot start the async runtime: {e}")))?;
        Ok(Engine {
            batch: batch(options)?,
            writer,
            runtime,
            stats: Stats::default(),
        })
    }

    /// Offload the tool results of the `index`-th message: write their files (a lone
    /// surrogate as U+FFFD), then replace their contents with placeholders in `message`
    /// itself.
    pub fn offload(
        &mut self,
        index: usize,
        message: &mut Value,
        lone: &LoneSurrogates,
    ) -> Result<(), OffloadError> {
        let mut planned = self.batch.plan(index, &lone.view(message))?;
        self.runtime
            .block_on(self.batch.write(&mut planned, &self.writer))?;
        self.stats.add(&planned);
        let edits = planned.edits();
        drop(planned);
        apply_edits(message, edits);
        Ok(())
    }

    /// The absolute output directory.
    pub fn dir(&self) -> &str {
        self.batch.dir()
    }

    /// What has been done so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
}
