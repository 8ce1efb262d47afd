//! The [`Materializer`]'s read-back: `read`, `tail` and `grep` of an artifact by ref,
//! paged with ranged reads ([`FileReader::size`], [`FileReader::read_range`]).
//!
//! An artifact up to [`INDEX_STEP`] bytes is read whole, in one range. A larger one is
//! read a chunk at a time, through its line index: the file written beside it when it
//! was materialized, else one built by a scan and kept in memory (up to
//! [`CACHED_INDEXES`] of them).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use super::materializer::Materializer;
use crate::path::join;
use crate::read::grep::{grep_counted, Found};
use crate::read::line_index::{LineIndex, INDEX_STEP};
use crate::read::source::{InFile, Source, CHUNK_BYTES, PAGE_CHUNK_BYTES, SCAN_CHUNK_BYTES};
use crate::read::{read_in, tail_in, Naming, Within};
use crate::{error::OffloadError, io::FileReader, io::FileWriter};

/// Line indexes kept in memory by one materializer, at most.
pub const CACHED_INDEXES: usize = 64;

/// An artifact being read: held whole when small, else read by range.
pub(super) enum Artifact<'a, R: ?Sized> {
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

impl Materializer {
    /// Lines `offset..offset + limit` of the artifact (0-based), numbered, at most
    /// [`Materializer::page_chars`] long (see [`read_page`](crate::read::read_page)).
    ///
    /// # Errors
    /// `REF_OUT_OF_SCOPE`, `REF_NOT_FOUND`, `READ_FAILED`.
    pub async fn read<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        offset: usize,
        limit: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        self.read_from(reference, offset, 1, limit, reader).await
    }

    /// [`Materializer::read`] starting inside line `offset + 1`: at part `part`
    /// (1-based; a number is a part) or at a character ([`Within::Char`], a grep
    /// window's `57.3@4010`): how a page continues inside a line too long for one page.
    ///
    /// ```
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions, ToolOutputRef, Within};
    /// use tool_offload_core::MemoryWriter;
    /// use futures_executor::block_on;
    /// let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    /// let io = MemoryWriter::new();
    /// let text = format!("{}NEEDLE{}", "a".repeat(5000), "b".repeat(5000));
    /// let output = ToolOutputRef { tool_call_id: "q", tool_name: "t", server_name: None, text: &text, was_value: false };
    /// block_on(m.materialize(&output, &io)).unwrap();
    /// let page = block_on(m.read_from("ctx://c/tool/q.txt", 0, Within::Char(5000), 1, &io)).unwrap();
    /// assert!(page.contains("\n1.3@5000| NEEDLEbbb"));
    /// ```
    ///
    /// # Errors
    /// As [`Materializer::read`].
    pub async fn read_from<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        offset: usize,
        within: impl Into<Within>,
        limit: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let request = (offset, within.into(), limit);
        let reference = crate::forms::reference::clean_ref(reference);
        self.read_named(reference, reference.into(), request, reader)
            .await
    }

    /// [`Materializer::read_from`] with pages named as the caller's tools name them.
    pub(crate) async fn read_named<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        naming: Naming<'_>,
        request: (usize, Within, usize),
        reader: &R,
    ) -> Result<String, OffloadError> {
        let page = async {
            let artifact = self.open(reference, reader, PAGE_CHUNK_BYTES).await?;
            let index = self.line_index(&artifact, reader).await?;
            read_in(&artifact, &index, naming, request, self.read_page_chars()).await
        };
        self.unless_vanished(reference, page.await, reader).await
    }

    /// A page of `text` held in memory (what a JSON path selected), through the same
    /// engine instance as an artifact's: one copy of it in the wasm build.
    pub(super) async fn read_held<R: FileReader + ?Sized>(
        &self,
        text: Vec<u8>,
        naming: Naming<'_>,
        request: (usize, Within, usize),
    ) -> Result<String, OffloadError> {
        let index = LineIndex::of(&text);
        let artifact: Artifact<'_, R> = Artifact::Whole(text);
        read_in(&artifact, &index, naming, request, self.read_page_chars()).await
    }

    /// The last `lines` lines of the artifact (see [`tail_page`](crate::read::tail_page)).
    ///
    /// # Errors
    /// As [`Materializer::read`].
    pub async fn tail<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        lines: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let reference = crate::forms::reference::clean_ref(reference);
        let page = async {
            let artifact = self.open(reference, reader, PAGE_CHUNK_BYTES).await?;
            let index = self.line_index(&artifact, reader).await?;
            tail_in(&artifact, &index, reference, lines, self.read_page_chars()).await
        };
        self.unless_vanished(reference, page.await, reader).await
    }

    /// Rows matching `pattern` (from [`compile_pattern`](crate::grep::pattern::compile_pattern)), with
    /// context (see [`grep_page`](crate::read::grep_page)). Reads the whole artifact once, a
    /// chunk at a time.
    ///
    /// # Errors
    /// As [`Materializer::read`].
    pub async fn grep<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        pattern: &crate::grep::pattern::Pattern,
        context: usize,
        max_matches: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let limits = (context, max_matches);
        let reference = crate::forms::reference::clean_ref(reference);
        self.grep_named(reference, reference.into(), pattern, limits, reader)
            .await
    }

    /// [`Materializer::grep`] with the page named as the caller's tools name it.
    pub(crate) async fn grep_named<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        naming: Naming<'_>,
        pattern: &crate::grep::pattern::Pattern,
        limits: (usize, usize),
        reader: &R,
    ) -> Result<String, OffloadError> {
        let page_chars = self.read_page_chars();
        let sizes = (page_chars, page_chars);
        let found = self
            .grep_found(reference, naming, pattern, limits, sizes, reader)
            .await?;
        Ok(found.page)
    }

    /// [`Materializer::grep_named`] with its counts, within `(max_chars, page_limit)`
    /// (see [`grep_counted`]): one instance of the search for a grep and a search
    /// across artifacts.
    pub(super) async fn grep_found<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        naming: Naming<'_>,
        pattern: &crate::grep::pattern::Pattern,
        limits: (usize, usize),
        sizes: (usize, usize),
        reader: &R,
    ) -> Result<Found, OffloadError> {
        let found = async {
            let artifact = self.open(reference, reader, SCAN_CHUNK_BYTES).await?;
            grep_counted(&artifact, naming, pattern, limits, sizes).await
        };
        self.unless_vanished(reference, found.await, reader).await
    }

    /// The artifact `reference` names, to be read `chunk` bytes at a time.
    pub(super) async fn open<'a, R: FileReader + ?Sized>(
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
        if super::binary::is_binary_path(&path) {
            let head = reader.read_range(&path, 0, 16).await.unwrap_or_default();
            return Err(super::binary::not_text(reference, size, &head));
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
    async fn line_index<R: FileReader + ?Sized>(
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
    pub(super) async fn unless_vanished<T, R: FileReader + ?Sized>(
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
    pub(super) async fn gone<R: FileReader + ?Sized>(
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
        self.line_indexes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where the line index of the artifact at `path` is kept:
    /// `…/<conversation>/index/<kind>/<file>.lines` for `…/<conversation>/artifacts/<kind>/<file>`.
    fn index_path(&self, path: &str) -> Option<String> {
        let inside = path.strip_prefix(&self.artifacts)?.strip_prefix('/')?;
        let conversation = self.artifacts.strip_suffix("/artifacts")?;
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
