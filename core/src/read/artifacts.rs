//! The artifacts of one conversation (a Materializer's) or one namespace (a Workspace's),
//! as read-back sees them: refs resolved within their scope, an artifact opened for ranged
//! reads ([`FileReader::size`], [`FileReader::read_range`]), its line index read from beside
//! it, else built by one scan and kept in memory (up to [`CACHED_INDEXES`]). An artifact up
//! to [`INDEX_STEP`] bytes is read whole, in one range. The Materializer and the Workspace
//! each hold one; neither reads through the other.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use crate::forms::reference;
use crate::forms::reference::{clean_ref, RefError};
use crate::path::{join, unsafe_component};
use crate::read::line_index::{IndexCache, LineIndex, INDEX_STEP};
use crate::read::source::{InFile, Source, CHUNK_BYTES, SCAN_CHUNK_BYTES};
use crate::{error::OffloadError, io::FileReader, io::FileWriter};

/// Line indexes kept in memory by one materializer, at most.
pub const CACHED_INDEXES: usize = 64;

/// The extension of a binary artifact: `<id>.bin`.
pub const BINARY_EXTENSION: &str = "bin";

/// Where a conversation's artifacts are, and what reading them back keeps.
#[derive(Debug)]
pub(crate) struct Artifacts {
    /// `<user data>/context/<conversation>/artifacts`.
    pub(crate) dir: String,
    /// The conversation (a Workspace's namespace) whose refs resolve here.
    conversation: String,
    /// Where direct and batch offload left files a placeholder names, absolute.
    pub(crate) offload_dir: Option<String>,
    /// Line indexes of artifacts read back, by path (see [`crate::read::line_index`]).
    indexes: IndexCache,
    /// The artifact directories (one bit per artifact kind), then their line index
    /// directories (the same bits shifted by 3), made already: later artifacts skip the
    /// `mkdir` (in Node a recursive `mkdir` of an existing directory is two file-system
    /// round trips of the seven a `materialize()` takes).
    made_dirs: AtomicU8,
}

/// An artifact being read: held whole when small, else read by range.
pub(crate) enum Artifact<'a, R: ?Sized> {
    Whole(Vec<u8>),
    File(InFile<'a, R>),
}

impl<R: FileReader + ?Sized> Source for Artifact<'_, R> {
    fn size(&self) -> u64 {
        match self {
            Artifact::Whole(bytes) => bytes.len() as u64,
            Artifact::File(file) => file.size(),
        }
    }
    fn chunk(&self) -> usize {
        match self {
            Artifact::Whole(_) => CHUNK_BYTES,
            Artifact::File(file) => file.chunk(),
        }
    }
    async fn range(&self, start: u64, end: u64) -> Result<Cow<'_, [u8]>, OffloadError> {
        match self {
            Artifact::Whole(bytes) => {
                let range = crate::io::clamp_range(start, end, bytes.len());
                Ok(Cow::Borrowed(&bytes[range]))
            }
            Artifact::File(file) => file.range(start, end).await,
        }
    }
}

impl Artifacts {
    /// Where the artifacts of `conversation` are under the absolute `root` (user data):
    /// `<root>/context/<conversation>/artifacts`.
    pub(crate) fn dir_of(root: &str, conversation: &str) -> String {
        join(&join(&join(root, "context"), conversation), "artifacts")
    }

    /// The artifacts under `dir` of `conversation`; `offload_dir` where placeholders'
    /// files are, if read-back may read them.
    pub(crate) fn new(dir: String, conversation: String, offload_dir: Option<String>) -> Self {
        Artifacts {
            dir,
            conversation,
            offload_dir,
            indexes: IndexCache::default(),
            made_dirs: AtomicU8::new(0),
        }
    }

    /// The absolute path of the artifact `reference` names, if it is in scope (see
    /// [`Materializer::resolve_ref`](crate::materialize::Materializer::resolve_ref)).
    pub(crate) fn resolve_ref(&self, reference: &str) -> Result<String, OffloadError> {
        let reference = reference::clean_ref(reference);
        if !reference.starts_with(reference::SCHEME) {
            return Err(OffloadError::NotARef(reference.into()));
        }
        match reference::parse(reference) {
            Ok(parsed) if parsed.conversation == self.conversation => {
                Ok(join(&join(&self.dir, parsed.kind.dir()), &parsed.file))
            }
            Err(RefError::Malformed(reason)) => Err(OffloadError::MalformedRef {
                reference: reference.into(),
                reason,
            }),
            _ => Err(OffloadError::RefOutOfScope(reference.into())),
        }
    }

    /// The path of what `reference` names for reading: an artifact in scope, or a
    /// placeholder's file in `offload_dir` (see
    /// [`Materializer::resolve_readable`](crate::materialize::Materializer::resolve_readable)).
    pub(crate) fn resolve_readable(&self, reference: &str) -> Result<String, OffloadError> {
        match (self.resolve_ref(reference), &self.offload_dir) {
            (Err(OffloadError::NotARef(text)), Some(dir)) => {
                placeholder_file(dir, clean_ref(reference)).ok_or(OffloadError::NotARef(text))
            }
            (result, _) => result,
        }
    }

    /// The artifact `reference` names, to be read `chunk` bytes at a time.
    pub(crate) async fn open<'a, R: FileReader + ?Sized>(
        &self,
        reference: &str,
        reader: &'a R,
        chunk: usize,
    ) -> Result<Artifact<'a, R>, OffloadError> {
        let path = self.resolve_readable(reference)?;
        let size = match reader.size(&path).await {
            Ok(Some(size)) => size,
            Ok(None) => return Err(self.gone(reference, &path, reader).await),
            Err(source) => return Err(OffloadError::ReadFailed { path, source }),
        };
        if is_binary_path(&path) {
            let head = reader.read_range(&path, 0, 16).await.unwrap_or_default();
            return Err(not_text(reference, size, &head));
        }
        let file = InFile {
            reader,
            path,
            size,
            chunk,
        };
        if size > INDEX_STEP {
            return Ok(Artifact::File(file));
        }
        Ok(Artifact::Whole(file.range(0, size).await?.into_owned()))
    }

    /// The line index of `artifact`: made from it when held whole; else kept in memory,
    /// read from the file beside it, or built by one scan.
    pub(crate) async fn line_index<R: FileReader + ?Sized>(
        &self,
        artifact: &Artifact<'_, R>,
        reader: &R,
    ) -> Result<Arc<LineIndex>, OffloadError> {
        let file = match artifact {
            Artifact::Whole(bytes) => return Ok(Arc::new(LineIndex::of(bytes))),
            Artifact::File(file) => file,
        };
        let cached = self.cached_indexes().get(&file.path).cloned();
        if let Some(index) = cached.filter(|index| index.bytes == file.size) {
            return Ok(index);
        }
        let beside = match self.index_path(&file.path) {
            // An unreadable index is only a slower read: it is built again.
            Some(path) => reader.read_file(&path).await.ok().flatten(),
            None => None,
        };
        let index = match beside.and_then(|text| LineIndex::from_file(&text, file.size)) {
            Some(index) => index,
            None => {
                // An `Artifact`, not a bare `InFile`: one instance of the scan for both.
                let scan = Artifact::File(InFile {
                    reader,
                    path: file.path.clone(),
                    size: file.size,
                    chunk: SCAN_CHUNK_BYTES,
                });
                LineIndex::build(&scan).await?
            }
        };
        let index = Arc::new(index);
        let mut cache = self.cached_indexes();
        if cache.len() >= CACHED_INDEXES {
            cache.clear();
        }
        cache.insert(file.path.clone(), index.clone());
        Ok(index)
    }

    /// `result`, the outcome of reading `reference`, unless it is a failed read of an
    /// artifact no longer there: then why it is missing. Retention (a concurrent gc) may
    /// mark and remove an artifact between any two of a read's calls (after its `size`,
    /// between two chunks); a host's error does not say portably that a file was not
    /// found, so its size is asked again instead.
    pub(crate) async fn unless_vanished<T, R: FileReader + ?Sized>(
        &self,
        reference: &str,
        result: Result<T, OffloadError>,
        reader: &R,
    ) -> Result<T, OffloadError> {
        let Err(OffloadError::ReadFailed { path, .. }) = &result else {
            return result;
        };
        if self.resolve_readable(reference).ok().as_ref() != Some(path) {
            return result;
        }
        match reader.size(path).await {
            Ok(None) => Err(self.gone(reference, path, reader).await),
            _ => result,
        }
    }

    /// Why `reference` (at `path`) has no artifact (see [`missing`]); a line index kept
    /// in memory for it goes too, as nothing will read it again.
    pub(crate) async fn gone<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        path: &str,
        reader: &R,
    ) -> OffloadError {
        self.cached_indexes().remove(path);
        missing(reference, path, reader).await
    }

    fn cached_indexes(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<LineIndex>>> {
        // Poisoned only if a thread panicked mid-insert; the map is still a valid cache.
        self.indexes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where the line index of the artifact at `path` is kept:
    /// `…/<conversation>/index/<kind>/<file>.lines` for `…/<conversation>/artifacts/<kind>/<file>`.
    fn index_path(&self, path: &str) -> Option<String> {
        let inside = path.strip_prefix(&self.dir)?.strip_prefix('/')?;
        let conversation = self.dir.strip_suffix("/artifacts")?;
        Some(format!(
            "{}.lines",
            join(&join(conversation, "index"), inside)
        ))
    }

    /// Write the line index of an artifact over [`INDEX_STEP`] bytes beside it. Best
    /// effort: without it, the first read builds the index again.
    pub(crate) async fn write_line_index<IO: FileWriter + ?Sized>(
        &self,
        path: &str,
        text: &str,
        io: &IO,
    ) {
        if text.len() as u64 > INDEX_STEP {
            self.write_index(path, &LineIndex::of(text.as_bytes()), None, io)
                .await;
        }
    }

    /// Write `index` as the line index of the artifact at `path`. Its directory is made
    /// first unless `dir_bit` of `made_dirs` says this materializer made it already (then
    /// made again, and the write tried once more, when the write fails). Best effort.
    pub(crate) async fn write_index<IO: FileWriter + ?Sized>(
        &self,
        path: &str,
        index: &LineIndex,
        dir_bit: Option<u8>,
        io: &IO,
    ) {
        let Some(index_path) = self.index_path(path) else {
            return;
        };
        let dir = &index_path[..crate::search::last_slash(&index_path).unwrap_or(0)];
        let file = index.to_file();
        let mut made = dir_bit.is_some_and(|bit| self.made(bit));
        loop {
            if !made {
                if io.mkdir(dir).await.is_err() {
                    return;
                }
                if let Some(bit) = dir_bit {
                    self.mark_made(bit);
                }
            }
            match io.write_file(&index_path, &file).await {
                Err(_) if made => made = false,
                _ => return,
            }
        }
    }

    /// Whether the directory of `bit` is made (see `made_dirs`).
    pub(crate) fn made(&self, bit: u8) -> bool {
        self.made_dirs.load(Ordering::Relaxed) & bit != 0
    }

    /// Remember that the directory of `bit` is made.
    pub(crate) fn mark_made(&self, bit: u8) {
        self.made_dirs.fetch_or(bit, Ordering::Relaxed);
    }
}

/// Why `reference` (at `path`) has no artifact: removed by retention when its marker is
/// there, else never written.
async fn missing<R: FileReader + ?Sized>(reference: &str, path: &str, reader: &R) -> OffloadError {
    let marker = format!("{path}{}", crate::create::REMOVED_SUFFIX);
    match reader.size(&marker).await {
        Ok(Some(_)) => OffloadError::RefRemoved(reference.into()),
        _ => OffloadError::RefNotFound(reference.into()),
    }
}

/// The error read-back gives for a binary artifact (`path` ends in `.bin`), naming its
/// size and kind from its first bytes (`head`).
pub(crate) fn not_text(reference: &str, size: u64, head: &[u8]) -> OffloadError {
    let kind = crate::summary::magic(head).map_or(String::new(), |k| format!(", {k}"));
    OffloadError::InvalidArgument(format!(
        "{reference} is binary data ({}{kind}): it has no text to read or search",
        crate::text::measure::count(usize::try_from(size).unwrap_or(usize::MAX), "byte")
    ))
}

/// Whether the artifact at `path` is binary data.
pub(crate) fn is_binary_path(path: &str) -> bool {
    path.strip_suffix(BINARY_EXTENSION)
        .is_some_and(|rest| rest.ends_with('.'))
}

/// The file in `dir` that `named` (the file name or path a placeholder holds) names, if
/// it is one a placeholder could name.
fn placeholder_file(dir: &str, named: &str) -> Option<String> {
    let inside = match named.strip_prefix('/') {
        Some(_) => named.strip_prefix(dir)?.strip_prefix('/')?,
        None => named.strip_prefix("./").unwrap_or(named),
    };
    let mut parts = inside.split('/');
    let (first, second) = (parts.next()?, parts.next());
    let safe = |part: &str| unsafe_component(part, 0).is_none();
    let ok = parts.next().is_none()
        && safe(first)
        && second.is_none_or(safe)
        && second.unwrap_or(first).ends_with(".md");
    ok.then(|| format!("{dir}/{inside}"))
}

#[cfg(test)]
mod tests {
    use super::placeholder_file;

    #[test]
    fn only_placeholder_files_one_or_two_deep() {
        let at = |t: &str| placeholder_file("/out", t);
        assert_eq!(
            at("tool-result-a.md").as_deref(),
            Some("/out/tool-result-a.md")
        );
        assert_eq!(
            at("./tool-result-a-1.md").as_deref(),
            Some("/out/tool-result-a-1.md")
        );
        assert_eq!(at("/out/s1/t.md").as_deref(), Some("/out/s1/t.md"));
        for outside in [
            "/out/a/b/c.md",
            "/outer/t.md",
            "/out/../t.md",
            "/out/./t.md",
            "./../t.md",
            "/out//t.md",
            "/out/t.txt",
            "/out/s1/t.json",
            "/out",
            "",
            "a\\b.md",
            "/other/s1/t.md",
        ] {
            assert_eq!(at(outside), None, "{outside}");
        }
    }
}
