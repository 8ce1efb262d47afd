//! Inputs that cannot be read, among many: a directory of session logs (an empty file, a
//! stray file that is no log) is reported in full but for them. Each is named on stderr
//! with its reason, and the run exits 3 (`CliError::skipped`) once the rest is reported.
//! A single file named on the command line is never skipped: its error is the run's.

use std::path::PathBuf;

use crate::error::CliError;
use crate::inputs::note;

/// The inputs skipped so far, and whether skipping is allowed at all.
#[derive(Debug)]
pub struct Skips {
    allowed: bool,
    skipped: usize,
    total: usize,
}

impl Skips {
    /// For the `expanded` inputs of a run given `named` on the command line: skipping is
    /// allowed unless one file alone was named.
    pub fn new(named: &[PathBuf], expanded: &[PathBuf]) -> Self {
        let alone = named.len() == 1 && expanded.len() == 1 && !named[0].is_dir();
        Skips {
            allowed: !alone,
            skipped: 0,
            total: expanded.len(),
        }
    }

    /// `result` of reading the input `name`; an error is the run's unless skipping is
    /// allowed: then it is named (`skipped <name>: <reason>`) and `None` returned.
    pub fn read<T>(
        &mut self,
        name: &str,
        result: Result<T, CliError>,
    ) -> Result<Option<T>, CliError> {
        match result {
            Ok(value) => Ok(Some(value)),
            Err(err) if self.allowed => {
                let reason = err.to_string();
                // Errors name their input first; the line names it once.
                let reason = reason
                    .strip_prefix(name)
                    .and_then(|r| r.strip_prefix(": "))
                    .unwrap_or(&reason);
                note(&format!("skipped {name}: {reason}"));
                self.skipped += 1;
                Ok(None)
            }
            Err(err) => Err(err),
        }
    }

    /// [`Skips::read`] for work on an input once read: only bad input is skipped; a
    /// failure (writing an output or an artifact) stops the run.
    pub fn process<T>(
        &mut self,
        name: &str,
        result: Result<T, CliError>,
    ) -> Result<Option<T>, CliError> {
        match result {
            Err(err) if !err.is_bad_input() => Err(err),
            other => self.read(name, other),
        }
    }

    /// The end of the run: `Ok` when nothing was skipped, else the exit-3 error that
    /// counts them (exit 2 when nothing at all could be read).
    pub fn finish(self) -> Result<(), CliError> {
        if self.skipped == 0 {
            return Ok(());
        }
        let what = tool_offload::core::materialize::count(self.skipped, "input");
        if self.skipped == self.total {
            return Err(CliError::bad_input(format!(
                "{what} skipped, none could be read"
            )));
        }
        Err(CliError::skipped(format!(
            "{what} of {} skipped (named above), the rest reported",
            self.total
        )))
    }
}
