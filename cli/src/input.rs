//! Where the conversation comes from: a file, or stdin (`-`).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::error::CliError;
use crate::progress::{self, Counting, Progress};

/// The INPUT argument.
pub struct Input {
    /// How errors name it: the path as given, or `<stdin>`.
    name: String,
    /// `None` for stdin.
    path: Option<PathBuf>,
}

impl Input {
    /// INPUT as given on the command line; `-` is stdin.
    pub fn new(arg: &Path) -> Self {
        if arg.as_os_str() == "-" {
            return Input {
                name: "<stdin>".into(),
                path: None,
            };
        }
        Input {
            name: arg.display().to_string(),
            path: Some(arg.to_owned()),
        }
    }

    /// The name to use in error messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file, `None` for stdin.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The whole input in memory, with a progress bar for large files.
    pub fn read_all(&self) -> Result<Vec<u8>, CliError> {
        let mut bytes = Vec::new();
        let Some(path) = &self.path else {
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| self.failure(e))?;
            return Ok(bytes);
        };
        let (file, len) = self.open(path)?;
        bytes.reserve_exact(usize::try_from(len).unwrap_or(0));
        let progress = Progress::bytes(progress::wanted(len, None), len, "reading");
        Counting::new(file, &progress)
            .read_to_end(&mut bytes)
            .map_err(|e| self.failure(e))?;
        Ok(bytes)
    }

    /// The input as a file that can be read more than once (see [`Rereadable`]). Stdin
    /// is first copied to an anonymous temporary file (deleted on exit) in the first of
    /// `spool_dirs` that takes one.
    pub fn rereadable(&self, spool_dirs: &[PathBuf]) -> Result<Rereadable, CliError> {
        let (file, len) = match &self.path {
            Some(path) => self.open(path)?,
            None => {
                let mut file = spool_file(spool_dirs)?;
                let len = io::copy(&mut io::stdin().lock(), &mut file)
                    .map_err(|e| CliError::failure(format!("cannot copy stdin aside: {e}")))?;
                (file, len)
            }
        };
        Ok(Rereadable { file, len })
    }

    /// Open the input file: failing to is bad input (exit code 2), and so is a directory.
    fn open(&self, path: &Path) -> Result<(File, u64), CliError> {
        let bad = |e: io::Error| CliError::bad_input(format!("{}: {e}", self.name));
        let file = File::open(path).map_err(bad)?;
        let metadata = file.metadata().map_err(bad)?;
        if metadata.is_dir() {
            return Err(CliError::bad_input(format!(
                "{}: is a directory",
                self.name
            )));
        }
        Ok((file, metadata.len()))
    }

    /// A read error once the input is open: an I/O failure (exit code 1).
    fn failure(&self, err: io::Error) -> CliError {
        CliError::failure(format!("{}: {err}", self.name))
    }
}

/// An anonymous temporary file in the first of `dirs` where one can be created.
fn spool_file(dirs: &[PathBuf]) -> Result<File, CliError> {
    let mut last = None;
    for dir in dirs {
        match tempfile::tempfile_in(dir) {
            Ok(file) => return Ok(file),
            Err(e) => last = Some(format!("{}: {e}", dir.display())),
        }
    }
    Err(CliError::failure(format!(
        "cannot create a temporary file to hold stdin: {}",
        last.unwrap_or_else(|| "no directory to create it in".into())
    )))
}

/// An open input file, read from the start on each [`pass`](Rereadable::pass).
pub struct Rereadable {
    file: File,
    len: u64,
}

impl Rereadable {
    /// The size in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// A reader from the beginning of the file.
    pub fn pass(&self) -> io::Result<&File> {
        (&self.file).seek(SeekFrom::Start(0))?;
        Ok(&self.file)
    }
}
