//! Read-back of the files direct and batch offload leave behind. Their placeholders name
//! a file (`[Content offloaded to: ./tool-result-<id>.md]`, `[Tool result offloaded to
//! file: <dir>/<session>/<id>.md]`), not a `ctx://` ref; a model given the read tools
//! passes that name, or the whole placeholder, and gets the same pages as for an artifact.

use super::reference::clean_ref;
use super::Materializer;
use crate::path::unsafe_component;
use crate::OffloadError;

impl Materializer {
    /// The path of what `reference` names for reading: an artifact of this conversation
    /// ([`Materializer::resolve_ref`]), or, with [`offload_dir`] set, a placeholder's
    /// file in it: `./tool-result-<id>.md` (a batch's), `<offload_dir>/<session>/<id>.md`
    /// (direct offload's), or either placeholder whole. Only `.md` files one or two
    /// components deep in that directory are read.
    ///
    /// [`offload_dir`]: super::MaterializerOptions::offload_dir
    ///
    /// # Errors
    /// As [`Materializer::resolve_ref`]: a path in no place this materializer reads is
    /// not a ref (`REF_OUT_OF_SCOPE`, "not a ctx:// ref").
    ///
    /// ```
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions};
    /// let mut options = MaterializerOptions::new("/d", "c", "/work");
    /// options.offload_dir = Some("out".into());
    /// let m = Materializer::new(options).unwrap();
    /// assert_eq!(m.resolve_readable("./tool-result-t1.md").unwrap(), "/work/out/tool-result-t1.md");
    /// assert_eq!(m.resolve_readable("[Content offloaded to: ./tool-result-t1.md]").unwrap(), "/work/out/tool-result-t1.md");
    /// assert_eq!(m.resolve_readable("/work/out/s1/toolu_1.md").unwrap(), "/work/out/s1/toolu_1.md");
    /// assert_eq!(m.resolve_readable("ctx://c/tool/a.txt").unwrap(), "/d/context/c/artifacts/tool/a.txt");
    /// assert!(m.resolve_readable("/work/out/../secret.md").is_err());
    /// assert!(m.resolve_readable("/etc/passwd").is_err());
    /// assert!(m.resolve_readable("./notes.txt").is_err());
    /// ```
    pub fn resolve_readable(&self, reference: &str) -> Result<String, OffloadError> {
        match (self.resolve_ref(reference), &self.offload_dir) {
            (Err(OffloadError::NotARef(text)), Some(dir)) => {
                placeholder_file(dir, clean_ref(reference)).ok_or(OffloadError::NotARef(text))
            }
            (result, _) => result,
        }
    }
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
