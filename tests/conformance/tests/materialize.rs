//! Every materialization vector (`tests/vectors/materialize-*.json`) through core (in
//! memory) and through the tokio host (real files in a temporary
//! directory). Outcomes are recorded in `target/conformance/materialize-<host>.json`
//! for `tests/cross-host.mjs`.
//!
//! Bless mode (`TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test
//! materialize`) fills in the `$core` texts (summaries, pages) of the vectors from core
//! in memory, refusing when any other fact differs; then rerun
//! `node tests/vectors/generate-materialize.mjs` (see its header).

use std::collections::BTreeMap;
use std::path::PathBuf;

use tool_offload::{
    import_conversation, GrepOptions, Materializer as TokioMaterializer,
    MaterializerOptions as TokioOptions, MemoryWriter, ToolOutput,
};
use tool_offload_conformance::materialize::{
    self as m, bundle_result, files_under, imported_result, materialized, messages_result, Host,
    Op, Options, Vector,
};
use tool_offload_conformance::record;
use tool_offload_core::materialize::{
    compile_pattern, import_conversation as core_import, Materializer, MaterializerOptions,
    ToolOutputRef,
};
use tool_offload_core::{apply_edits, json, OffloadError, Value};

/// Core with an in-memory file system rooted at `/data`.
struct CoreHost {
    options: Options,
    fs: MemoryWriter,
}

const ROOT: &str = "/data";

impl CoreHost {
    fn materializer(&self, user_data: Option<&str>) -> Result<Materializer, OffloadError> {
        let o = &self.options;
        Materializer::new(MaterializerOptions {
            user_data: under(ROOT, user_data),
            conversation_id: o.conversation_id.clone(),
            cwd: "/".into(),
            max_inline_chars: o.max_inline_chars,
            max_inline_bytes: o.max_inline_bytes,
            snippet_lines: o.snippet_lines,
            snippet_bytes: o.snippet_bytes,
        })
    }
}

fn under(root: &str, user_data: Option<&str>) -> String {
    match user_data {
        Some(sub) => format!("{root}/{sub}"),
        None => root.to_owned(),
    }
}

impl Host for CoreHost {
    async fn run(&self, op: &Op) -> Result<Value, OffloadError> {
        let fs = &self.fs;
        Ok(match op {
            Op::Materialize {
                tool_call_id,
                tool_name,
                server_name,
                output,
                written,
            } => {
                let (text, was_value) = match written {
                    Value::String(s) => (s.clone(), false),
                    other => (json::stringify(other), true),
                };
                let out = ToolOutputRef {
                    tool_call_id,
                    tool_name,
                    server_name: server_name.as_deref(),
                    text: &text,
                    was_value,
                };
                let done = self.materializer(None)?.materialize(&out, fs).await?;
                materialized(&done, output, ROOT)
            }
            Op::Terminal {
                snippet_id,
                text,
                written,
            } => {
                let done = self
                    .materializer(None)?
                    .materialize_terminal(snippet_id, written, fs)
                    .await?;
                materialized(&done, &Value::String(text.clone()), ROOT)
            }
            Op::Read {
                reference,
                offset,
                part,
                limit,
                user_data,
            } => {
                let page = self
                    .materializer(user_data.as_deref())?
                    .read_from(reference, *offset, *part, *limit, fs)
                    .await?;
                Value::String(page)
            }
            Op::Tail {
                reference,
                lines,
                user_data,
            } => {
                let page = self
                    .materializer(user_data.as_deref())?
                    .tail(reference, *lines, fs)
                    .await?;
                Value::String(page)
            }
            Op::Grep {
                reference,
                pattern,
                context,
                max_matches,
                ignore_case,
                user_data,
            } => {
                let materializer = self.materializer(user_data.as_deref())?;
                let pattern = compile_pattern(pattern, *ignore_case)?;
                let page = materializer
                    .grep(reference, &pattern, *context, *max_matches, fs)
                    .await?;
                Value::String(page)
            }
            Op::Messages { messages } => {
                let views: Vec<&Value> = messages.iter().collect();
                let done = self
                    .materializer(None)?
                    .materialize_messages(&views, fs)
                    .await?;
                let mut out = messages.clone();
                for (index, edits) in done.changed {
                    apply_edits(&mut out[index], edits);
                }
                messages_result(out, &done.refs, &done.paths, ROOT)
            }
            Op::Export { messages } => {
                let bundle = self
                    .materializer(None)?
                    .export_conversation(&Value::Array(messages.clone()), fs)
                    .await?;
                bundle_result(&bundle)
            }
            Op::Import { bundle, user_data } => {
                let done = core_import(bundle, &under(ROOT, user_data.as_deref()), "/", fs).await?;
                imported_result(&done.conversation_id, done.messages, &done.paths, ROOT)
            }
        })
    }

    fn files(&self) -> BTreeMap<String, String> {
        self.fs
            .files()
            .into_iter()
            .map(|(k, v)| (m::relative(&k, ROOT), v))
            .collect()
    }
}

/// The tokio host on real files under a temporary directory.
struct TokioHost {
    options: Options,
    root: PathBuf,
    main: TokioMaterializer,
}

impl TokioHost {
    fn new(options: Options, root: PathBuf) -> Self {
        let main = Self::make(&options, &root, None).expect("materializer");
        TokioHost {
            options,
            root,
            main,
        }
    }

    fn make(
        o: &Options,
        root: &std::path::Path,
        user_data: Option<&str>,
    ) -> Result<TokioMaterializer, OffloadError> {
        let mut options = TokioOptions::new(
            user_data.map_or_else(|| root.to_owned(), |sub| root.join(sub)),
            o.conversation_id.clone(),
        );
        options.max_inline_chars = o.max_inline_chars;
        options.max_inline_bytes = o.max_inline_bytes;
        options.snippet_lines = o.snippet_lines;
        options.snippet_bytes = o.snippet_bytes;
        TokioMaterializer::new(options)
    }

    fn root(&self) -> String {
        self.root
            .to_str()
            .expect("utf-8 temporary directory")
            .to_owned()
    }

    /// The main materializer, or another one for `user_data`.
    fn with(&self, user_data: &Option<String>) -> Result<Option<TokioMaterializer>, OffloadError> {
        user_data
            .as_deref()
            .map(|sub| Self::make(&self.options, &self.root, Some(sub)))
            .transpose()
    }
}

impl Host for TokioHost {
    async fn run(&self, op: &Op) -> Result<Value, OffloadError> {
        let root = self.root();
        Ok(match op {
            Op::Materialize {
                tool_call_id,
                tool_name,
                server_name,
                output,
                written,
            } => {
                let out = ToolOutput {
                    tool_call_id,
                    tool_name,
                    server_name: server_name.as_deref(),
                    output: written,
                };
                materialized(&self.main.materialize(&out).await?, output, &root)
            }
            Op::Terminal {
                snippet_id,
                text,
                written,
            } => {
                let done = self.main.materialize_terminal(snippet_id, written).await?;
                materialized(&done, &Value::String(text.clone()), &root)
            }
            Op::Read {
                reference,
                offset,
                part,
                limit,
                user_data,
            } => {
                let other = self.with(user_data)?;
                let page = other
                    .as_ref()
                    .unwrap_or(&self.main)
                    .read_from(reference, *offset, *part, *limit)
                    .await?;
                Value::String(page)
            }
            Op::Tail {
                reference,
                lines,
                user_data,
            } => {
                let other = self.with(user_data)?;
                let page = other
                    .as_ref()
                    .unwrap_or(&self.main)
                    .tail(reference, *lines)
                    .await?;
                Value::String(page)
            }
            Op::Grep {
                reference,
                pattern,
                context,
                max_matches,
                ignore_case,
                user_data,
            } => {
                let other = self.with(user_data)?;
                let options = GrepOptions {
                    context: *context,
                    max_matches: *max_matches,
                    ignore_case: *ignore_case,
                };
                let page = other
                    .as_ref()
                    .unwrap_or(&self.main)
                    .grep(reference, pattern, options)
                    .await?;
                Value::String(page)
            }
            Op::Messages { messages } => {
                let done = self.main.materialize_messages(messages).await?;
                let out = done.messages.into_iter().map(|m| m.into_owned()).collect();
                messages_result(out, &done.refs, &done.paths, &root)
            }
            Op::Export { messages } => {
                bundle_result(&self.main.export_conversation(messages).await?)
            }
            Op::Import { bundle, user_data } => {
                let target = user_data
                    .as_deref()
                    .map_or_else(|| self.root.clone(), |sub| self.root.join(sub));
                let done = import_conversation(bundle, target).await?;
                imported_result(&done.conversation_id, done.messages, &done.paths, &root)
            }
        })
    }

    fn files(&self) -> BTreeMap<String, String> {
        files_under(&self.root)
    }
}

fn check(host: &str, vectors: &[Vector], outcomes: &BTreeMap<String, (String, Vec<Value>)>) {
    let mut failures = Vec::new();
    let mut pending = Vec::new();
    for v in vectors {
        let (got, actual) = &outcomes[&v.id];
        match v.expected(actual) {
            None => pending.push(v.id.clone()),
            Some(want) if want != *got => {
                failures.push(format!("{}: {}", v.id, m::first_difference(&want, got)))
            }
            Some(_) => {}
        }
    }
    let recorded: BTreeMap<String, String> = outcomes
        .iter()
        .map(|(k, (outcome, _))| (k.clone(), outcome.clone()))
        .collect();
    record(&format!("materialize-{host}"), &recorded);
    assert!(
        pending.is_empty(),
        "{host}: core texts not blessed in {pending:?}: run TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test materialize"
    );
    assert!(
        failures.is_empty(),
        "{host}: {} of {} materialize vectors differ:\n{}",
        failures.len(),
        vectors.len(),
        failures.join("\n")
    );
}

#[test]
fn core_in_memory_passes_every_materialize_vector() {
    let vectors = m::load();
    let bless = std::env::var_os(m::BLESS).is_some_and(|v| v == "1");
    let mut outcomes = BTreeMap::new();
    let mut refused = Vec::new();
    for v in &vectors {
        let host = CoreHost {
            options: v.options(),
            fs: MemoryWriter::new(),
        };
        let (outcome, actual) = futures_executor::block_on(m::run(v, &host));
        if bless {
            refused.extend(v.bless(&actual, &outcome).err());
        }
        outcomes.insert(v.id.clone(), (outcome, actual));
    }
    if bless {
        assert!(refused.is_empty(), "{}", refused.join("\n"));
        eprintln!(
            "blessed {} vectors: now run node tests/vectors/generate-materialize.mjs",
            vectors.len()
        );
        return;
    }
    check("core-native", &vectors, &outcomes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokio_host_on_real_files_passes_every_materialize_vector() {
    if std::env::var_os(m::BLESS).is_some() {
        return;
    }
    let vectors = m::load();
    let mut outcomes = BTreeMap::new();
    for v in &vectors {
        let tmp = tempfile::tempdir().unwrap();
        let host = TokioHost::new(v.options(), tmp.path().to_owned());
        let result = m::run(v, &host).await;
        outcomes.insert(v.id.clone(), result);
    }
    check("tokio", &vectors, &outcomes);
}
