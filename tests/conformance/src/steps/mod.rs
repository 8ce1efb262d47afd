//! The conformance vectors (`tests/vectors/*.json`): a small interpreter of their steps,
//! shared by the native hosts. The format is in `tests/vectors/README.md`.
//!
//! A vector runs in a virtual file system (a materializer's user data at `/data`, the
//! working directory `/work`): its steps (offload, materialize, read back, registry,
//! todo) each with the expected result or error (code and message), and every file at
//! the end by absolute virtual path. Forms anywhere in a vector: `$text` (a string
//! recipe), `$from` (the result of an earlier step), `$core` (in expectations: a text
//! whose format core defines, filled in by bless mode).
//!
//! A host implements [`Host`]: it runs one [`Op`] and returns the result in canonical
//! form (built with [`materialized`], [`context_ref`] and [`relative`]). [`run`] turns
//! a vector into its canonical outcome; [`Vector::expected`] gives what it must be.

mod diff;
mod expand;
mod offload;
mod op;
mod results;
mod shape;
mod vector;
mod workspace;

use std::collections::BTreeMap;

use tool_offload_core::tools::RegisterError;
use tool_offload_core::{json, Map, OffloadError, Value};

pub use diff::first_difference;
pub use expand::expand;
pub use offload::offload;
pub use op::{Handler, Op, RegistryOffload};
pub use results::{
    budget_result, bundle_result, context_ref, files_under, imported_result, materialized,
    messages_result, read_stats_result, relative,
};
pub use vector::{count_words, load, Options, Vector};
pub use workspace::{run_call as run_workspace_call, workspace_options, WorkspaceClock};

use op::parse_op;
use shape::shape_problems;

/// Environment variable that turns on bless mode.
pub const BLESS: &str = "TOOL_OFFLOAD_BLESS";

/// A host under test.
#[allow(async_fn_in_trait)] // the runner awaits them in place; no Send bound needed
pub trait Host {
    /// Run `op`; the result in canonical form, paths relative to the root.
    async fn run(&self, op: &Op) -> Result<Value, StepError>;
    /// Every file, by absolute virtual path.
    fn files(&self) -> BTreeMap<String, String>;
    /// What the host saw go wrong beyond results (a directory created although nothing
    /// was written, a changed message handed back borrowed…): each fails the vector.
    fn problems(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A failed step: its error in canonical form, `{ code, message }`, plus `path` for
/// `WRITE_FAILED`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepError(pub Value);

impl StepError {
    /// The error with the real directory `root` standing for `/` taken out of its
    /// message and path, for hosts on real files.
    pub fn unrooted(self, root: &str) -> Self {
        let mut value = self.0;
        for key in ["message", "path"] {
            if let Some(Value::String(text)) = value.get_mut(key) {
                *text = text.replace(root, "");
            }
        }
        StepError(value)
    }
}

impl From<OffloadError> for StepError {
    fn from(err: OffloadError) -> Self {
        let mut out = Map::new();
        out.insert("code".into(), err.code().as_str().into());
        out.insert("message".into(), err.to_string().into());
        if let OffloadError::WriteFailed { path, .. } = &err {
            out.insert("path".into(), path.clone().into());
        }
        StepError(Value::Object(out))
    }
}

impl From<RegisterError> for StepError {
    fn from(err: RegisterError) -> Self {
        let mut out = Map::new();
        out.insert("code".into(), err.code().as_str().into());
        out.insert("message".into(), err.to_string().into());
        StepError(Value::Object(out))
    }
}

/// Run every step of `vector` through `host`: the canonical outcome, each step's result
/// (`Null` for a failed step) and each step's outcome (`{ expect }` or `{ error }`).
pub async fn run<H: Host>(vector: &Vector, host: &H) -> (String, Vec<Value>, Vec<Value>) {
    let options = vector.options();
    let mut actual: Vec<Value> = Vec::new();
    let mut steps = Vec::new();
    let mut problems = Vec::new();
    for (i, step) in vector.steps().iter().enumerate() {
        let op = parse_op(step, &actual, &vector.id, i, &vector.lone);
        let mut out = Map::new();
        match host.run(&op).await {
            Ok(result) => {
                problems.extend(shape_problems(&op, &result, &options, i));
                out.insert("expect".into(), result.clone());
                actual.push(result);
            }
            Err(err) => {
                out.insert("error".into(), err.0);
                actual.push(Value::Null);
            }
        }
        steps.push(Value::Object(out));
    }
    let mut out = Map::new();
    out.insert("steps".into(), Value::Array(steps.clone()));
    let files: Map<String, Value> = host
        .files()
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    out.insert("files".into(), Value::Object(files));
    problems.extend(host.problems());
    if !problems.is_empty() {
        out.insert(
            "problems".into(),
            problems.into_iter().map(Value::from).collect(),
        );
    }
    let outcome = json::stringify(&Value::Object(out));
    (vector.lone.restore(&outcome).into_owned(), actual, steps)
}

/// Each vector's outcome on one host: the canonical outcome, step results and step
/// outcomes, as [`run`] gives them.
pub type Outcomes = BTreeMap<String, (String, Vec<Value>, Vec<Value>)>;

/// Record `outcomes` as `target/conformance/<host>.json` and check them against every
/// vector's expectation.
///
/// # Panics
/// When a vector differs or holds an unblessed `$core` text: that is the test failing.
pub fn check(host: &str, vectors: &[Vector], outcomes: &Outcomes) {
    let mut failures = Vec::new();
    let mut pending = Vec::new();
    for v in vectors {
        let (got, actual, _) = &outcomes[&v.id];
        match v.expected(actual) {
            None => pending.push(v.id.clone()),
            Some(want) if want != *got => {
                failures.push(format!("{}: {}", v.id, first_difference(&want, got)))
            }
            Some(_) => {}
        }
    }
    let recorded: BTreeMap<String, String> = outcomes
        .iter()
        .map(|(k, (outcome, _, _))| (k.clone(), outcome.clone()))
        .collect();
    crate::record(host, &recorded);
    assert!(
        pending.is_empty(),
        "{host}: core texts not blessed in {pending:?}: run TOOL_OFFLOAD_BLESS=1 cargo test -p tool-offload-conformance --test core_host"
    );
    assert!(
        failures.is_empty(),
        "{host}: {} of {} vectors differ:\n{}",
        failures.len(),
        vectors.len(),
        failures.join("\n")
    );
}
