//! Loading the vectors: their options, expected outcome, and bless mode.

use std::path::PathBuf;

use tool_offload_core::json::LoneSurrogates;
use tool_offload_core::options::Given;
use tool_offload_core::{json, Map, Value};

use super::diff::first_difference;
use super::expand::{expand, fill_core, resolve};
use crate::vectors_dir;

/// One vector.
#[derive(Debug, Clone)]
pub struct Vector {
    /// The file name without `.json` (`<group>-<name>`): the key of recorded outcomes.
    pub id: String,
    /// The file.
    pub path: PathBuf,
    /// The file as written, `$text` recipes unexpanded (what bless rewrites).
    pub raw: Value,
    /// `$text` recipes expanded.
    pub expanded: Value,
    /// Stand-ins for the file's escaped lone surrogates (`"\ud83d"`), which serde_json
    /// cannot hold; empty for most vectors.
    pub lone: LoneSurrogates,
}

/// The materializer's options as core's one reader reads them (defaults filled in), and
/// the runner's own settings.
#[derive(Debug, Clone)]
pub struct Options {
    /// Core's options, `userData` and `cwd` left empty for each host to fill in.
    pub core: tool_offload_core::materialize::MaterializerOptions,
    /// `options.countTokens: "words"`: tokens are space-separated words (a runner's
    /// stand-in for a host's tokenizer), else core's estimate.
    pub count_words: bool,
}

/// A vector's `options` object as core reads it, with `first` before its own keys.
pub fn given(o: &Value, first: Vec<(String, Given)>) -> Given {
    let mut fields = first;
    if let Given::Object(rest) = Given::from(o) {
        fields.extend(rest);
    }
    Given::Object(fields)
}

/// The `countTokens: "words"` counter: space-separated words.
pub fn count_words(text: &str) -> usize {
    text.split(' ').count()
}

impl Options {
    /// Core's options for a materializer under `user_data` (an empty `cwd`: the tokio
    /// host fills it in, core's runner gives `/`).
    pub fn materializer_options(
        &self,
        user_data: impl Into<String>,
    ) -> tool_offload_core::materialize::MaterializerOptions {
        tool_offload_core::materialize::MaterializerOptions {
            user_data: user_data.into(),
            ..self.core.clone()
        }
    }
}

/// Every vector, sorted by file name.
pub fn load() -> Vec<Vector> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("tests/vectors exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".json"))
        })
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no vectors found");
    paths
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("readable vector");
            let (marked, lone) = LoneSurrogates::mark(&bytes).expect("lone surrogates marked");
            let text = std::str::from_utf8(&marked).expect("UTF-8 vector");
            let raw = json::parse(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let expanded = expand(&raw);
            Vector {
                id: path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .expect("utf-8 file name")
                    .to_owned(),
                path,
                raw,
                expanded,
                lone,
            }
        })
        .collect()
}

impl Vector {
    /// The virtual working directory (`cwd`, default `/work`).
    pub fn cwd(&self) -> &str {
        self.expanded["cwd"].as_str().unwrap_or("/work")
    }

    /// The materializer's options (`conversationId` default `conv-1`).
    pub fn options(&self) -> Options {
        let o = &self.expanded["options"];
        let mut first = vec![("userData".to_owned(), Given::text(""))];
        if o.get("conversationId").is_none() {
            first.push(("conversationId".into(), Given::text("conv-1")));
        }
        let none = |_: &str| Ok::<_, tool_offload_core::OffloadError>(String::new());
        let core = tool_offload_core::options::materializer_options(&given(o, first), none)
            .unwrap_or_else(|e| panic!("{}: options: {e}", self.id));
        Options {
            core,
            count_words: o["countTokens"].as_str() == Some("words"),
        }
    }

    pub(super) fn steps(&self) -> &[Value] {
        self.expanded["steps"]
            .as_array()
            .unwrap_or_else(|| panic!("{}: steps", self.id))
    }

    /// The expected canonical outcome, given the actual results of the steps (for
    /// `$from`). `None` while a `$core` text is not blessed yet.
    pub fn expected(&self, actual: &[Value]) -> Option<String> {
        let mut steps = Vec::new();
        for step in self.steps() {
            let mut out = Map::new();
            if let Some(error) = step.get("error") {
                out.insert("error".into(), resolve(error, actual, true)?);
            } else {
                let expect = resolve(&step["expect"], actual, true)?;
                out.insert("expect".into(), expect);
            }
            steps.push(Value::Object(out));
        }
        let mut out = Map::new();
        out.insert("steps".into(), Value::Array(steps));
        out.insert("files".into(), self.expanded["files"].clone());
        Some(
            self.lone
                .restore(&json::stringify(&Value::Object(out)))
                .into_owned(),
        )
    }

    /// Write the vector back with every `$core` text taken from `actual` (results) and
    /// `steps` (step outcomes: error messages). Refuses (the
    /// difference as error) unless everything else already matches.
    pub fn bless(&self, actual: &[Value], steps: &[Value], outcome: &str) -> Result<(), String> {
        let mut raw = self.raw.clone();
        for (i, step) in raw["steps"]
            .as_array_mut()
            .expect("steps")
            .iter_mut()
            .enumerate()
        {
            if let (Some(expect), Some(got)) = (step.get_mut("expect"), actual.get(i)) {
                fill_core(expect, got);
            }
            if let (Some(error), Some(got)) = (step.get_mut("error"), steps.get(i)) {
                fill_core(error, &got["error"]);
            }
        }
        let blessed = Vector {
            expanded: expand(&raw),
            raw,
            ..self.clone()
        };
        let want = blessed.expected(actual).unwrap_or_default();
        if want != outcome {
            return Err(format!(
                "{}: not blessed, facts other than core texts differ:\n{}",
                self.id,
                first_difference(&want, outcome)
            ));
        }
        let text = serde_json::to_string_pretty(&blessed.raw).expect("serialisable") + "\n";
        let text = self.lone.restore(&text);
        std::fs::write(&self.path, text.as_bytes()).expect("write blessed vector");
        Ok(())
    }
}
