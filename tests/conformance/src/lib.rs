//! Shared conformance vectors (`tests/vectors/*.json`) for the native hosts.
//!
//! A vector is input plus expected output (messages, counts, paths and the exact bytes
//! of every file) or an expected error code. Each host runs every vector and records a
//! canonical outcome; `tests/cross-host.mjs` then checks all hosts recorded identical
//! bytes. Paths in vectors live under a virtual working directory (`/work`); hosts that
//! write real files map it under a temporary directory with [`Rooted`].
//!
//! Two calls are covered, told apart by the vector's `call`: `offloadToolResult`
//! (direct offload of one message, `direct-*.json`) and `offloadToolResults` (batch
//! offload of a conversation, `batch-*.json`). Materialization vectors
//! (`materialize-*.json`) have their own format and interpreter: [`materialize`].

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use tool_offload_core::json::LoneSurrogates;
use tool_offload_core::{
    json, BatchOptions, CreateOutcome, FileReader, FileWriter, IoError, Map, OffloadError, Value,
};

pub mod materialize;

/// Which API a vector exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// `offloadToolResult` / `offload_tool_result`: one message.
    Direct,
    /// `offloadToolResults` / `offload_tool_results`: a whole conversation.
    Batch,
}

/// One conformance case.
#[derive(Debug)]
pub struct Vector {
    /// Unique id: the file name without `.json`, e.g. `direct-string-content` (the key
    /// of recorded outcomes).
    pub id: String,
    /// The name, unique per call (`direct-<name>.json`, `batch-<name>.json`).
    pub name: String,
    /// The API under test.
    pub call: Call,
    /// Virtual absolute working directory.
    pub cwd: String,
    /// The `input` object. Direct: `message`, `sessionId`, `outputDir`, optional
    /// `failOn`. Batch: `messages`, `outputDir`, optional `threshold` and `failOn`.
    pub input: Value,
    /// The `expect` object.
    pub expect: Value,
    /// Stand-ins for the escaped lone surrogates of the file (`"\ud83d"`), which
    /// serde_json cannot hold; empty for most vectors.
    pub lone: LoneSurrogates,
}

/// The repository's `tests/vectors` directory.
pub fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

/// Every direct and batch vector, sorted by file name. Panics on a malformed vector file: vectors are
/// test fixtures and a broken one must stop the test run.
pub fn load_vectors() -> Vec<Vector> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("tests/vectors exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("direct-") || n.starts_with("batch-"))
        })
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no vectors found");
    paths
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path).expect("readable vector");
            let (marked, lone) = LoneSurrogates::mark(&bytes).expect("lone surrogates marked");
            let text = std::str::from_utf8(&marked).expect("UTF-8 vector");
            let v = json::parse(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let field = |k: &str| {
                v.get(k)
                    .cloned()
                    .unwrap_or_else(|| panic!("{}: no {k}", path.display()))
            };
            let call = match field("call").as_str() {
                Some("offloadToolResult") => Call::Direct,
                Some("offloadToolResults") => Call::Batch,
                other => panic!("{}: unknown call {other:?}", path.display()),
            };
            Vector {
                id: path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .expect("utf-8 file name")
                    .to_owned(),
                name: field("name").as_str().expect("name").to_owned(),
                call,
                cwd: field("cwd").as_str().expect("cwd").to_owned(),
                input: field("input"),
                expect: field("expect"),
                lone,
            }
        })
        .collect()
}

impl Vector {
    fn input_str(&self, key: &str) -> &str {
        self.input[key]
            .as_str()
            .unwrap_or_else(|| panic!("{}: input.{key}", self.id))
    }

    /// Run the vector through core (`offload_tool_result` or `offload_tool_results`,
    /// as its `call` says) with `writer`, made to fail on the vector's `failOn` path,
    /// and return the canonical outcome. `written` lists the files present afterwards,
    /// by virtual path.
    ///
    /// Beyond the expected object, the outcome gains a `problems` entry (so it cannot
    /// match) when a directory was created although nothing was written, or when a
    /// batch returned a changed message borrowed or an unchanged one copied.
    pub async fn run<W: FileWriter + FileReader>(
        &self,
        writer: W,
        written: impl FnOnce() -> BTreeMap<String, String>,
    ) -> String {
        let writer = Failing {
            inner: writer,
            fail_on: self
                .input
                .get("failOn")
                .and_then(Value::as_str)
                .map(str::to_owned),
            mkdirs: AtomicUsize::new(0),
        };
        let mut problems = Vec::new();
        let mut out = Map::new();
        match self.call {
            Call::Direct => {
                let (message, session_id) = (&self.input["message"], self.input_str("sessionId"));
                let output_dir = self.input_str("outputDir");
                let result = if self.lone.is_empty() {
                    tool_offload_core::offload_tool_result(
                        message, session_id, output_dir, &self.cwd, &writer,
                    )
                    .await
                } else {
                    let view = self.lone.view(message);
                    tool_offload_core::offload_tool_result_through(
                        message, view, session_id, output_dir, &self.cwd, &writer,
                    )
                    .await
                };
                match result {
                    Ok(done) => {
                        out.insert("message".into(), done.message);
                        out.insert("freedChars".into(), done.freed_chars.into());
                        out.insert("file".into(), done.file.into());
                        out.insert("files".into(), strings(done.files));
                    }
                    Err(err) => self.error(&mut out, &err),
                }
            }
            Call::Batch => {
                let messages = self.input["messages"]
                    .as_array()
                    .unwrap_or_else(|| panic!("{}: input.messages", self.id));
                let mut options = BatchOptions::new(self.input_str("outputDir"), &self.cwd);
                if let Some(t) = self.input.get("threshold") {
                    options.threshold = t.as_u64().expect("threshold") as usize;
                }
                let result = if self.lone.is_empty() {
                    tool_offload_core::offload_tool_results(messages, &options, &writer).await
                } else {
                    let view = |m| self.lone.view(m);
                    tool_offload_core::offload_tool_results_through(
                        messages, view, &options, &writer,
                    )
                    .await
                };
                match result {
                    Ok(done) => {
                        problems.extend(self.identity_problems(messages, &done.messages));
                        let copies = done.messages.into_iter().map(Cow::into_owned).collect();
                        out.insert("messages".into(), Value::Array(copies));
                        out.insert("offloadedCount".into(), done.offloaded_count.into());
                        out.insert("freedChars".into(), done.freed_chars.into());
                        out.insert("files".into(), strings(done.files));
                    }
                    Err(err) => self.error(&mut out, &err),
                }
            }
        }
        let written = written();
        let mkdirs = writer.mkdirs.load(Ordering::SeqCst);
        if mkdirs > 0 && written.is_empty() && !out.contains_key("errorPath") {
            problems.push(format!(
                "{mkdirs} directories created although nothing was written"
            ));
        }
        let written: Map<String, Value> = written
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        out.insert("written".into(), Value::Object(written));
        if !problems.is_empty() {
            out.insert("problems".into(), strings(problems));
        }
        self.lone
            .restore(&json::stringify(&Value::Object(out)))
            .into_owned()
    }

    /// The canonical error fields: code, `errorPath` for `WRITE_FAILED`, and
    /// `errorMentions` when the vector expects the message to name something (the
    /// expected text if the message contains it, else the whole message).
    fn error(&self, out: &mut Map<String, Value>, err: &OffloadError) {
        out.insert("error".into(), err.code().as_str().into());
        if let OffloadError::WriteFailed { path, .. } = err {
            out.insert("errorPath".into(), path.clone().into());
        }
        if let Some(mentions) = self.expect.get("errorMentions").and_then(Value::as_str) {
            let message = err.to_string();
            let got = if message.contains(mentions) {
                mentions.to_owned()
            } else {
                message
            };
            out.insert("errorMentions".into(), got.into());
        }
    }

    /// Unchanged messages must come back borrowed from the input, changed ones as
    /// copies. "Changed" is read off the expected messages.
    fn identity_problems(&self, input: &[Value], got: &[Cow<'_, Value>]) -> Vec<String> {
        let Some(expected) = self.expect.get("messages").and_then(Value::as_array) else {
            return Vec::new();
        };
        let mut problems = Vec::new();
        for (i, (original, result)) in input.iter().zip(got).enumerate() {
            let changed = expected
                .get(i)
                .is_some_and(|e| json::stringify(e) != json::stringify(original));
            match (changed, result) {
                (false, Cow::Borrowed(b)) if std::ptr::eq(*b, original) => {}
                (false, _) => problems.push(format!("messages[{i}] is unchanged but not borrowed")),
                (true, Cow::Borrowed(_)) => {
                    problems.push(format!("messages[{i}] is changed but borrowed"))
                }
                (true, Cow::Owned(_)) => {}
            }
        }
        problems
    }

    /// The expected canonical outcome.
    pub fn expected(&self) -> String {
        self.lone
            .restore(&json::stringify(&self.expect))
            .into_owned()
    }
}

fn strings(items: Vec<String>) -> Value {
    items.into_iter().map(Value::from).collect()
}

/// A writer that fails on one chosen path (a file, or the directory to create), to
/// exercise `WRITE_FAILED`, and counts the directories it was asked to create.
struct Failing<W> {
    inner: W,
    fail_on: Option<String>,
    mkdirs: AtomicUsize,
}

impl<W: FileWriter> FileWriter for Failing<W> {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.mkdirs.fetch_add(1, Ordering::SeqCst);
        if self.fail_on.as_deref() == Some(dir) {
            return Err(IoError::new("injected failure"));
        }
        self.inner.mkdir(dir).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        if self.fail_on.as_deref() == Some(path) {
            return Err(IoError::new("injected failure"));
        }
        self.inner.write_file(path, data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        if self.fail_on.as_deref() == Some(path) {
            return Err(IoError::new("injected failure"));
        }
        self.inner.create_file(path, data).await
    }
}

impl<W: FileReader> FileReader for Failing<W> {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.inner.read_file(path).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.inner.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.inner.size(path).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.inner.read_range(path, start, end).await
    }
}

/// A writer that maps the virtual absolute paths of vectors under a real `root`.
pub struct Rooted<W> {
    /// The real directory standing for `/`.
    pub root: PathBuf,
    /// The writer doing the real work.
    pub inner: W,
}

impl<W> Rooted<W> {
    fn real(&self, path: &str) -> String {
        format!("{}{path}", self.root.display())
    }

    /// Files under the root, by virtual path.
    pub fn written(&self) -> BTreeMap<String, String> {
        let mut found = BTreeMap::new();
        collect(&self.root, &self.root, &mut found);
        found
    }
}

pub(crate) fn collect(root: &Path, dir: &Path, found: &mut BTreeMap<String, String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, found);
        } else {
            let rel = path
                .strip_prefix(root)
                .expect("under root")
                .to_str()
                .expect("utf-8 path");
            found.insert(
                format!("/{rel}"),
                std::fs::read_to_string(&path).expect("utf-8 file"),
            );
        }
    }
}

impl<W: FileWriter> FileWriter for Rooted<W> {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.inner.mkdir(&self.real(dir)).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        self.inner.write_file(&self.real(path), data).await
    }
    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.inner.create_file(&self.real(path), data).await
    }
}

impl<W: FileReader> FileReader for Rooted<W> {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.inner.read_file(&self.real(path)).await
    }
    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.inner.list_dir(&self.real(dir)).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.inner.size(&self.real(path)).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.inner.read_range(&self.real(path), start, end).await
    }
}

/// `target/conformance`, where hosts record their outcomes for `tests/cross-host.mjs`.
pub fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/conformance")
}

/// Record `outcomes` (vector id → canonical outcome) for the cross-host comparison in
/// `target/conformance/<host>.json`.
pub fn record(host: &str, outcomes: &BTreeMap<String, String>) {
    let dir = conformance_dir();
    std::fs::create_dir_all(&dir).expect("create target/conformance");
    let map: Map<String, Value> = outcomes
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    std::fs::write(
        dir.join(format!("{host}.json")),
        json::stringify(&Value::Object(map)),
    )
    .expect("record outcomes");
}
