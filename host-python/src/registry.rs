//! `tool_offload.ToolRegistry`'s native half: the tokio host's registry with Python
//! handlers (called back under the GIL), TodoWrite/TodoRead, and the read and knowledge
//! tools of a materializer or workspace.

use std::sync::{Arc, RwLock};

#[cfg(feature = "object-store")]
use tool_offload::{Materializer, ObjectStoreIo};

use pyo3::prelude::*;
use tool_offload::{register_todo_tools, OffloadError, ResultOffload, ToolRegistry, Value};

use crate::bridge::{invalid, parse, py_err, raise, to_json};
use crate::core_paths::{RegisterError, ToolDefinition, ToolFormat, ToolOutput};
use crate::materializer::{Mat, NativeMaterializer};
use crate::open_workspace::Ws;
use crate::options;
use crate::storage::Location;
#[cfg(feature = "object-store")]
use crate::store_tools;
use crate::workspace::NativeWorkspace;
use crate::writer::Writer;

/// The registry: results as they are, materialized, or offloaded through a writer.
enum Registry {
    /// Results as they are.
    Plain(ToolRegistry),
    /// Materialized by a materializer on files (host-tokio's registry does it).
    Files(ToolRegistry),
    Offload(ToolRegistry<Writer>),
    /// Materialized into an object store: the registry runs the tool with no policy,
    /// `store_tools::materialized` applies it, the passthrough tools' names kept here.
    #[cfg(feature = "object-store")]
    Stored(ToolRegistry, Arc<Materializer<ObjectStoreIo>>, Vec<String>),
}

/// Run `$body` with `$r` bound to the registry, whichever its writer.
macro_rules! on {
    ($registry:expr, $r:ident => $body:expr) => {
        match $registry {
            Registry::Plain($r) | Registry::Files($r) => $body,
            Registry::Offload($r) => $body,
            #[cfg(feature = "object-store")]
            Registry::Stored($r, ..) => $body,
        }
    };
}

/// Why tools were not registered.
enum Failed {
    Register(RegisterError),
    /// Tools over an object store on a registry whose policy would treat their results
    /// as any tool's (host-tokio's passthrough flag is its own).
    #[cfg_attr(not(feature = "object-store"), allow(dead_code))]
    Refused,
}

impl From<RegisterError> for Failed {
    fn from(e: RegisterError) -> Self {
        Failed::Register(e)
    }
}

/// A tool registry (`tool_offload.ToolRegistry` wraps it).
#[pyclass(frozen, module = "tool_offload._native")]
pub struct NativeRegistry {
    inner: RwLock<Registry>,
}

fn register_error(py: Python<'_>, e: RegisterError) -> PyErr {
    raise(py, e.code().as_str(), &e.to_string(), None)
}

/// `offload`: `{ outputDir, sessionId, thresholdChars?, cwd?, redact?, storage?, failOn?,
/// root? }` (the last two for the test suite).
fn offload_registry(py: Python<'_>, o: &Value) -> PyResult<ToolRegistry<Writer>> {
    let err = |e| py_err(py, e);
    let need = |key: &str| {
        options::text(o, key, "offload.")?
            .ok_or_else(|| OffloadError::InvalidArgument(format!("offload.{key} is missing")))
    };
    let output_dir = need("outputDir").map_err(err)?;
    let storage = options::text(o, "storage", "offload.").map_err(err)?;
    let location = Location::parse(py, "offload.output_dir", &output_dir, storage.as_deref())?;
    offload_with(o, location).map_err(err)
}

fn offload_with(o: &Value, location: Location) -> Result<ToolRegistry<Writer>, OffloadError> {
    let need = |key: &str| {
        options::text(o, key, "offload.")?
            .ok_or_else(|| OffloadError::InvalidArgument(format!("offload.{key} is missing")))
    };
    let mut offload = ResultOffload::at(location.dir.clone(), need("sessionId")?);
    if let Some(n) = options::count(o, "thresholdChars", "offload.")? {
        offload.threshold_chars = n;
    }
    if let Some(cwd) = location.cwd(options::text(o, "cwd", "offload.")?) {
        offload.cwd = cwd;
    }
    offload.redact = options::redaction(o.get("redact"))?;
    let fail_on = options::text(o, "failOn", "offload.")?;
    let root = options::text(o, "root", "offload.")?;
    let writer = Writer::new(location.io(), fail_on, root);
    ToolRegistry::with_offload_writer(offload, writer)
}

#[pymethods]
impl NativeRegistry {
    /// A registry whose large results stay as they are, are offloaded (`offload`, JSON),
    /// or are materialized by `materializer`.
    #[new]
    #[pyo3(signature = (offload=None, materializer=None))]
    fn new(
        py: Python<'_>,
        offload: Option<&str>,
        materializer: Option<&NativeMaterializer>,
    ) -> PyResult<Self> {
        let registry = match (offload, materializer) {
            (Some(_), Some(_)) => {
                return Err(invalid(py, "give offload or materializer, not both"));
            }
            (Some(o), None) => {
                let o = parse(py, o, "offload")?;
                Registry::Offload(offload_registry(py, &o)?)
            }
            (None, Some(m)) => match m.inner() {
                Mat::Files(m) => Registry::Files(ToolRegistry::with_materializer(m.clone())),
                #[cfg(feature = "object-store")]
                Mat::Objects(m) => Registry::Stored(ToolRegistry::new(), m.clone(), Vec::new()),
            },
            (None, None) => Registry::Plain(ToolRegistry::new()),
        };
        Ok(NativeRegistry {
            inner: RwLock::new(registry),
        })
    }

    /// Register `definition` (JSON `{ name, description, input_schema }`) with `handler`:
    /// called with the params as JSON text, it returns `(content, is_error)` or raises
    /// (the exception's text becomes an error result).
    #[pyo3(signature = (definition, handler, wait=true))]
    fn register(
        &self,
        py: Python<'_>,
        definition: &str,
        handler: Py<PyAny>,
        wait: bool,
    ) -> PyResult<()> {
        let d = parse(py, definition, "definition")?;
        let (Some(name), Some(description)) = (d["name"].as_str(), d["description"].as_str())
        else {
            let message = "invalid tool definition: name and description must be strings";
            return Err(raise(py, "INVALID_TOOL_DEFINITION", message, None));
        };
        let definition = ToolDefinition::new(name, description, d["input_schema"].clone());
        let handler = Arc::new(handler);
        self.write(py, wait, |registry| {
            on!(registry, r => r.register(definition, move |params: Value| {
                let handler = handler.clone();
                async move { call(&handler, &params) }
            }))
        })?
        .map_err(|e| register_error(py, e))
    }

    /// Register TodoWrite and TodoRead over one new in-memory list.
    #[pyo3(signature = (wait=true))]
    fn register_todo_tools(&self, py: Python<'_>, wait: bool) -> PyResult<()> {
        self.write(
            py,
            wait,
            |registry| on!(registry, r => register_todo_tools(r)),
        )?
        .map_err(|e| register_error(py, e))
    }

    /// Every tool's definition as the `tools` array of `format` (JSON text).
    fn tool_definitions(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let format = ToolFormat::parse(format).map_err(|e| py_err(py, e))?;
        let definitions = py.detach(|| {
            let registry = self.inner.read().unwrap_or_else(|e| e.into_inner());
            on!(&*registry, r => r.get_tool_definitions_as(format))
        });
        Ok(to_json(&definitions))
    }

    /// Run tool `name` for the call `tool_use_id` on `params` (JSON): the `tool_result`
    /// block as JSON text (large results offloaded or materialized as configured).
    fn execute(
        &self,
        py: Python<'_>,
        tool_use_id: &str,
        name: &str,
        params: &str,
    ) -> PyResult<String> {
        let params = parse(py, params, "params")?;
        // Locked for reading, without the GIL (which a handler takes back when it runs).
        let done = py.detach(|| {
            let registry = self.inner.read().unwrap_or_else(|e| e.into_inner());
            crate::bridge::runtime().block_on(async {
                let done = on!(&*registry, r => r.execute_tool(tool_use_id, name, params).await);
                #[cfg(feature = "object-store")]
                if let Registry::Stored(_, m, passthrough) = &*registry {
                    return store_tools::materialized(m, done?, name, passthrough).await;
                }
                done
            })
        });
        done.map(|d| to_json(&d.to_value()))
            .map_err(|e| py_err(py, e))
    }

    /// Register `context_read`, `context_tail`, `context_grep` over `materializer`.
    #[pyo3(signature = (materializer, wait=true))]
    fn add_read_tools(
        &self,
        py: Python<'_>,
        materializer: &NativeMaterializer,
        wait: bool,
    ) -> PyResult<()> {
        let m = materializer.inner();
        let done = self.write(py, wait, |registry| {
            match m {
                Mat::Files(m) => on!(&mut *registry, r => m.register_tools(r))?,
                #[cfg(feature = "object-store")]
                Mat::Objects(m) => match &mut *registry {
                    Registry::Plain(r) | Registry::Stored(r, ..) => m.register_tools(r)?,
                    _ => return Err(Failed::Refused),
                },
            }
            #[cfg(feature = "object-store")]
            passthrough(registry, store_tools::read_tool_names);
            Ok(())
        })?;
        self.failed(py, done, "register_tools: the read tools of a materializer")
    }

    /// Register the knowledge tools over `workspace`.
    #[pyo3(signature = (workspace, wait=true))]
    fn add_knowledge_tools(
        &self,
        py: Python<'_>,
        workspace: &NativeWorkspace,
        wait: bool,
    ) -> PyResult<()> {
        let ws = workspace.inner();
        let done = self.write(py, wait, |registry| {
            match ws {
                Ws::Files(ws) => on!(&mut *registry, r => ws.register_tools(r))?,
                #[cfg(feature = "object-store")]
                Ws::Objects(ws) => match &mut *registry {
                    Registry::Plain(r) | Registry::Stored(r, ..) => ws.register_tools(r)?,
                    _ => return Err(Failed::Refused),
                },
            }
            #[cfg(feature = "object-store")]
            passthrough(registry, store_tools::knowledge_tool_names);
            Ok(())
        })?;
        self.failed(
            py,
            done,
            "register_tools: the knowledge tools of a workspace",
        )
    }
}

/// A registry materializing into a store keeps the names of the passthrough tools just
/// registered (host-tokio's registry keeps its own flag for the others).
#[cfg(feature = "object-store")]
fn passthrough(registry: &mut Registry, names: fn() -> Vec<String>) {
    if let Registry::Stored(_, _, kept) = registry {
        kept.extend(names());
    }
}

impl NativeRegistry {
    /// `done` as the call's outcome: a registration error as its exception, a refusal as
    /// an `INVALID_ARGUMENT` naming `what`.
    fn failed(&self, py: Python<'_>, done: Result<(), Failed>, what: &str) -> PyResult<()> {
        match done {
            Ok(()) => Ok(()),
            Err(Failed::Register(e)) => Err(register_error(py, e)),
            Err(Failed::Refused) => Err(invalid(
                py,
                &format!(
                    "{what} in an object store go on a registry without offload or a \
                     materializer on files (there, their pages would be offloaded as any \
                     tool's result)"
                ),
            )),
        }
    }

    /// `f` on the registry, locked for writing: waited for without the GIL (which a
    /// running handler may need), or, unless `wait`, refused while a tool runs (a
    /// handler registering on its own registry would wait for itself).
    fn write<T: Send>(
        &self,
        py: Python<'_>,
        wait: bool,
        f: impl FnOnce(&mut Registry) -> T + Send,
    ) -> PyResult<T> {
        if wait {
            return Ok(py.detach(|| f(&mut self.inner.write().unwrap_or_else(|e| e.into_inner()))));
        }
        match self.inner.try_write() {
            Ok(mut registry) => Ok(f(&mut registry)),
            Err(std::sync::TryLockError::Poisoned(e)) => Ok(f(&mut e.into_inner())),
            Err(std::sync::TryLockError::WouldBlock) => Err(invalid(
                py,
                "a tool of this registry is running in this thread or on its event loop: \
                 register tools before executing them, or from another thread",
            )),
        }
    }
}

/// Call a Python handler (the package's wrapper) with `params` as JSON text.
fn call(handler: &Py<PyAny>, params: &Value) -> tool_offload::HandlerResult {
    Python::attach(|py| {
        let text = to_json(params);
        match handler
            .call1(py, (text,))
            .and_then(|r| r.extract::<(String, bool)>(py))
        {
            Ok((content, is_error)) => Ok(ToolOutput { content, is_error }),
            Err(err) => Err(err.value(py).to_string().into()),
        }
    })
}
