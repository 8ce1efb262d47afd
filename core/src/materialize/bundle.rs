//! Export and import of a conversation: its messages plus every artifact they refer to,
//! each with a SHA-256, in one self-contained JSON bundle.

use std::collections::HashSet;

use super::bundle_content::Content;
use super::materializer::Materializer;
use super::ref_scan::{self, Found};
use super::types::MaterializerOptions;
use crate::create::Creation;
use crate::forms::reference;
use crate::forms::reference::{unsafe_ref_component, ParsedRef, RefError};
use crate::{error::OffloadError, io::FileReader, io::FileWriter};
use serde_json::{Map, Value};

/// The bundle's `format` field.
pub const BUNDLE_FORMAT: &str = "tool-offload/conversation";
/// The bundle's `version` field.
pub const BUNDLE_VERSION: u64 = 1;

/// What [`import_conversation`] restored.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedConversation {
    /// The bundle's conversation id: make a [`Materializer`] with it to read the refs.
    pub conversation_id: String,
    /// The bundle's messages, as exported.
    pub messages: Value,
    /// Absolute paths of the artifacts written (or already there, identical).
    pub paths: Vec<String>,
}

impl Materializer {
    /// One self-contained bundle of `messages` and every artifact of this conversation
    /// they refer to (any `ctx://<conversationId>/tool|terminal/…` in any string: summaries,
    /// legacy records, text), each with its SHA-256:
    /// `{ format, version, conversationId, messages, artifacts: [{ ref, path, sha256, content }] }`.
    /// An artifact's `ref` is in its canonical spelling (as minted), its `path` is the
    /// file's own path under `artifacts/` (`tool/call (1).txt` for `…/tool/call%20%281%29.txt`).
    ///
    /// # Errors
    /// `REF_NOT_FOUND` when a referred artifact is missing (the bundle would not be
    /// self-contained); `READ_FAILED`.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_offload_core::materialize::{import_conversation, Materializer, MaterializerOptions};
    /// use tool_offload_core::MemoryWriter;
    /// # futures_executor::block_on(async {
    /// let (old, new) = (MemoryWriter::new(), MemoryWriter::new());
    /// let m = Materializer::new(MaterializerOptions::new("/a", "c1", "/")).unwrap();
    /// let messages = json!([{"role": "tool", "tool_call_id": "call_1", "content": "x\n".repeat(5000)}]);
    /// let views: Vec<_> = messages.as_array().unwrap().iter().collect();
    /// let done = m.materialize_messages(&views, &old).await.unwrap();
    /// let mut slim = messages.clone();
    /// tool_offload_core::apply_edits(&mut slim[0], done.changed[0].1.clone());
    /// let bundle = m.export_conversation(&slim, &old).await.unwrap();
    /// let imported = import_conversation(&bundle, "/b", "/", &new).await.unwrap();
    /// assert_eq!(imported.paths, ["/b/context/c1/artifacts/tool/call_1.txt"]);
    /// assert_eq!(new.read("/b/context/c1/artifacts/tool/call_1.txt").unwrap(), "x\n".repeat(5000));
    /// # });
    /// ```
    pub async fn export_conversation<R: FileReader + ?Sized>(
        &self,
        messages: &Value,
        reader: &R,
    ) -> Result<Value, OffloadError> {
        let conversation = &self.options().conversation_id;
        let mut artifacts = Vec::new();
        // `String`s, as every other set of names in core (one set type in the wasm).
        let mut seen: HashSet<String> = HashSet::new();
        let mut found = Vec::new();
        refs_in(messages, conversation, &mut |f: Found<'_>| {
            if seen.insert(f.reference.clone().into_owned()) {
                found.push(f);
            }
        });
        for Found { reference, parsed } in found {
            let reference = reference.into_owned();
            let path = self.resolve_ref(&reference)?;
            let content = Content::read(&reference, path, reader).await?;
            let mut artifact = Map::new();
            artifact.insert("ref".into(), Value::String(reference));
            let path_in_bundle = format!("{}/{}", parsed.kind.dir(), parsed.file);
            artifact.insert("path".into(), Value::String(path_in_bundle));
            artifact.insert("sha256".into(), Value::String(content.sha256()));
            content.insert_into(&mut artifact);
            artifacts.push(Value::Object(artifact));
        }
        let mut bundle = Map::new();
        bundle.insert("format".into(), BUNDLE_FORMAT.into());
        bundle.insert("version".into(), BUNDLE_VERSION.into());
        bundle.insert("conversationId".into(), conversation.as_str().into());
        bundle.insert("messages".into(), messages.clone());
        bundle.insert("artifacts".into(), Value::Array(artifacts));
        Ok(Value::Object(bundle))
    }
}

/// Restore a bundle from [`Materializer::export_conversation`] under `user_data` (a
/// relative one resolves against the absolute `cwd`), so every ref in its messages
/// resolves again. Everything is checked before anything is written: the format, each
/// artifact's SHA-256, that each path stays inside the conversation's artifacts, that
/// every ref the messages name is in the bundle, and that no different file already
/// sits where an artifact goes (an identical one is left as it is).
///
/// # Errors
/// `INVALID_BUNDLE`, `ARTIFACT_EXISTS`, `INVALID_ARGUMENT` (relative `cwd`),
/// `READ_FAILED`, `WRITE_FAILED`.
pub async fn import_conversation<IO: FileWriter + FileReader + ?Sized>(
    bundle: &Value,
    user_data: &str,
    cwd: &str,
    io: &IO,
) -> Result<ImportedConversation, OffloadError> {
    let invalid = |why: String| OffloadError::InvalidBundle(why);
    let format = bundle.get("format").and_then(Value::as_str);
    if format != Some(BUNDLE_FORMAT) {
        return Err(invalid(format!(
            "format must be {BUNDLE_FORMAT:?}, got {}",
            describe(bundle.get("format"))
        )));
    }
    if bundle.get("version").and_then(Value::as_u64) != Some(BUNDLE_VERSION) {
        return Err(invalid(format!(
            "version {} is not supported (this library reads version {BUNDLE_VERSION})",
            describe(bundle.get("version"))
        )));
    }
    let conversation = bundle
        .get("conversationId")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("conversationId must be a string".into()))?;
    if let Some(reason) = unsafe_ref_component(conversation, 0) {
        return Err(invalid(format!("conversationId {conversation:?} {reason}")));
    }
    let messages = bundle
        .get("messages")
        .filter(|m| m.is_array())
        .ok_or_else(|| invalid("messages must be an array".into()))?;
    let Some(artifacts) = bundle.get("artifacts").and_then(Value::as_array) else {
        return Err(invalid("artifacts must be an array".into()));
    };
    let scope = Materializer::new(MaterializerOptions::new(user_data, conversation, cwd))?;

    // Keyed by canonical ref, so every check below is one hash lookup: validation
    // stays linear in the size of the bundle.
    let mut checked: Vec<(String, Content<'_>)> = Vec::with_capacity(artifacts.len());
    let mut present: HashSet<String> = HashSet::with_capacity(artifacts.len());
    for (i, artifact) in artifacts.iter().enumerate() {
        let field = |key: &str| artifact.get(key).and_then(Value::as_str);
        let (Some(reference), Some(path), Some(sha256), Some(content)) = (
            field("ref"),
            field("path"),
            field("sha256"),
            field("content"),
        ) else {
            return Err(invalid(format!(
                "artifacts[{i}] must have string fields ref, path, sha256 and content"
            )));
        };
        let parsed = match reference::parse(reference) {
            Ok(parsed) if parsed.conversation == conversation && bundled(parsed.kind) => parsed,
            Err(RefError::Malformed(reason)) => {
                return Err(invalid(format!(
                    "artifacts[{i}].ref {reference:?} is malformed: {reason}"
                )))
            }
            _ => {
                return Err(invalid(format!(
                "artifacts[{i}].ref {reference:?} would land outside the conversation's artifacts"
            )))
            }
        };
        if !is_path_of(path, &parsed) {
            return Err(invalid(format!(
                "artifacts[{i}].path {path:?} does not match its ref {reference:?}"
            )));
        }
        let content = Content::of(artifact, content)
            .map_err(|why| invalid(format!("artifacts[{i}] ({path}) {why}")))?;
        let actual = content.sha256();
        if actual != sha256 {
            return Err(invalid(format!(
                "artifacts[{i}] ({path}) fails its SHA-256 check: the bundle says {sha256}, the content hashes to {actual}"
            )));
        }
        let canonical = match parsed.canonical_spelling {
            true => reference.to_owned(),
            false => parsed.canonical(),
        };
        if !present.insert(canonical) {
            return Err(invalid(format!(
                "artifacts[{i}].ref {reference:?} appears twice"
            )));
        }
        checked.push((scope.resolve_ref(reference)?, content));
    }
    let mut missing = None;
    refs_in(messages, conversation, &mut |f: Found<'_>| {
        if missing.is_none() && !present.contains(f.reference.as_ref()) {
            missing = Some(f.reference.into_owned());
        }
    });
    if let Some(missing) = missing {
        return Err(invalid(format!(
            "the messages refer to {missing} but the bundle has no artifact for it"
        )));
    }
    let mut fresh = Vec::new();
    for (target, content) in &checked {
        match content.held_at(target, io).await? {
            None => fresh.push((target, content)),
            Some(true) => {}
            Some(false) => return Err(OffloadError::ArtifactExists(target.clone())),
        }
    }
    // Each directory once (there are at most two: tool/ and terminal/).
    let mut made: Vec<&str> = Vec::new();
    for (target, content) in fresh {
        let dir = &target[..crate::search::last_slash(target).unwrap_or(0)];
        if !made.contains(&dir) {
            io.mkdir(dir)
                .await
                .map_err(crate::create::dir_failed(dir))?;
            made.push(dir);
        }
        // Exclusive: a different file that appeared since the check above (another
        // process importing) is reported, never overwritten.
        if content.create_at(target, io).await? == Creation::Taken {
            return Err(OffloadError::ArtifactExists(target.clone()));
        }
        if let Content::Text(text) = content {
            scope.artifacts.write_line_index(target, text, io).await;
        }
    }
    Ok(ImportedConversation {
        conversation_id: conversation.into(),
        messages: messages.clone(),
        paths: checked.into_iter().map(|(target, _)| target).collect(),
    })
}

/// Whether `path` is the artifact's path under the conversation's `artifacts/`:
/// `<kind>/<file>`, the file name as on disk (decoded).
fn is_path_of(path: &str, parsed: &ParsedRef<'_>) -> bool {
    path.strip_prefix(parsed.kind.dir())
        .and_then(|rest| rest.strip_prefix('/'))
        == Some(&*parsed.file)
}

/// The refs of `conversation`'s bundled artifacts in `value` ([`ref_scan::refs_in`]).
fn refs_in<'a>(value: &'a Value, conversation: &str, visit: &mut dyn FnMut(Found<'a>)) {
    ref_scan::refs_in(value, &mut |found: Found<'a>| {
        if found.parsed.conversation == conversation && bundled(found.parsed.kind) {
            visit(found);
        }
    });
}

/// Whether a conversation bundle carries artifacts of `kind`: tool outputs and terminal
/// snippets. Workspace knowledge travels with its records, in workspace bundles.
fn bundled(kind: crate::forms::reference::ArtifactKind) -> bool {
    kind != crate::forms::reference::ArtifactKind::Knowledge
}

fn describe(value: Option<&Value>) -> String {
    value.map_or_else(|| "nothing".into(), crate::json::stringify)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sha256::sha256_hex;
    use serde_json::json;

    #[test]
    fn finds_refs_in_summaries_advice_and_prose_once_each() {
        let messages = json!([
            {"content": "[Output of bash (call c1) stored as ctx://conv/tool/c1.txt and not shown in full]\nIf you need more: context_tail(\"ctx://conv/tool/c1.txt\", 200)"},
            {"content": [{"type": "text", "text": "see ctx://conv/terminal/t 1.log. and ctx://other/tool/x.txt, ctx://conv/tool/.json"}]},
        ]);
        // "t 1.log": a space ends the token before any extension, so it is not a ref.
        let mut found = Vec::new();
        refs_in(&messages, "conv", &mut |f| {
            found.push(f.reference.into_owned())
        });
        // Repeats are the exporter's to drop.
        found.dedup();
        assert_eq!(found, ["ctx://conv/tool/c1.txt", "ctx://conv/tool/.json"]);
    }

    #[test]
    fn knowledge_refs_are_not_conversation_artifacts() {
        let messages = json!([{"content": "see ctx://conv/knowledge/tool_result_c1.txt"}]);
        let mut found = Vec::new();
        refs_in(&messages, "conv", &mut |f| {
            found.push(f.reference.into_owned())
        });
        assert!(found.is_empty(), "{found:?}");
        let content = "k";
        let bundle = json!({
            "format": BUNDLE_FORMAT, "version": 1, "conversationId": "conv", "messages": [],
            "artifacts": [{"ref": "ctx://conv/knowledge/k.txt", "path": "knowledge/k.txt",
                           "sha256": sha256_hex(content), "content": content}],
        });
        let io = crate::memory::MemoryWriter::new();
        let err =
            futures_executor::block_on(import_conversation(&bundle, "/d", "/", &io)).unwrap_err();
        assert_eq!(err.code(), crate::error::ErrorCode::InvalidBundle);
        assert!(io.files().is_empty());
    }
}
