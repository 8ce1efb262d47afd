//! Creating a file at the first free name: the one way tool-offload picks names, so
//! that nothing is ever overwritten, even by concurrent calls or processes.

use crate::{error::OffloadError, io::CreateOutcome, io::FileReader, io::FileWriter, io::IoError};

/// The suffix of the marker a removed artifact leaves.
pub const REMOVED_SUFFIX: &str = ".removed";

/// Candidate names tried before giving up: a writer that reports every name as taken
/// (or a directory holding that many different files of one id) must end, not hang.
pub const MAX_NAME_ATTEMPTS: u32 = 10_000;

/// The error of a `mkdir(dir)` that failed: `WRITE_FAILED` naming `dir`
/// (`writer.mkdir(dir).await.map_err(dir_failed(dir))?`; a function, not an async helper,
/// so that no second future is compiled for each writer).
pub(crate) fn dir_failed(dir: &str) -> impl FnOnce(IoError) -> OffloadError + '_ {
    move |source| OffloadError::WriteFailed {
        path: dir.to_owned(),
        source,
    }
}

/// How [`create_at_free_name`] placed the data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placed {
    /// The number of the candidate used (0 for the first).
    pub number: u32,
    /// Its absolute path.
    pub path: String,
    /// `true` when a file with the same text was already there and was reused.
    pub reused: bool,
}

/// What [`create_unless_taken`] found at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Creation {
    /// Nothing was there; the data is now.
    Created,
    /// A file with the same text was there, and is left as it is.
    Same,
    /// Something else is there (or it cannot be read back here): not ours to reuse.
    Taken,
}

/// What an existing file is compared with when its name is taken: a test of its text,
/// or bytes compared as they are (binary data, which a text read cannot hold).
pub(crate) enum Same<'a, F> {
    /// The file read as text, asked of the test.
    Text(F),
    /// The file read as text, equal to this.
    Str(&'a str),
    /// The file's bytes, read by range, equal to these.
    Bytes(&'a [u8]),
}

/// A [`Same`] with no test of its own: one type for what the Materializer and import
/// compare, so they share one copy of the name-picking.
pub(crate) type SameData<'a> = Same<'a, fn(&str) -> bool>;

impl<'a> SameData<'a> {
    /// The file holds exactly `payload`.
    pub(crate) fn of(payload: &Payload<'a>) -> Self {
        match *payload {
            Payload::Text(text) => Same::Str(text),
            Payload::Bytes(bytes) => Same::Bytes(bytes),
        }
    }
}

/// What the Materializer and import write: text, or binary data
/// ([`FileWriter::create_bytes`]), one type for both (see [`Payloads`]).
#[derive(Clone, Copy)]
pub(crate) enum Payload<'a> {
    Text(&'a str),
    Bytes(&'a [u8]),
}

/// A writer and reader taking [`Payload`]s: text through `create_file`, bytes through
/// `create_bytes`.
pub(crate) struct Payloads<'a, IO: ?Sized>(pub(crate) &'a IO);

impl<'p, IO: FileWriter + ?Sized> FileWriter<Payload<'p>> for Payloads<'_, IO> {
    fn mkdir(&self, dir: &str) -> impl std::future::Future<Output = Result<(), IoError>> {
        self.0.mkdir(dir)
    }
    async fn write_file(&self, path: &str, data: &Payload<'p>) -> Result<(), IoError> {
        match *data {
            Payload::Text(text) => self.0.write_file(path, text).await,
            // Artifacts are only ever created, never replaced.
            Payload::Bytes(_) => Err(IoError::new(format!(
                "binary data is only created, never replaced: {path}"
            ))),
        }
    }
    async fn create_file(&self, path: &str, data: &Payload<'p>) -> Result<CreateOutcome, IoError> {
        match *data {
            Payload::Text(text) => self.0.create_file(path, text).await,
            Payload::Bytes(bytes) => self.0.create_bytes(path, bytes).await,
        }
    }
}

impl<IO: FileReader + ?Sized> FileReader for Payloads<'_, IO> {
    fn read_file(
        &self,
        path: &str,
    ) -> impl std::future::Future<Output = Result<Option<String>, IoError>> {
        self.0.read_file(path)
    }
    fn list_dir(
        &self,
        dir: &str,
    ) -> impl std::future::Future<Output = Result<Vec<String>, IoError>> {
        self.0.list_dir(dir)
    }
    fn size(&self, path: &str) -> impl std::future::Future<Output = Result<Option<u64>, IoError>> {
        self.0.size(path)
    }
    fn read_range(
        &self,
        path: &str,
        start: u64,
        end: u64,
    ) -> impl std::future::Future<Output = Result<Vec<u8>, IoError>> {
        self.0.read_range(path, start, end)
    }
}

/// Whether the file at `path` holds what `same` accepts: `None` when there is no file.
///
/// # Errors
/// `READ_FAILED` from the reader.
pub(crate) async fn holds<R: FileReader + ?Sized, F: Fn(&str) -> bool>(
    io: &R,
    path: &str,
    same: &Same<'_, F>,
) -> Result<Option<bool>, OffloadError> {
    let failed = |source| OffloadError::ReadFailed {
        path: path.into(),
        source,
    };
    match same {
        Same::Text(test) => match io.read_file(path).await {
            Ok(existing) => Ok(existing.map(|text| test(&text))),
            Err(source) => Err(failed(source)),
        },
        Same::Str(expected) => match io.read_file(path).await {
            Ok(existing) => Ok(existing.map(|text| text == *expected)),
            Err(source) => Err(failed(source)),
        },
        Same::Bytes(bytes) => {
            let size = io.size(path).await.map_err(failed)?;
            match size {
                None => Ok(None),
                Some(size) if size != bytes.len() as u64 => Ok(Some(false)),
                Some(size) => match io.read_range(path, 0, size).await {
                    Ok(existing) => Ok(Some(existing == *bytes)),
                    // Removed since its size was read (a concurrent gc): no file, as
                    // if it had not been found; its marker then keeps the name taken.
                    Err(source) => match io.size(path).await {
                        Ok(None) => Ok(None),
                        _ => Err(failed(source)),
                    },
                },
            }
        }
    }
}

/// Create `data` at `path` exclusively ([`FileWriter::create_file`]); when the name is
/// taken, whether by the same text (`same(existing)`) or by something else.
///
/// # Errors
/// `WRITE_FAILED` from the writer; `READ_FAILED` from the reader.
pub(crate) async fn create_unless_taken<D, IO>(
    io: &IO,
    path: &str,
    data: &D,
    same: &Same<'_, impl Fn(&str) -> bool>,
) -> Result<Creation, OffloadError>
where
    D: ?Sized,
    IO: FileWriter<D> + FileReader + ?Sized,
{
    let created = io.create_file(path, data).await;
    match created.map_err(|source| OffloadError::WriteFailed {
        path: path.into(),
        source,
    })? {
        CreateOutcome::Created => Ok(Creation::Created),
        // A file that vanished since, or a writer without a reader, reads as missing:
        // either way not ours to reuse.
        CreateOutcome::Exists => Ok(match holds(io, path, same).await? {
            Some(true) => Creation::Same,
            _ => Creation::Taken,
        }),
    }
}

/// [`create_unless_taken`] for a name being picked for new content: a name whose
/// artifact retention removed (its `.removed` marker is there) is taken as well, so that
/// a ref, once handed out, never comes to name another content. (Checked before the
/// create: a `gc` removing this very name in the instant between the two is the one
/// window left, and `gc` writes the marker before it removes the file to keep it small.)
///
/// # Errors
/// As [`create_unless_taken`].
pub(crate) async fn create_fresh<D, IO>(
    io: &IO,
    path: &str,
    data: &D,
    same: &Same<'_, impl Fn(&str) -> bool>,
) -> Result<Creation, OffloadError>
where
    D: ?Sized,
    IO: FileWriter<D> + FileReader + ?Sized,
{
    let marker = format!("{path}{}", REMOVED_SUFFIX);
    match io.size(&marker).await {
        Ok(Some(_)) => Ok(Creation::Taken),
        // A marker that cannot be looked for (a write-only store, a server gone) is taken
        // as absent: the create says whether the store can be written, as it always did.
        Ok(None) | Err(_) => create_unless_taken(io, path, data, same).await,
    }
}

/// Create `data` at the first of the candidate paths `candidate(first)`,
/// `candidate(first + 1)`… (up to [`MAX_NAME_ATTEMPTS`] in all, counting from 0) that is
/// free and was never removed by retention ([`create_fresh`]), or reuse one that already
/// holds the same text (`same(existing)`).
/// Relies on [`FileWriter::create_file`], so concurrent creators never overwrite each
/// other: each either creates its own name or finds the other's.
///
/// # Errors
/// Whatever `candidate` returns (e.g. `INVALID_ID` once the name grows too long);
/// `WRITE_FAILED` from the writer, or when [`MAX_NAME_ATTEMPTS`] names are all taken;
/// `READ_FAILED` from the reader.
pub(crate) async fn create_at_free_name<D, IO>(
    io: &IO,
    data: &D,
    same: &Same<'_, impl Fn(&str) -> bool>,
    first: u32,
    mut candidate: impl FnMut(u32) -> Result<String, OffloadError>,
) -> Result<Placed, OffloadError>
where
    D: ?Sized,
    IO: FileWriter<D> + FileReader + ?Sized,
{
    let mut last = String::new();
    for number in first..MAX_NAME_ATTEMPTS {
        let path = candidate(number)?;
        let reused = match create_fresh(io, &path, data, same).await? {
            Creation::Created => false,
            Creation::Same => true,
            Creation::Taken => {
                last = path;
                continue;
            }
        };
        return Ok(Placed {
            number,
            path,
            reused,
        });
    }
    Err(OffloadError::WriteFailed {
        path: last,
        source: IoError::new(format!(
            "no free file name: {MAX_NAME_ATTEMPTS} candidates are all taken by other content"
        )),
    })
}

/// Create `data` at the first of `candidate(0)`, `candidate(1)`… the writer reports
/// created, for a writer that cannot read (the registry's offload): a taken name is never
/// read, compared or reused, only passed. Not [`create_at_free_name`] with a stand-in
/// reader answering "missing": that cost the wasm 1.8 KB more for the same outcome.
///
/// # Errors
/// Whatever `candidate` returns; `WRITE_FAILED` from the writer, or when
/// [`MAX_NAME_ATTEMPTS`] names are all taken.
pub(crate) async fn create_at_unread_name<D, W>(
    writer: &W,
    data: &D,
    mut candidate: impl FnMut(u32) -> Result<String, OffloadError>,
) -> Result<String, OffloadError>
where
    D: ?Sized,
    W: FileWriter<D> + ?Sized,
{
    let mut path = String::new();
    for n in 0..MAX_NAME_ATTEMPTS {
        path = candidate(n)?;
        let created = writer.create_file(&path, data).await;
        let created = created.map_err(|source| OffloadError::WriteFailed {
            path: path.clone(),
            source,
        })?;
        if created == CreateOutcome::Created {
            return Ok(path);
        }
    }
    Err(OffloadError::WriteFailed {
        path,
        source: IoError::new(format!(
            "no free file name: {MAX_NAME_ATTEMPTS} candidates are all taken"
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::MemoryWriter;
    use futures_executor::block_on;

    fn names(n: u32) -> Result<String, OffloadError> {
        Ok(match n {
            0 => "/a.txt".to_owned(),
            n => format!("/a-{n}.txt"),
        })
    }

    #[test]
    fn takes_the_first_free_name_and_reuses_identical_content() {
        let fs = MemoryWriter::new();
        let place = |text: &'static str| {
            block_on(create_at_free_name(
                &fs,
                text,
                &Same::Text(|e: &str| e == text),
                0,
                names,
            ))
            .unwrap()
        };
        assert_eq!(
            (place("one").path, place("one").reused),
            ("/a.txt".into(), true)
        );
        let two = place("two");
        assert_eq!(
            (two.number, two.path.as_str(), two.reused),
            (1, "/a-1.txt", false)
        );
        assert_eq!(place("two").path, "/a-1.txt");
        assert_eq!(fs.read("/a.txt").as_deref(), Some("one"));
    }

    /// A writer that says every name is taken and a reader that finds nothing.
    struct AlwaysTaken;
    impl FileWriter for AlwaysTaken {
        async fn mkdir(&self, _: &str) -> Result<(), IoError> {
            Ok(())
        }
        async fn write_file(&self, _: &str, _: &str) -> Result<(), IoError> {
            Ok(())
        }
        async fn create_file(&self, _: &str, _: &str) -> Result<CreateOutcome, IoError> {
            Ok(CreateOutcome::Exists)
        }
    }
    impl FileReader for AlwaysTaken {
        async fn read_file(&self, _: &str) -> Result<Option<String>, IoError> {
            Ok(None)
        }
        async fn list_dir(&self, _: &str) -> Result<Vec<String>, IoError> {
            Ok(Vec::new())
        }
        async fn size(&self, _: &str) -> Result<Option<u64>, IoError> {
            Ok(None)
        }
        async fn read_range(&self, path: &str, _: u64, _: u64) -> Result<Vec<u8>, IoError> {
            Err(IoError::new(format!("no such file: {path}")))
        }
    }

    #[test]
    fn a_writer_that_cannot_read_moves_past_every_taken_name() {
        let fs = MemoryWriter::new();
        let create =
            |data: &'static str| block_on(create_at_unread_name(&fs, data, names)).unwrap();
        assert_eq!(create("one"), "/a.txt");
        // Taken, even by the same text: never read, so never reused.
        assert_eq!(create("one"), "/a-1.txt");
        assert_eq!(create("two"), "/a-2.txt");
        assert_eq!(fs.read("/a.txt").as_deref(), Some("one"));
        assert_eq!(fs.read("/a-2.txt").as_deref(), Some("two"));
        let err = block_on(create_at_unread_name(&AlwaysTaken, "x", names)).unwrap_err();
        assert_eq!(err.code().as_str(), "WRITE_FAILED");
        assert!(err.to_string().contains("/a-9999.txt"), "{err}");
        assert!(
            err.to_string().contains("10000 candidates are all taken"),
            "{err}"
        );
    }

    #[test]
    fn gives_up_instead_of_hanging_when_every_name_is_taken() {
        let same = Same::Text(|_: &str| true);
        let err = block_on(create_at_free_name(&AlwaysTaken, "x", &same, 0, names)).unwrap_err();
        assert_eq!(err.code().as_str(), "WRITE_FAILED");
        assert!(
            err.to_string().contains("10000 candidates are all taken"),
            "{err}"
        );
        assert!(err.to_string().contains("/a-9999.txt"), "{err}");
    }
}
