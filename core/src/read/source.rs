//! What read-back pages through: an artifact's bytes, by range. One paging engine serves
//! text already in memory ([`Text`]) and a file behind a [`FileReader`] ([`InFile`]), so
//! a page of a 1 GB artifact reads a page, and both give the same page.

use std::borrow::Cow;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use crate::{error::OffloadError, io::FileReader};

/// Bytes read per range request by `read` and `tail`: a page and some lines around it.
pub(crate) const PAGE_CHUNK_BYTES: usize = 1 << 18;
/// Bytes read per range request by whole-artifact scans (`grep`, building a line
/// index): fewer, larger requests, since each is a round trip to the reader.
pub(crate) const SCAN_CHUNK_BYTES: usize = 1 << 21;
/// Text in memory is scanned in pieces this large (they are slices, not copies).
pub(crate) const CHUNK_BYTES: usize = 1 << 20;

/// An artifact's bytes, read by range.
pub(crate) trait Source {
    /// The artifact's size in bytes.
    fn size(&self) -> u64;
    /// How many bytes one request reads (tests make it tiny to cross every edge).
    fn chunk(&self) -> usize;
    /// Bytes `start..end` (fewer at the end).
    fn range(
        &self,
        start: u64,
        end: u64,
    ) -> impl Future<Output = Result<Cow<'_, [u8]>, OffloadError>>;
}

/// An artifact's bytes already in memory.
pub(crate) struct Text<'a> {
    pub(crate) text: &'a [u8],
    pub(crate) chunk: usize,
}

impl<'a> Text<'a> {
    pub(crate) fn new(text: &'a [u8]) -> Self {
        Text {
            text,
            chunk: CHUNK_BYTES,
        }
    }
}

impl Source for Text<'_> {
    fn size(&self) -> u64 {
        self.text.len() as u64
    }
    fn chunk(&self) -> usize {
        self.chunk
    }
    async fn range(&self, start: u64, end: u64) -> Result<Cow<'_, [u8]>, OffloadError> {
        let range = crate::io::clamp_range(start, end, self.text.len());
        Ok(Cow::Borrowed(&self.text[range]))
    }
}

/// A file behind a [`FileReader`], of a size asked once.
pub(crate) struct InFile<'a, R: ?Sized> {
    pub(crate) reader: &'a R,
    pub(crate) path: String,
    pub(crate) size: u64,
    pub(crate) chunk: usize,
}

impl<R: FileReader + ?Sized> Source for InFile<'_, R> {
    fn size(&self) -> u64 {
        self.size
    }
    fn chunk(&self) -> usize {
        self.chunk
    }
    async fn range(&self, start: u64, end: u64) -> Result<Cow<'_, [u8]>, OffloadError> {
        self.reader
            .read_range(&self.path, start, end.min(self.size))
            .await
            .map(Cow::Owned)
            .map_err(|source| OffloadError::ReadFailed {
                path: self.path.clone(),
                source,
            })
    }
}

/// The output of a future that never waits (paging over [`Text`]): the text functions
/// share the async engine without an executor.
pub(crate) fn ready<T>(future: impl Future<Output = T>) -> T {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(value) => value,
        // `Text` never pends; nothing else is driven through here.
        Poll::Pending => unreachable!("paging over text in memory never waits"),
    }
}
