//! Where the offloaded conversation goes: stdout, or a file that appears only once it
//! is complete (written to a temporary file beside it, then renamed over it). An OUTPUT
//! that exists and is not a regular file (`/dev/null`, a FIFO, a terminal) is written
//! into directly, as a shell's `>` would: renaming over it would replace the device.

use std::io::{self, BufWriter, Stdout, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::error::CliError;

const BUFFER: usize = 1 << 20;

/// The OUTPUT being written. Dropping it before [`commit`](Output::commit) removes the
/// temporary file, so an error leaves no OUTPUT behind (nor a temporary file).
pub struct Output {
    sink: Sink,
    name: String,
}

enum Sink {
    Stdout(BufWriter<Stdout>),
    Special(BufWriter<std::fs::File>),
    File {
        temp: BufWriter<NamedTempFile>,
        path: PathBuf,
    },
}

impl Output {
    /// Start writing to `path`, or to stdout when `None` or `-`.
    pub fn create(path: Option<&Path>) -> Result<Self, CliError> {
        let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
            return Ok(Output {
                sink: Sink::Stdout(BufWriter::with_capacity(BUFFER, io::stdout())),
                name: "<stdout>".into(),
            });
        };
        let name = path.display().to_string();
        // Metadata through symbolic links: a link to a device is written through too.
        let special = std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
        if special {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| CliError::failure(format!("{name}: cannot open: {e}")))?;
            return Ok(Output {
                sink: Sink::Special(BufWriter::with_capacity(BUFFER, file)),
                name,
            });
        }
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let temp = temp_builder()
            .tempfile_in(dir)
            .map_err(|e| CliError::failure(format!("{name}: cannot create: {e}")))?;
        Ok(Output {
            sink: Sink::File {
                temp: BufWriter::with_capacity(BUFFER, temp),
                path: path.to_owned(),
            },
            name,
        })
    }

    /// Append `bytes`.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        let written = match &mut self.sink {
            Sink::Stdout(out) => out.write_all(bytes),
            Sink::Special(out) => out.write_all(bytes),
            Sink::File { temp, .. } => temp.write_all(bytes),
        };
        written.map_err(|e| self.failure(e))
    }

    /// Finish: flush stdout, or move the complete file into place.
    pub fn commit(self) -> Result<(), CliError> {
        let name = self.name;
        let failure = |e: io::Error| CliError::failure(format!("{name}: {e}"));
        match self.sink {
            Sink::Stdout(mut out) => out.flush().map_err(failure),
            Sink::Special(mut out) => out.flush().map_err(failure),
            Sink::File { temp, path } => {
                let temp = temp.into_inner().map_err(|e| failure(e.into_error()))?;
                temp.persist(&path).map_err(|e| failure(e.error))?;
                Ok(())
            }
        }
    }

    fn failure(&self, err: io::Error) -> CliError {
        CliError::failure(format!("{}: {err}", self.name))
    }
}

/// Temporary files named like [`tool_offload::TokioFileWriter`]'s, created with the
/// permissions a plain `File::create` would give (not tempfile's private 0600).
fn temp_builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".tool-offload-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder
}
