//! Core's materializer, registry and workspace over any IO ([`HostFs`]): the runner of
//! the `core-native` host (a `MemoryWriter`) and the `object-store` host (an
//! `ObjectStoreIo`), so both run every vector through the same steps.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use tool_offload::MemoryWriter;
use tool_offload_conformance::steps::{
    budget_result, bundle_result, count_words, imported_result, materialized, messages_result,
    offload, read_stats_result, run_workspace_call, workspace_options, Handler, Host, Op, Options,
    RegistryOffload, StepError, Vector, WorkspaceClock,
};
use tool_offload_conformance::Failing;
use tool_offload_core::json::LoneSurrogates;
use tool_offload_core::materialize::{
    compile_pattern, import_conversation, register_read_tools, Materializer, MaterializerOptions,
    ToolOutputRef,
};
use tool_offload_core::tools::{
    self, register_todo_tools, ResultOffload, ResultPolicy, TodoList, ToolDefinition, ToolFormat,
    ToolOutput,
};
use tool_offload_core::workspace::{register_knowledge_tools, Workspace};
use tool_offload_core::FileLifecycle;
use tool_offload_core::{apply_edits, OffloadError, TokenCounter, Value};
use tool_offload_core::{FileReader, FileWriter};

/// The materializers' user data.
const DATA: &str = "/data";

/// A registry's handler, as the core host runs it.
#[derive(Clone)]
enum CoreHandler {
    Declared(Handler),
    TodoWrite,
    TodoRead,
    Read(String),
    Knowledge(String),
}

/// The registry of the last `registry` step, and its result policy.
#[derive(Default)]
struct CoreRegistry {
    tools: tools::ToolRegistry<CoreHandler>,
    offload: Option<RegistryOffload>,
    materialize: bool,
}

/// The IO a [`CoreHost`] runs on, and a snapshot of every file it holds (path → text).
pub trait HostFs: FileWriter + FileReader + FileLifecycle {
    /// Every file, by absolute path.
    fn snapshot(&self) -> BTreeMap<String, String>;
}

impl HostFs for MemoryWriter {
    fn snapshot(&self) -> BTreeMap<String, String> {
        self.files()
    }
}

/// Core with its IO.
pub struct CoreHost<F = MemoryWriter> {
    options: Options,
    cwd: String,
    lone: LoneSurrogates,
    fs: F,
    /// The vector's materializer (its stats span the steps); others are made per step.
    main: std::cell::OnceCell<Materializer>,
    registry: RefCell<CoreRegistry>,
    todos: RefCell<TodoList>,
    problems: RefCell<Vec<String>>,
    /// The vector's workspace, from its last `workspace` step.
    workspace: RefCell<Option<Rc<(Workspace, WorkspaceClock)>>>,
}

impl<F: HostFs> CoreHost<F> {
    /// A host for vector `v` over `fs`.
    pub fn new(v: &Vector, fs: F) -> Self {
        CoreHost {
            options: v.options(),
            cwd: v.cwd().to_owned(),
            lone: v.lone.clone(),
            fs,
            main: std::cell::OnceCell::new(),
            registry: RefCell::default(),
            todos: RefCell::default(),
            problems: RefCell::default(),
            workspace: RefCell::default(),
        }
    }

    fn workspace(&self) -> Rc<(Workspace, WorkspaceClock)> {
        self.workspace
            .borrow()
            .clone()
            .expect("a workspace step comes first")
    }

    fn main(&self) -> Result<&Materializer, OffloadError> {
        if let Some(main) = self.main.get() {
            return Ok(main);
        }
        let main = self.materializer(None)?;
        Ok(self.main.get_or_init(|| main))
    }

    fn materializer(&self, user_data: Option<&str>) -> Result<Materializer, OffloadError> {
        let o = &self.options;
        Materializer::new(MaterializerOptions {
            cwd: "/".into(),
            ..o.materializer_options(under(DATA, user_data))
        })
    }

    async fn execute(
        &self,
        tool_use_id: &str,
        name: &str,
        params: &Value,
    ) -> Result<Value, StepError> {
        // Out of its cell while it runs (a handler never re-enters it here).
        let registry = self.registry.take();
        let finished = self.run_tool(&registry, tool_use_id, name, params).await;
        *self.registry.borrow_mut() = registry;
        finished
    }

    async fn run_tool(
        &self,
        registry: &CoreRegistry,
        tool_use_id: &str,
        name: &str,
        params: &Value,
    ) -> Result<Value, StepError> {
        let materializer = self.main()?;
        let result = registry
            .tools
            .execute(tool_use_id, name, |handler| {
                let handler = handler.clone();
                async move {
                    match handler {
                        CoreHandler::Declared(declared) => declared
                            .call(params)
                            .map(|(content, is_error)| ToolOutput { content, is_error }),
                        CoreHandler::TodoWrite => Ok(self.todos.borrow_mut().write(&params)),
                        CoreHandler::TodoRead => Ok(self.todos.borrow().read()),
                        CoreHandler::Read(tool) => {
                            Ok(materializer.run_read_tool(&tool, params, &self.fs).await)
                        }
                        CoreHandler::Knowledge(tool) => {
                            let ws = self.workspace();
                            Ok(ws.0.run_knowledge_tool(&tool, params, &self.fs).await)
                        }
                    }
                }
            })
            .await;
        let passthrough = registry.tools.is_passthrough(name);
        let finished = match (&registry.offload, registry.materialize) {
            (Some(o), _) => {
                let writer = Failing::new(&self.fs, o.fail_on.clone());
                let policy: ResultPolicy<_, (&Materializer, &F)> =
                    ResultPolicy::Offload(result_offload(o, &self.cwd), &writer);
                policy.apply(result, name, passthrough).await?
            }
            (None, true) => {
                let policy: ResultPolicy<&F, _> =
                    ResultPolicy::Materialize((materializer, &self.fs));
                policy.apply(result, name, passthrough).await?
            }
            (None, false) => {
                let policy: ResultPolicy<&F, (&Materializer, &F)> = ResultPolicy::Inline;
                policy.apply(result, name, passthrough).await?
            }
        };
        Ok(finished.result.to_value())
    }
}

/// `stats()` in canonical form: `{ hits, inlined, savedChars }`.
fn stats(stats: &tool_offload_core::materialize::MaterializeStats) -> Value {
    serde_json::json!({"hits": stats.hits, "inlined": stats.inlined, "savedChars": stats.saved_chars})
}

fn result_offload(o: &RegistryOffload, cwd: &str) -> ResultOffload {
    let mut offload = ResultOffload::new(o.output_dir.clone(), o.session_id.clone(), cwd);
    if let Some(threshold) = o.threshold_chars {
        offload.threshold_chars = threshold;
    }
    offload
}

fn under(root: &str, user_data: Option<&str>) -> String {
    match user_data {
        Some(sub) => format!("{root}/{sub}"),
        None => root.to_owned(),
    }
}

/// A vector's tool definition, in Rust terms.
fn definition(value: &Value) -> ToolDefinition {
    ToolDefinition::new(
        value["name"].as_str().expect("definition.name"),
        value["description"].as_str().unwrap_or_default(),
        value["input_schema"].clone(),
    )
}

impl<F: HostFs> Host for CoreHost<F> {
    async fn run(&self, op: &Op) -> Result<Value, StepError> {
        let fs = &self.fs;
        Ok(match op {
            Op::Materialize {
                tool_call_id,
                tool_name,
                server_name,
                output,
                written,
            } => {
                let (text, was_value) = tool_offload_core::materialize::output_text(written);
                let out = ToolOutputRef {
                    tool_call_id,
                    tool_name,
                    server_name: server_name.as_deref(),
                    text: &text,
                    was_value,
                };
                let words = |text: &str| Ok(count_words(text));
                let count: Option<&TokenCounter<'_>> = self.options.count_words.then_some(&words);
                let done = self
                    .main()?
                    .materialize_counted(&out, None, count, fs)
                    .await?;
                materialized(&done, output, DATA)
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
                materialized(&done, &Value::String(text.clone()), DATA)
            }
            Op::Read {
                reference,
                path,
                offset,
                within,
                limit,
                user_data,
            } => {
                let m = self.materializer(user_data.as_deref())?;
                let page = match path {
                    Some(path) => {
                        m.read_json(reference, path, *offset, *within, *limit, fs)
                            .await?
                    }
                    None => m.read_from(reference, *offset, *within, *limit, fs).await?,
                };
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
                let page = match reference {
                    Some(r) => {
                        materializer
                            .grep(r, &pattern, *context, *max_matches, fs)
                            .await?
                    }
                    None => {
                        materializer
                            .grep_all(&pattern, *context, *max_matches, fs)
                            .await?
                    }
                };
                Value::String(page)
            }
            Op::Messages {
                messages,
                remind_unread,
            } => {
                let views: Vec<&Value> = messages.iter().collect();
                let words = |text: &str| Ok(count_words(text));
                let count: Option<&TokenCounter<'_>> = self.options.count_words.then_some(&words);
                let done = self
                    .materializer(None)?
                    .materialize_messages_counted(&views, count, fs)
                    .await?;
                let mut out = messages.clone();
                for (index, edits) in done.changed {
                    apply_edits(&mut out[index], edits);
                }
                if *remind_unread {
                    tool_offload_core::audit::remind_unread(&mut out);
                }
                messages_result(out, &done.refs, &done.paths, &done.unrecognized, DATA)
            }
            Op::ReadStats { messages } => {
                let views: Vec<&Value> = messages.iter().collect();
                read_stats_result(&tool_offload_core::audit::read_stats(&views))
            }
            Op::UnreadRefs { messages } => {
                let views: Vec<&Value> = messages.iter().collect();
                Value::from(tool_offload_core::audit::unread_refs(&views))
            }
            Op::Budget { messages, options } => {
                let views: Vec<&Value> = messages.iter().collect();
                let tokens: Vec<usize> = messages
                    .iter()
                    .map(|m| {
                        tool_offload_core::estimate_tokens(&tool_offload_core::json::stringify(m))
                    })
                    .collect();
                let done = self
                    .materializer(None)?
                    .budget(&views, &tokens, options, fs)
                    .await?;
                let mut out = messages.clone();
                for (index, edits) in done.changed {
                    apply_edits(&mut out[index], edits);
                }
                budget_result(
                    out,
                    &done.cleared,
                    done.rewritten_from_message,
                    &done.stored,
                    DATA,
                )
            }
            Op::Export { messages } => {
                let bundle = self
                    .materializer(None)?
                    .export_conversation(&Value::Array(messages.clone()), fs)
                    .await?;
                bundle_result(&bundle)
            }
            Op::Import { bundle, user_data } => {
                let target = under(DATA, user_data.as_deref());
                let done = import_conversation(bundle, &target, "/", fs).await?;
                imported_result(&done.conversation_id, done.messages, &done.paths, DATA)
            }
            Op::OffloadToolResult { .. } | Op::OffloadToolResults { .. } => {
                let mut problems = Vec::new();
                let empty = || fs.snapshot().is_empty();
                let result = offload(op, fs, &self.cwd, &self.lone, empty, &mut problems).await;
                self.problems.borrow_mut().extend(problems);
                result?
            }
            Op::Stats => stats(&self.main()?.stats()),
            Op::Registry {
                offload,
                materialize,
            } => {
                if let Some(o) = offload {
                    result_offload(o, &self.cwd).validate()?;
                }
                *self.registry.borrow_mut() = CoreRegistry {
                    offload: offload.clone(),
                    materialize: *materialize,
                    ..CoreRegistry::default()
                };
                Value::Null
            }
            Op::Register {
                definition: d,
                handler,
            } => {
                let tools = &mut self.registry.borrow_mut().tools;
                tools.register(definition(d), CoreHandler::Declared(handler.clone()))?;
                Value::Null
            }
            Op::RegisterTodoTools => {
                let tools = &mut self.registry.borrow_mut().tools;
                register_todo_tools(tools, CoreHandler::TodoWrite, CoreHandler::TodoRead)?;
                Value::Null
            }
            Op::RegisterReadTools => {
                let tools = &mut self.registry.borrow_mut().tools;
                register_read_tools(tools, |name| CoreHandler::Read(name.to_owned()))?;
                Value::Null
            }
            Op::Definitions { format } => {
                let format = format
                    .as_deref()
                    .map_or(Ok(ToolFormat::default()), ToolFormat::parse)?;
                let registry = self.registry.borrow();
                registry
                    .tools
                    .definitions()
                    .map(|d| d.to_format(format))
                    .collect()
            }
            Op::Execute {
                tool_use_id,
                name,
                params,
            } => self.execute(tool_use_id, name, params).await?,
            Op::Workspace(step) => {
                let (options, clock) = workspace_options(step, DATA);
                *self.workspace.borrow_mut() = Some(Rc::new((Workspace::new(options)?, clock)));
                Value::Null
            }
            Op::Ws(step) => {
                let ws = self.workspace();
                run_workspace_call(&ws.0, &ws.1, step, fs, DATA).await?
            }
            Op::RegisterKnowledgeTools => {
                let tools = &mut self.registry.borrow_mut().tools;
                register_knowledge_tools(tools, |name| CoreHandler::Knowledge(name.to_owned()))?;
                Value::Null
            }
        })
    }

    fn files(&self) -> BTreeMap<String, String> {
        self.fs.snapshot()
    }

    fn problems(&self) -> Vec<String> {
        self.problems.take()
    }
}
