//! Pages of an artifact by ref: `read`, `tail` and `grep` of one, and one `grep` over
//! many (sections), each within the caller's page size and named as its tools name it.

use super::artifacts::{Artifact, Artifacts};
use crate::grep::pattern::Pattern;
use crate::read::grep::{grep_counted, Found};
use crate::read::line_index::LineIndex;
use crate::read::source::{PAGE_CHUNK_BYTES, SCAN_CHUNK_BYTES};
use crate::read::{read_in, tail_in, Naming, Within};
use crate::text::measure::count;
use crate::{error::OffloadError, io::FileReader, text::utf16_len};

/// One artifact to search: its ref, and for a workspace's knowledge the id its page is
/// named by.
pub(crate) struct Section {
    pub(crate) reference: String,
    pub(crate) knowledge_id: Option<String>,
}

/// Room a section needs beyond its ref to be worth starting: a header and a few rows.
const MIN_SECTION_CHARS: usize = 300;

impl Artifacts {
    /// Lines `request.0 ..` of the artifact `reference` names, from `request.1` within the
    /// first, `request.2` at most, in a page under `page_chars` named as `naming` says.
    pub(crate) async fn read_named<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        naming: Naming<'_>,
        request: (usize, Within, usize),
        page_chars: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let page = async {
            let artifact = self.open(reference, reader, PAGE_CHUNK_BYTES).await?;
            let index = self.line_index(&artifact, reader).await?;
            read_in(&artifact, &index, naming, request, page_chars).await
        };
        self.unless_vanished(reference, page.await, reader).await
    }

    /// A page of `text` held in memory (what a JSON path selected), through the same
    /// engine instance as an artifact's: one copy of it in the wasm build.
    pub(crate) async fn read_held<R: FileReader + ?Sized>(
        &self,
        text: Vec<u8>,
        naming: Naming<'_>,
        request: (usize, Within, usize),
        page_chars: usize,
    ) -> Result<String, OffloadError> {
        let index = LineIndex::of(&text);
        let artifact: Artifact<'_, R> = Artifact::Whole(text);
        read_in(&artifact, &index, naming, request, page_chars).await
    }

    /// The last `lines` lines of the artifact `reference` names, in a page under
    /// `page_chars`.
    pub(crate) async fn tail<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        lines: usize,
        page_chars: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let page = async {
            let artifact = self.open(reference, reader, PAGE_CHUNK_BYTES).await?;
            let index = self.line_index(&artifact, reader).await?;
            tail_in(&artifact, &index, reference, lines, page_chars).await
        };
        self.unless_vanished(reference, page.await, reader).await
    }

    /// Rows of the artifact `reference` names matching `pattern`, `limits.0` rows of
    /// context around each, `limits.1` at most, in a page under `page_chars` named as
    /// `naming` says.
    pub(crate) async fn grep_named<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        naming: Naming<'_>,
        pattern: &Pattern,
        limits: (usize, usize),
        page_chars: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let sizes = (page_chars, page_chars);
        let found = self
            .grep_found(reference, naming, pattern, limits, sizes, reader)
            .await?;
        Ok(found.page)
    }

    /// [`Artifacts::grep_named`] with its counts, within `(max_chars, page_limit)`
    /// (see [`grep_counted`]): one instance of the search for a grep and a search
    /// across artifacts.
    pub(crate) async fn grep_found<R: FileReader + ?Sized>(
        &self,
        reference: &str,
        naming: Naming<'_>,
        pattern: &Pattern,
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

    /// One page searching `sections` in order, each with matches shown as its own grep
    /// page, under a header titled `title` that counts them all (as
    /// `context_grep` without a ref and `grep_knowledge` without an id search); `one` names what the model may grep one of instead.
    pub(crate) async fn grep_sections<R: FileReader + ?Sized>(
        &self,
        (title, one): (&str, &str),
        sections: &[Section],
        pattern: &Pattern,
        (context, max_matches): (usize, usize),
        page_limit: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        // The page's own header: its title and counts.
        let mut room = page_limit.saturating_sub(title.len() + 160);
        let (mut pages, mut hits, mut shown, mut searched) = (Vec::new(), 0, 0, 0);
        // Why the search ended before the last artifact.
        let mut full: Option<String> = None;
        for section in sections {
            let reference = &section.reference;
            if shown >= max_matches {
                full = Some(format!(
                    "stopped at {} (max_matches)",
                    count(shown, "matching row")
                ));
                break;
            }
            let named = section.knowledge_id.as_deref().unwrap_or(reference);
            if room < named.len() * 2 + MIN_SECTION_CHARS {
                full = Some(format!("the page is full after {}", count(shown, "row")));
                break;
            }
            let limits = (context, max_matches - shown);
            let sizes = (room, page_limit);
            let naming = match &section.knowledge_id {
                Some(id) => Naming::Knowledge { id, lines: 1 },
                None => Naming::Ref(reference),
            };
            let found = match self
                .grep_found(reference, naming, pattern, limits, sizes, reader)
                .await
            {
                Ok(found) => found,
                // Removed since it was listed (retention, a concurrent gc): nothing to find.
                Err(OffloadError::RefNotFound(_) | OffloadError::RefRemoved(_)) => continue,
                Err(other) => return Err(other),
            };
            let size = utf16_len(&found.page) + 1;
            if found.hits > 0 && size >= room {
                // Its first match alone is longer than what is left (a long line).
                full = Some(format!("the page is full after {}", count(shown, "row")));
                break;
            }
            searched += 1;
            if found.hits == 0 {
                continue;
            }
            hits += found.hits;
            shown += found.shown;
            room -= size;
            pages.push(found.page);
        }
        let outcome = match (full, shown == hits) {
            (None, true) => "all shown".to_owned(),
            (None, false) => format!("the first {shown} shown; narrow the pattern to see others"),
            (Some(why), _) => format!("{why}: narrow the pattern, or grep one {one}"),
        };
        let mut page = format!(
            "[{title}: {} in {} ({searched} of {} searched, newest first); {outcome}.]",
            count(hits, "matching row"),
            count(pages.len(), "artifact"),
            sections.len(),
        );
        for section in &pages {
            page.push('\n');
            page.push_str(section);
        }
        Ok(page)
    }
}
