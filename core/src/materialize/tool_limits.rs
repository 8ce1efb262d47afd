//! Per-tool limits (the `tools` option): which outputs of which tool are materialized.
//! A file reader's output the model asked for may stay inline (`Read: never`), a tool
//! known to flood may go whole to an artifact (`always`), another may get its own limits.
//! They decide *whether* an output is materialized; summaries and read-back pages keep
//! the materializer's own limits.

use super::text::Measure;
use super::types::{MaterializeWhen, MaterializerOptions, ToolLimits, ANY_TOOL};

/// The limits that apply to one tool's outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub(crate) chars: usize,
    pub(crate) bytes: usize,
    pub(crate) when: Option<MaterializeWhen>,
}

impl Limits {
    /// Whether an output of `measure` is materialized under these limits.
    pub(crate) fn exceeded_by(&self, measure: &Measure) -> bool {
        match self.when {
            Some(MaterializeWhen::Never) => false,
            Some(MaterializeWhen::Always) => true,
            None => measure.chars > self.chars || measure.bytes > self.bytes,
        }
    }

    /// The longest output in UTF-16 units that surely stays inline (UTF-8 takes at most
    /// 3 bytes per unit), so shorter text is not copied out of a host to be measured;
    /// 0 when outputs of any size may be materialized.
    pub(crate) fn surely_inline(&self) -> usize {
        match self.when {
            Some(MaterializeWhen::Never) => usize::MAX,
            Some(MaterializeWhen::Always) => 0,
            None => self.chars.min(self.bytes / 3),
        }
    }
}

impl MaterializerOptions {
    /// The limits for `tool`: its entry's fields, else the limit the tool declared
    /// itself (`declared` characters: MCP's `_meta["anthropic/maxResultSizeChars"]`),
    /// else the `"*"` entry's, else these options' own.
    pub(crate) fn limits_for(&self, tool: &str, declared: Option<usize>) -> Limits {
        let entry = |name: &str| self.tools.iter().find(|(n, _)| n == name).map(|(_, l)| l);
        let (own, any) = (entry(tool), entry(ANY_TOOL));
        let pick = |f: fn(&ToolLimits) -> Option<usize>, default: usize| {
            own.and_then(f)
                .or_else(|| any.and_then(f))
                .unwrap_or(default)
        };
        let chars = match (own.and_then(|l| l.max_inline_chars), declared) {
            (None, Some(declared)) => declared,
            _ => pick(|l| l.max_inline_chars, self.max_inline_chars),
        };
        Limits {
            chars,
            bytes: pick(|l| l.max_inline_bytes, self.max_inline_bytes),
            when: own
                .and_then(|l| l.materialize)
                .or_else(|| any.and_then(|l| l.materialize)),
        }
    }
}

impl super::Materializer {
    /// Take `max_chars` as the limit `tool` declares for its own results (an MCP server's
    /// `_meta["anthropic/maxResultSizeChars"]` in `tools/list`): over the `"*"` entry and
    /// the defaults, under the tool's own entry in [`MaterializerOptions::tools`], which
    /// the user set.
    ///
    /// ```
    /// use tool_offload_core::materialize::{Materializer, MaterializerOptions};
    /// let m = Materializer::new(MaterializerOptions::new("/d", "c", "/")).unwrap();
    /// let text = "x".repeat(10_000);
    /// assert!(m.exceeds_limits_for("fetch", &text));
    /// m.declare_tool_limit("fetch", 50_000);
    /// assert!(!m.exceeds_limits_for("fetch", &text));
    /// ```
    pub fn declare_tool_limit(&self, tool: &str, max_chars: usize) {
        let mut declared = self.declared_limits();
        match declared.iter_mut().find(|(name, _)| name == tool) {
            Some(entry) => entry.1 = max_chars,
            None => declared.push((tool.to_owned(), max_chars)),
        }
    }

    /// The limits tools declared for themselves.
    fn declared_limits(&self) -> std::sync::MutexGuard<'_, Vec<(String, usize)>> {
        // Poisoned only if a thread panicked mid-push; the list is still valid.
        self.declared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The limits that apply to `tool`'s outputs.
    pub(crate) fn limits_for(&self, tool: &str) -> Limits {
        let declared = self
            .declared_limits()
            .iter()
            .find(|(name, _)| name == tool)
            .map(|(_, chars)| *chars);
        self.options().limits_for(tool, declared)
    }

    /// Whether an output of `text` must be materialized: over either limit.
    pub fn exceeds_limits(&self, text: &str) -> bool {
        self.measure_exceeds(&Measure::of(text), super::ANY_TOOL)
    }

    /// Whether an output of `text` from `tool` must be materialized: the tool's limits
    /// ([`MaterializerOptions::tools`]).
    pub fn exceeds_limits_for(&self, tool: &str, text: &str) -> bool {
        self.measure_exceeds(&Measure::of(text), tool)
    }

    pub(super) fn measure_exceeds(&self, m: &Measure, tool: &str) -> bool {
        self.limits_for(tool).exceeded_by(m)
    }

    /// The longest output that surely stays inline, whatever the tool.
    pub(crate) fn surely_inline_any(&self) -> usize {
        let mut names: Vec<String> = self
            .options()
            .tools
            .iter()
            .map(|(n, _)| n.clone())
            .collect();
        names.extend(self.declared_limits().iter().map(|(n, _)| n.clone()));
        let mut least = self.limits_for(ANY_TOOL).surely_inline();
        for name in &names {
            least = least.min(self.limits_for(name).surely_inline());
        }
        least
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::materialize::Materializer;

    /// The user's entry for a tool beats what the tool declares; what it declares beats
    /// the "*" entry and the defaults; bytes and `materialize` are the user's alone.
    #[test]
    fn a_declared_limit_sits_between_the_users_entry_and_the_rest() {
        let chars = |n| ToolLimits {
            max_inline_chars: Some(n),
            ..ToolLimits::default()
        };
        let mut options = MaterializerOptions::new("/d", "c", "/");
        options.tools = vec![
            ("own".into(), chars(100)),
            (ANY_TOOL.into(), chars(200)),
            (
                "never".into(),
                ToolLimits {
                    materialize: Some(MaterializeWhen::Never),
                    ..ToolLimits::default()
                },
            ),
        ];
        let m = Materializer::new(options).unwrap();
        for tool in ["own", "declared", "never"] {
            m.declare_tool_limit(tool, 5000);
        }
        let at = |tool: &str| m.limits_for(tool);
        assert_eq!(at("own").chars, 100);
        assert_eq!(at("declared").chars, 5000);
        assert_eq!(at("other").chars, 200);
        assert_eq!(at("declared").bytes, 16384);
        assert_eq!(at("never").when, Some(MaterializeWhen::Never));
        m.declare_tool_limit("declared", 50);
        assert_eq!(at("declared").chars, 50);
        // The cheap pre-check of materializeMessages sees the smallest limit.
        assert_eq!(m.surely_inline_any(), 50);
    }
}
