//! Every vector through the tokio host on real files under a temporary directory
//! standing for `/`: the `tokio` host. Outcomes are recorded in
//! `target/conformance/tokio.json` for `tests/cross-host.mjs`. The workspace vectors
//! run again with the PostgreSQL index (a throwaway cluster) instead of SQLite, and must
//! give the same outcomes (`target/conformance/postgres.json`).

#[path = "../../../host-tokio/tests/pg/cluster.rs"]
mod cluster;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tool_offload::tools::{ToolDefinition, ToolFormat, ToolOutput};
use tool_offload::{
    import_conversation, register_todo_tools, GrepOptions, MaterializeMessagesOptions,
    Materializer, PostgresIndex, ResultOffload, TokioFileWriter,
    ToolOutputInput as MaterializeInput, ToolRegistry, Workspace, WorkspaceOptions,
};
use tool_offload_conformance::steps::{
    self as s, budget_result, bundle_result, count_words, files_under, imported_result,
    materialized, messages_result, offload, read_stats_result, run_workspace_call,
    workspace_options, Host, Op, Options, StepError, Vector, WorkspaceClock,
};
use tool_offload_conformance::{Failing, Rooted};
use tool_offload_core::json::LoneSurrogates;
use tool_offload_core::{FileWriter, OffloadError, Value};

/// The registry of the last `registry` step: with an offload writer or without.
enum Registry {
    Plain(ToolRegistry),
    Offload(ToolRegistry<Failing<Rooted<TokioFileWriter>>>),
}

/// The tokio host on real files under a temporary directory standing for `/`.
struct TokioHost {
    options: Options,
    cwd: String,
    lone: LoneSurrogates,
    root: PathBuf,
    main: Arc<Materializer>,
    registry: Mutex<Option<Registry>>,
    problems: Mutex<Vec<String>>,
    /// The vector's workspace (with its SQLite index), from its last `workspace` step.
    workspace: Mutex<Option<Arc<(Workspace, WorkspaceClock)>>>,
    /// With a PostgreSQL index instead of SQLite: the connection and the vector's id,
    /// which keys its namespaces apart from other vectors'.
    postgres: Option<(PostgresIndex, String)>,
}

impl TokioHost {
    fn new(v: &Vector, root: PathBuf) -> Self {
        let options = v.options();
        let main = Arc::new(Self::make(&options, &root, None).expect("materializer"));
        TokioHost {
            options,
            cwd: v.cwd().to_owned(),
            lone: v.lone.clone(),
            root,
            main,
            registry: Mutex::new(None),
            problems: Mutex::default(),
            workspace: Mutex::default(),
            postgres: None,
        }
    }

    /// A workspace over `options`: with its SQLite index, or the PostgreSQL one.
    fn open(&self, options: WorkspaceOptions) -> Result<Workspace, OffloadError> {
        let Some((index, vector)) = &self.postgres else {
            return Workspace::new(options);
        };
        let namespace = index.namespace(&format!("{vector}/{}", options.namespace));
        Ok(Workspace::with_io(options, TokioFileWriter::new())?.with_index(Arc::new(namespace)))
    }

    fn workspace(&self) -> Arc<(Workspace, WorkspaceClock)> {
        let ws = self.workspace.lock().unwrap().clone();
        ws.expect("a workspace step comes first")
    }

    /// The tokio `Workspace` of a `workspace` step, under `/data`.
    fn new_workspace(&self, step: &Value) -> Result<(Workspace, WorkspaceClock), OffloadError> {
        let (core, clock) = workspace_options(step, &self.data_dir());
        Ok((self.open(core)?, clock))
    }

    /// The materializers' user data: `/data`, or `/data/<sub>`.
    fn data(root: &std::path::Path, user_data: Option<&str>) -> PathBuf {
        let data = root.join("data");
        user_data.map_or_else(|| data.clone(), |sub| data.join(sub))
    }

    fn make(
        o: &Options,
        root: &std::path::Path,
        user_data: Option<&str>,
    ) -> Result<Materializer, OffloadError> {
        let data = Self::data(root, user_data);
        let mut options = o.materializer_options(data.to_str().expect("utf-8 temporary directory"));
        // The vector's virtual absolute path, under this run's root.
        options.offload_dir = o.core.offload_dir.as_ref().map(|dir| {
            let dir = root.join(dir.trim_start_matches('/'));
            dir.to_str().expect("utf-8 temporary directory").to_owned()
        });
        let materializer = Materializer::new(options)?;
        Ok(match o.count_words {
            true => materializer.with_token_counter(std::sync::Arc::new(count_words)),
            false => materializer,
        })
    }

    fn data_dir(&self) -> String {
        Self::data(&self.root, None)
            .to_str()
            .expect("utf-8 temporary directory")
            .to_owned()
    }

    /// The main materializer, or another one for `user_data`.
    fn with(&self, user_data: &Option<String>) -> Result<Option<Materializer>, OffloadError> {
        user_data
            .as_deref()
            .map(|sub| Self::make(&self.options, &self.root, Some(sub)))
            .transpose()
    }

    fn rooted(&self) -> Rooted<TokioFileWriter> {
        Rooted {
            root: self.root.clone(),
            inner: TokioFileWriter::new(),
        }
    }

    fn take_registry(&self) -> Registry {
        let taken = self.registry.lock().unwrap().take();
        taken.unwrap_or_else(|| Registry::Plain(ToolRegistry::new()))
    }

    fn put_registry(&self, registry: Registry) {
        *self.registry.lock().unwrap() = Some(registry);
    }

    fn new_registry(
        &self,
        offload: &Option<s::RegistryOffload>,
        materialize: bool,
    ) -> Result<Registry, OffloadError> {
        Ok(match (offload, materialize) {
            (Some(o), _) => {
                let mut options = ResultOffload::at(&o.output_dir, &o.session_id);
                if let Some(threshold) = o.threshold_chars {
                    options.threshold_chars = threshold;
                }
                let writer = Failing::new(self.rooted(), o.fail_on.clone());
                Registry::Offload(ToolRegistry::with_offload_writer(options, writer)?)
            }
            (None, true) => Registry::Plain(ToolRegistry::with_materializer(self.main.clone())),
            (None, false) => Registry::Plain(ToolRegistry::new()),
        })
    }

    async fn registry_op(&self, op: &Op) -> Result<Value, StepError> {
        let mut registry = self.take_registry();
        let ws = self.workspace.lock().unwrap().clone();
        let result = match &mut registry {
            Registry::Plain(r) => on_registry(r, self, ws, op).await,
            Registry::Offload(r) => on_registry(r, self, ws, op).await,
        };
        self.put_registry(registry);
        result
    }
}

/// A registry step on `registry`.
async fn on_registry<W: FileWriter + Send + Sync>(
    registry: &mut ToolRegistry<W>,
    host: &TokioHost,
    workspace: Option<Arc<(Workspace, WorkspaceClock)>>,
    op: &Op,
) -> Result<Value, StepError> {
    Ok(match op {
        Op::Register {
            definition,
            handler,
        } => {
            let d = ToolDefinition::new(
                definition["name"].as_str().expect("definition.name"),
                definition["description"].as_str().unwrap_or_default(),
                definition["input_schema"].clone(),
            );
            let handler = handler.clone();
            registry.register(d, move |params| {
                let handler = handler.clone();
                async move {
                    handler
                        .call(&params)
                        .map(|(content, is_error)| ToolOutput { content, is_error })
                        .map_err(Into::into)
                }
            })?;
            Value::Null
        }
        Op::RegisterTodoTools => {
            register_todo_tools(registry)?;
            Value::Null
        }
        Op::RegisterReadTools => {
            host.main.register_tools(registry)?;
            Value::Null
        }
        Op::RegisterKnowledgeTools => {
            let ws = workspace.expect("a workspace step comes first");
            // The registry holds an `Arc<Workspace>`: one more over the same namespace.
            let options = ws.0.core().options().clone();
            Arc::new(host.open(options)?).register_tools(registry)?;
            Value::Null
        }
        Op::Definitions { format } => {
            let format = format
                .as_deref()
                .map_or(Ok(ToolFormat::default()), ToolFormat::parse)?;
            Value::Array(registry.get_tool_definitions_as(format))
        }
        Op::Execute {
            tool_use_id,
            name,
            params,
        } => registry
            .execute_tool(tool_use_id, name, params.clone())
            .await?
            .to_value(),
        _ => panic!("not a registry step"),
    })
}

impl Host for TokioHost {
    async fn run(&self, op: &Op) -> Result<Value, StepError> {
        let root = self.root.to_str().expect("utf-8 temporary directory");
        self.step(op).await.map_err(|e| e.unrooted(root))
    }

    fn files(&self) -> BTreeMap<String, String> {
        files_under(&self.root)
    }

    fn problems(&self) -> Vec<String> {
        std::mem::take(&mut self.problems.lock().unwrap())
    }
}

impl TokioHost {
    async fn step(&self, op: &Op) -> Result<Value, StepError> {
        let data = self.data_dir();
        Ok(match op {
            Op::Materialize {
                tool_call_id,
                tool_name,
                server_name,
                output,
                written,
            } => {
                let out = MaterializeInput {
                    tool_call_id,
                    tool_name,
                    server_name: server_name.as_deref(),
                    output: written,
                };
                materialized(&self.main.materialize(&out).await?, output, &data)
            }
            Op::Terminal {
                snippet_id,
                text,
                written,
            } => {
                let done = self.main.materialize_terminal(snippet_id, written).await?;
                materialized(&done, &Value::String(text.clone()), &data)
            }
            Op::Read {
                reference,
                path,
                offset,
                within,
                limit,
                user_data,
            } => {
                let other = self.with(user_data)?;
                let m = other.as_ref().unwrap_or(&self.main);
                let page = match path {
                    Some(path) => {
                        m.read_json(reference, path, *offset, *within, *limit)
                            .await?
                    }
                    None => m.read_from(reference, *offset, *within, *limit).await?,
                };
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
                let m = other.as_ref().unwrap_or(&self.main);
                let page = match reference {
                    Some(r) => m.grep(r, pattern, options).await?,
                    None => m.grep_all(pattern, options).await?,
                };
                Value::String(page)
            }
            Op::Messages {
                messages,
                remind_unread,
            } => {
                let mut options = MaterializeMessagesOptions::default();
                options.remind_unread = *remind_unread;
                let done = self
                    .main
                    .materialize_messages_with(messages, &options)
                    .await?;
                let out = done.messages.into_iter().map(|m| m.into_owned()).collect();
                messages_result(out, &done.refs, &done.paths, &done.unrecognized, &data)
            }
            Op::ReadStats { messages } => read_stats_result(&self.main.read_stats(messages)),
            Op::UnreadRefs { messages } => Value::from(self.main.unread_refs(messages)),
            Op::Budget { messages, options } => {
                let done = self.main.budget(messages, options).await?;
                let out = done.messages.into_iter().map(|m| m.into_owned()).collect();
                budget_result(
                    out,
                    &done.cleared,
                    done.rewritten_from_message,
                    &done.stored,
                    &data,
                )
            }
            Op::Export { messages } => {
                bundle_result(&self.main.export_conversation(messages).await?)
            }
            Op::Import { bundle, user_data } => {
                let target = Self::data(&self.root, user_data.as_deref());
                let done = import_conversation(bundle, target).await?;
                imported_result(&done.conversation_id, done.messages, &done.paths, &data)
            }
            Op::OffloadToolResult { .. } | Op::OffloadToolResults { .. } => {
                let mut problems = Vec::new();
                let empty = || files_under(&self.root).is_empty();
                let result = offload(
                    op,
                    self.rooted(),
                    &self.cwd,
                    &self.lone,
                    empty,
                    &mut problems,
                )
                .await;
                self.problems.lock().unwrap().extend(problems);
                result?
            }
            Op::Stats => {
                let stats = self.main.stats();
                serde_json::json!({"hits": stats.hits, "inlined": stats.inlined, "savedChars": stats.saved_chars})
            }
            Op::Registry {
                offload,
                materialize,
            } => {
                let registry = self.new_registry(offload, *materialize)?;
                self.put_registry(registry);
                Value::Null
            }
            Op::Workspace(step) => {
                let ws = self.new_workspace(step)?;
                *self.workspace.lock().unwrap() = Some(Arc::new(ws));
                Value::Null
            }
            Op::Ws(step) => {
                let ws = self.workspace();
                run_workspace_call(ws.0.core(), &ws.1, step, ws.0.io(), &data).await?
            }
            _ => self.registry_op(op).await?,
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokio_host_on_real_files_passes_every_vector() {
    if std::env::var_os(s::BLESS).is_some() {
        return;
    }
    let vectors = s::load();
    let mut outcomes = s::Outcomes::new();
    for v in &vectors {
        let tmp = tempfile::tempdir().unwrap();
        let host = TokioHost::new(v, tmp.path().to_owned());
        let result = s::run(v, &host).await;
        outcomes.insert(v.id.clone(), result);
    }
    s::check("tokio", &vectors, &outcomes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_index_gives_every_workspace_vector_the_same_outcome() {
    if std::env::var_os(s::BLESS).is_some() {
        return;
    }
    let cluster = cluster::Cluster::start();
    let index = PostgresIndex::connect(&cluster.config(), "")
        .await
        .expect("connect to the test cluster");
    let vectors: Vec<Vector> = s::load()
        .into_iter()
        .filter(|v| v.id.starts_with("workspace-"))
        .collect();
    assert!(vectors.len() >= 7, "the workspace vectors");
    let mut outcomes = s::Outcomes::new();
    for v in &vectors {
        let tmp = tempfile::tempdir().unwrap();
        let mut host = TokioHost::new(v, tmp.path().to_owned());
        host.postgres = Some((index.namespace(""), v.id.clone()));
        let result = s::run(v, &host).await;
        outcomes.insert(v.id.clone(), result);
    }
    s::check("postgres", &vectors, &outcomes);
    let queried = index.namespace("workspace-query/default");
    let indexed = tool_offload::RecordIndex::ids(&queried).await.unwrap();
    assert!(!indexed.is_empty(), "the queries went through PostgreSQL");
}
