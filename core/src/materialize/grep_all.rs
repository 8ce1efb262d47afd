//! `context_grep` without a ref: one search over every artifact of the conversation,
//! newest first, each artifact's matches under its own header (its ref, so the model can
//! read around a hit), all within one page.

use crate::grep::pattern::Pattern;

use super::materializer::Materializer;
use crate::forms::reference::ArtifactKind;
use crate::forms::reference::{encode, mint, SCHEME};
use crate::io::FileLifecycle;
use crate::path::join;
use crate::read::by_ref::Section;
use crate::{error::OffloadError, io::FileReader};

impl Materializer {
    /// Rows matching `pattern` in every artifact of this conversation (tool outputs and
    /// terminal snippets), newest first (by modification time, then by ref, last first),
    /// with `context` rows around each, at most `max_matches` in all, as much as fits in
    /// one page. Each artifact with matches is a section: its own grep page, headed by
    /// its ref. The page's header says how many rows matched in how many artifacts, and
    /// how many artifacts were searched before the page was full.
    ///
    /// # Errors
    /// `READ_FAILED` when an artifact cannot be read.
    ///
    /// ```
    /// use tool_offload_core::materialize::{compile_pattern, Materializer, MaterializerOptions, ToolOutputRef};
    /// use tool_offload_core::MemoryWriter;
    /// use futures_executor::block_on;
    /// let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    /// let io = MemoryWriter::new();
    /// for (id, planted) in [("a", "ERROR one"), ("b", "fine"), ("c", "ERROR two")] {
    ///     let text = format!("{planted}\n{}", "ok\n".repeat(3000));
    ///     let output = ToolOutputRef { tool_call_id: id, tool_name: "bash", server_name: None, text: &text, was_value: false };
    ///     block_on(m.materialize(&output, &io)).unwrap();
    /// }
    /// let page = block_on(m.grep_all(&compile_pattern("ERROR", false).unwrap(), 0, 50, &io)).unwrap();
    /// assert_eq!(page, "[ctx://c: 2 matching rows in 2 artifacts (3 of 3 searched, newest first); all shown.]\n\
    ///     [ctx://c/tool/c.txt: 1 matching row in 3,001 lines, with 0 rows of context; all shown.]\n1| ERROR two\n\
    ///     [ctx://c/tool/a.txt: 1 matching row in 3,001 lines, with 0 rows of context; all shown.]\n1| ERROR one");
    /// ```
    pub async fn grep_all<R: FileReader + FileLifecycle + ?Sized>(
        &self,
        pattern: &Pattern,
        context: usize,
        max_matches: usize,
        reader: &R,
    ) -> Result<String, OffloadError> {
        let conversation = &self.options().conversation_id;
        let title = format!("{SCHEME}{}", encode(conversation));
        let artifacts: Vec<Section> = self
            .artifact_refs(reader)
            .await
            .into_iter()
            .map(|reference| Section {
                reference,
                knowledge_id: None,
            })
            .collect();
        let limits = (context, max_matches);
        let page_chars = self.read_page_chars();
        self.artifacts
            .grep_sections(
                (&title, "ref"),
                &artifacts,
                pattern,
                limits,
                page_chars,
                reader,
            )
            .await
    }

    /// The refs of this conversation's artifacts (tool outputs and terminal snippets),
    /// newest first: by modification time, then by ref, last first.
    ///
    /// ```
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions};
    /// use tool_offload_core::MemoryWriter;
    /// use futures_executor::block_on;
    /// let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    /// let io = MemoryWriter::new();
    /// block_on(m.materialize_terminal("t1", &"$ make\n".repeat(1000), &io)).unwrap();
    /// assert_eq!(block_on(m.artifact_refs(&io)), ["ctx://c/terminal/t1.log"]);
    /// ```
    pub async fn artifact_refs<R: FileReader + FileLifecycle + ?Sized>(
        &self,
        reader: &R,
    ) -> Vec<String> {
        let conversation = &self.options().conversation_id;
        let mut found: Vec<(u64, String)> = Vec::new();
        for kind in [ArtifactKind::Tool, ArtifactKind::Terminal] {
            let dir = join(&self.artifacts.dir, kind.dir());
            // A directory not made yet holds nothing.
            let names = reader.list_dir(&dir).await.unwrap_or_default();
            for name in names {
                // Artifacts only (tool outputs are .txt or .json, terminal snippets .log):
                // not a removed one's marker, nor a writer's temporary file.
                let artifact = [".txt", ".json", ".log"].iter().any(|e| name.ends_with(e))
                    && !name.starts_with('.');
                if !artifact {
                    continue;
                }
                let stat = reader.stat(&join(&dir, &name)).await.ok().flatten();
                if stat.is_some_and(|s| s.is_dir || s.is_link) {
                    continue;
                }
                let modified = stat.map_or(0, |s| s.modified_ms);
                found.push((modified, mint(conversation, kind, &name)));
            }
        }
        crate::sort::sort_by(&mut found, |a, b| b.cmp(a));
        found.into_iter().map(|(_, reference)| reference).collect()
    }
}
