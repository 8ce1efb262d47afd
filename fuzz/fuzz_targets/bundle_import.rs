//! Bundle import: `import_conversation` on arbitrary JSON, raw or assembled from
//! `arbitrary` bundles that mostly pass the format checks, into a MemoryWriter that may
//! already hold files.
//!
//! Never panics; never writes outside `<user_data>/context/<conv>/artifacts/`; a refused
//! bundle (anything but a write failure) writes nothing; an imported one has each
//! artifact at the path it reports, with the bundle's content.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use tool_offload_core::materialize::{import_conversation, sha256_hex};
use tool_offload_core::path::{join, resolve};
use tool_offload_core::{FileWriter, MemoryWriter, OffloadError};
use tool_offload_fuzz::{block_on, make_ref};

#[derive(Arbitrary, Debug)]
enum Input {
    Raw(Vec<u8>),
    Built(Bundle),
}

#[derive(Arbitrary, Debug, Clone)]
struct Bundle {
    user_data: String,
    conversation: String,
    bad_format: bool,
    version: Option<u8>,
    messages: Vec<String>,
    artifacts: Vec<Artifact>,
    existing: Vec<(String, String)>,
}

#[derive(Arbitrary, Debug, Clone)]
struct Artifact {
    kind: Kind,
    file: String,
    /// Replaces the ref made from kind and file.
    reference: Option<String>,
    /// Replaces the path made from kind and file.
    path: Option<String>,
    bad_sha: bool,
    content: String,
    /// Mention the ref in the messages.
    mentioned: bool,
    /// A file already where the artifact goes: the same content, or this.
    already_there: Option<Option<String>>,
}

#[derive(Arbitrary, Debug, Clone)]
enum Kind {
    Tool,
    Terminal,
    Other(String),
}

fuzz_target!(|input: Input| {
    let (bundle, user_data, existing) = match input {
        Input::Raw(bytes) => match serde_json::from_slice::<Value>(&bytes) {
            Ok(bundle) => (bundle, "/data".to_owned(), Vec::new()),
            Err(_) => return,
        },
        Input::Built(b) => {
            let mut existing = b.existing.clone();
            for a in &b.artifacts {
                if let Some(content) = &a.already_there {
                    let content = content.clone().unwrap_or_else(|| a.content.clone());
                    existing.push((format!("{}/{}", a.kind.dir(), a.file), content));
                }
            }
            (build(&b), b.user_data, existing)
        }
    };
    let io = MemoryWriter::new();
    let Ok(root) = resolve("/", &user_data) else {
        return;
    };
    // Files already there: some where artifacts would go, some anywhere.
    let conversation = bundle
        .get("conversationId")
        .and_then(Value::as_str)
        .unwrap_or("c");
    let artifacts = join(&join(&join(&root, "context"), conversation), "artifacts");
    for (path, content) in &existing {
        let path = match resolve(&artifacts, path) {
            Ok(p) => p,
            Err(_) => continue,
        };
        let dir = &path[..path.rfind('/').unwrap_or(0)];
        let _ = block_on(io.mkdir(dir));
        let _ = block_on(io.write_file(&path, content));
    }
    let before = io.files();
    let result = block_on(import_conversation(&bundle, &user_data, "/", &io));
    let after = io.files();
    let written: Vec<(&String, &String)> = after
        .iter()
        .filter(|(p, c)| before.get(*p) != Some(*c))
        .collect();
    for (path, _) in &written {
        let rest = path
            .strip_prefix(&artifacts)
            .and_then(|r| r.strip_prefix('/'))
            .unwrap_or_else(|| panic!("wrote {path:?} outside {artifacts:?}"));
        assert!(
            rest.starts_with("tool/") || rest.starts_with("terminal/"),
            "{path:?}"
        );
        assert!(!path.split('/').any(|s| s == ".." || s == "."), "{path:?}");
    }
    match result {
        Ok(imported) => {
            let list = bundle["artifacts"].as_array().unwrap();
            assert_eq!(imported.paths.len(), list.len());
            for (path, artifact) in imported.paths.iter().zip(list) {
                assert_eq!(
                    after.get(path).map(String::as_str),
                    artifact["content"].as_str()
                );
            }
        }
        Err(OffloadError::WriteFailed { .. }) => {}
        Err(e) => assert!(written.is_empty(), "refused ({e}) but wrote {written:?}"),
    }
});

impl Kind {
    fn dir(&self) -> &str {
        match self {
            Kind::Tool => "tool",
            Kind::Terminal => "terminal",
            Kind::Other(s) => s,
        }
    }
}

fn build(b: &Bundle) -> Value {
    let mut messages: Vec<Value> = b
        .messages
        .iter()
        .map(|m| json!({"role": "user", "content": m}))
        .collect();
    let artifacts: Vec<Value> = b
        .artifacts
        .iter()
        .map(|a| {
            let kind = a.kind.dir();
            let reference = a.reference.clone().unwrap_or_else(|| make_ref(&b.conversation, kind, &a.file));
            let path = a.path.clone().unwrap_or_else(|| format!("{kind}/{}", a.file));
            if a.mentioned {
                messages.push(json!({"role": "tool", "content": format!("[stored as {reference} and not shown]")}));
            }
            let sha = if a.bad_sha { sha256_hex(&reference) } else { sha256_hex(&a.content) };
            json!({"ref": reference, "path": path, "sha256": sha, "content": a.content})
        })
        .collect();
    json!({
        "format": if b.bad_format { "tool-offload/other" } else { "tool-offload/conversation" },
        "version": b.version.map_or(json!(1), |v| json!(v)),
        "conversationId": b.conversation,
        "messages": messages,
        "artifacts": artifacts,
    })
}
