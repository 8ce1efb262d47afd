//! Shared conformance vectors (`tests/vectors/*.json`) for the native hosts.
//!
//! A vector is input plus expected output (message, counts, paths and the exact bytes
//! of every file) or an expected error code. Each host runs every vector and records a
//! canonical outcome; `tests/cross-host.mjs` then checks all hosts recorded identical
//! bytes. Paths in vectors live under a virtual working directory (`/work`); hosts that
//! write real files map it under a temporary directory with [`Rooted`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tool_offload_core::{json, FileWriter, IoError, Map, OffloadError, Value};

/// One conformance case.
#[derive(Debug)]
pub struct Vector {
    /// Unique name (the file is `direct-<name>.json`).
    pub name: String,
    /// Virtual absolute working directory.
    pub cwd: String,
    /// The `input` object: `message`, `sessionId`, `outputDir`, optional `failOn`.
    pub input: Value,
    /// The `expect` object.
    pub expect: Value,
}

/// The repository's `tests/vectors` directory.
pub fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

/// Every vector, sorted by file name. Panics on a malformed vector file: vectors are
/// test fixtures and a broken one must stop the test run.
pub fn load_vectors() -> Vec<Vector> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("tests/vectors exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no vectors found");
    paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("readable vector");
            let v = json::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let field = |k: &str| {
                v.get(k)
                    .cloned()
                    .unwrap_or_else(|| panic!("{}: no {k}", path.display()))
            };
            Vector {
                name: field("name").as_str().expect("name").to_owned(),
                cwd: field("cwd").as_str().expect("cwd").to_owned(),
                input: field("input"),
                expect: field("expect"),
            }
        })
        .collect()
}

impl Vector {
    fn input_str(&self, key: &str) -> &str {
        self.input[key]
            .as_str()
            .unwrap_or_else(|| panic!("{}: input.{key}", self.name))
    }

    /// Run the vector through core's `offload_tool_result` with `writer` (already wrapped
    /// in [`Failing`] when the vector asks for it) and return the canonical outcome.
    /// `written` lists the files present afterwards, by virtual path.
    pub async fn run<W: FileWriter>(
        &self,
        writer: &W,
        written: impl FnOnce() -> BTreeMap<String, String>,
    ) -> String {
        let result = tool_offload_core::offload_tool_result(
            &self.input["message"],
            self.input_str("sessionId"),
            self.input_str("outputDir"),
            &self.cwd,
            writer,
        )
        .await;
        outcome(result, written())
    }

    /// Wrap `writer` so that writing the vector's `failOn` path fails.
    pub fn failing<W: FileWriter>(&self, writer: W) -> Failing<W> {
        Failing {
            inner: writer,
            fail_on: self
                .input
                .get("failOn")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }

    /// The expected canonical outcome.
    pub fn expected(&self) -> String {
        json::stringify(&self.expect)
    }
}

fn outcome(
    result: Result<tool_offload_core::DirectOffload, OffloadError>,
    written: BTreeMap<String, String>,
) -> String {
    let mut out = Map::new();
    match result {
        Ok(done) => {
            out.insert("message".into(), done.message);
            out.insert("freedChars".into(), done.freed_chars.into());
            out.insert("file".into(), done.file.into());
            out.insert(
                "files".into(),
                done.files.into_iter().map(Value::from).collect(),
            );
        }
        Err(err) => {
            out.insert("error".into(), err.code().as_str().into());
            if let OffloadError::WriteFailed { path, .. } = &err {
                out.insert("errorPath".into(), path.clone().into());
            }
        }
    }
    let written: Map<String, Value> = written
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    out.insert("written".into(), Value::Object(written));
    json::stringify(&Value::Object(out))
}

/// A writer that fails writing one chosen path, to exercise `WRITE_FAILED`.
pub struct Failing<W> {
    inner: W,
    fail_on: Option<String>,
}

impl<W: FileWriter> FileWriter for Failing<W> {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.inner.mkdir(dir).await
    }
    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        if self.fail_on.as_deref() == Some(path) {
            return Err(IoError::new("injected failure"));
        }
        self.inner.write_file(path, data).await
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

fn collect(root: &Path, dir: &Path, found: &mut BTreeMap<String, String>) {
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
}

/// Record `outcomes` (vector name → canonical outcome) for the cross-host comparison in
/// `target/conformance/<host>.json`.
pub fn record(host: &str, outcomes: &BTreeMap<String, String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/conformance");
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
