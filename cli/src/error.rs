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
    /// Exit code 3: the other inputs were reported, but some found in a directory (or
    /// among several) could not be read and were skipped, each named on stderr.
    Skipped,
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

    /// Some inputs skipped, the rest reported (exit code 3).
    pub fn skipped(message: impl Into<String>) -> Self {
        CliError {
            kind: Kind::Skipped,
            message: message.into(),
        }
    }

    /// Whether this is bad input (exit code 2): about an input, not about writing.
    pub fn is_bad_input(&self) -> bool {
        self.kind == Kind::BadInput
    }

    /// An error of the library: `WRITE_FAILED` is a failure and carries its path;
    /// everything else is bad input, reported as `<input>: <place>: <error>`.
    pub fn offload(err: OffloadError, input: &str, place: &str) -> Self {
        match err.code() {
            ErrorCode::WriteFailed => CliError::failure(err.to_string()),
            _ => CliError::bad_input(format!("{input}: {place}: {err}")),
        }
    }

    /// The process exit code: 2 for bad input, 1 for failures, 3 for inputs skipped.
    pub fn exit_code(&self) -> ExitCode {
        match self.kind {
            Kind::BadInput => ExitCode::from(2),
            Kind::Failure => ExitCode::from(1),
            Kind::Skipped => ExitCode::from(3),
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
