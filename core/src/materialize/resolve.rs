//! What a string given to the read-back names: a `ctx://` ref of this conversation's
//! artifacts, or a file direct and batch offload left behind. Their placeholders name
//! a file (`[Content offloaded to: ./tool-result-<id>.md]`, `[Tool result offloaded to
//! file: <dir>/<session>/<id>.md]`), not a `ctx://` ref; a model given the read tools
//! passes that name, or the whole placeholder, and gets the same pages as for an artifact.

use super::materializer::Materializer;
use crate::error::OffloadError;

impl Materializer {
    /// The absolute path of the artifact `reference` names, if it is in scope: this
    /// conversation, `tool/` or `terminal/`, a plain file name. Refs percent-encode the
    /// conversation id and the file name (see docs/materializer.md, "Refs"); decoding never yields a
    /// path outside this conversation's artifacts.
    ///
    /// # Errors
    /// `REF_OUT_OF_SCOPE` for anything else, including a malformed escape
    /// ([`OffloadError::MalformedRef`]).
    ///
    /// ```
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions};
    /// let m = Materializer::new(MaterializerOptions::new("/d", "conv 1", "/")).unwrap();
    /// let path = m.resolve_ref("ctx://conv%201/tool/call%20%281%29.txt").unwrap();
    /// assert_eq!(path, "/d/context/conv 1/artifacts/tool/call (1).txt");
    /// assert!(m.resolve_ref("ctx://conv%201/tool/%2E%2E").is_err());
    /// assert_eq!(m.resolve_ref("call_1.txt").unwrap_err().to_string(), "not a ctx:// ref: \"call_1.txt\"");
    /// ```
    pub fn resolve_ref(&self, reference: &str) -> Result<String, OffloadError> {
        self.artifacts.resolve_ref(reference)
    }

    /// The path of what `reference` names for reading: an artifact of this conversation
    /// ([`Materializer::resolve_ref`]), or, with [`offload_dir`] set, a placeholder's
    /// file in it: `./tool-result-<id>.md` (a batch's), `<offload_dir>/<session>/<id>.md`
    /// (direct offload's), or either placeholder whole. Only `.md` files one or two
    /// components deep in that directory are read.
    ///
    /// [`offload_dir`]: super::types::MaterializerOptions::offload_dir
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
        self.artifacts.resolve_readable(reference)
    }
}
