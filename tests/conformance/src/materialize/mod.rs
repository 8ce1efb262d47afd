//! Materialization vectors (`tests/vectors/materialize-*.json`, issue 5): a small
//! interpreter of their steps, shared by the native hosts.
//!
//! A vector names the options of one conversation's materializer and a list of steps
//! (`materialize`, `terminal`, `read`, `tail`, `grep`, `materializeMessages`, `export`,
//! `import`), each with its expected result or error code, and the complete set of
//! files under the user-data root at the end. See `tests/vectors/generate-materialize.mjs`
//! for the format, including the `$text` (string recipe), `$from` (result of an earlier
//! step) and `$core` (text whose format core defines, filled in by bless mode) forms.
//!
//! A host implements [`Host`]: it runs one [`Op`] and returns the result in canonical
//! form (built with [`materialized`], [`context_ref`] and [`relative`]). [`run`] turns
//! a vector into its canonical outcome; [`Vector::expected`] gives what it must be.

mod diff;
mod expand;
mod op;
mod results;
mod shape;
mod vector;

use std::collections::BTreeMap;

use tool_offload_core::{json, Map, OffloadError, Value};

pub use diff::first_difference;
pub use expand::expand;
pub use op::Op;
pub use results::{
    bundle_result, context_ref, files_under, imported_result, materialized, messages_result,
    relative,
};
pub use vector::{load, Options, Vector};

use op::parse_op;
use shape::shape_problems;

/// Environment variable that turns on bless mode.
pub const BLESS: &str = "TOOL_OFFLOAD_BLESS";

/// A host under test.
#[allow(async_fn_in_trait)] // the runner awaits them in place; no Send bound needed
pub trait Host {
    /// Run `op`; the result in canonical form, paths relative to the root.
    async fn run(&self, op: &Op) -> Result<Value, OffloadError>;
    /// Every file under the root, by path relative to it.
    fn files(&self) -> BTreeMap<String, String>;
}

/// Run every step of `vector` through `host`; the canonical outcome and each step's
/// result (`Null` for a failed step).
pub async fn run<H: Host>(vector: &Vector, host: &H) -> (String, Vec<Value>) {
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
                let mut code = Map::new();
                code.insert("code".into(), err.code().as_str().into());
                out.insert("error".into(), Value::Object(code));
                actual.push(Value::Null);
            }
        }
        steps.push(Value::Object(out));
    }
    let mut out = Map::new();
    out.insert("steps".into(), Value::Array(steps));
    let files: Map<String, Value> = host
        .files()
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    out.insert("files".into(), Value::Object(files));
    if !problems.is_empty() {
        out.insert(
            "problems".into(),
            problems.into_iter().map(Value::from).collect(),
        );
    }
    let outcome = json::stringify(&Value::Object(out));
    (vector.lone.restore(&outcome).into_owned(), actual)
}
