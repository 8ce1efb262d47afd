//! The one-line errors of the tool and the exit codes they map to.

use std::fmt;
use std::process::ExitCode;

use tool_offload::{ErrorCode, OffloadError};

/// Why the tool stopped: the input (or usage) was bad, or something failed while
/// reading or writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Exit code 2: the user must fix the input or the arguments.
    BadInput,
    /// Exit code 1: an I/O failure (writing the output or an artifact, reading stdin).
    Failure,
}

/// An error to report on one line of stderr, with its exit code.
#[derive(Debug)]
pub struct CliError {
    kind: Kind,
    message: String,
}

impl CliError {
    /// Bad input or arguments (exit code 2).
    pub fn bad_input(message: impl Into<String>) -> Self {
        CliError {
            kind: Kind::BadInput,
            message: message.into(),
        }
    }

    /// An I/O failure (exit code 1).
    pub fn failure(message: impl Into<String>) -> Self {
        CliError {
            kind: Kind::Failure,
            message: message.into(),
        }
    }

    /// An error of the library: `WRITE_FAILED` is a failure and carries its path;
    /// everything else is bad input, reported as `<input>: <place>: <error>`.
    pub fn offload(err: OffloadError, input: &str, place: &str) -> Self {
        match err.code() {
            ErrorCode::WriteFailed => CliError::failure(err.to_string()),
            _ => CliError::bad_input(format!("{input}: {place}: {err}")),
        }
    }

    /// The process exit code: 2 for bad input, 1 for failures.
    pub fn exit_code(&self) -> ExitCode {
        match self.kind {
            Kind::BadInput => ExitCode::from(2),
            Kind::Failure => ExitCode::from(1),
        }
    }
}

impl fmt::Display for CliError {
    /// The message on one line, whatever the underlying errors contain.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines = self.message.lines();
        f.write_str(lines.next().unwrap_or_default())?;
        lines.try_for_each(|line| write!(f, " {line}"))
    }
}
