//! Per-tool limits (the `tools` option): which outputs of which tool are materialized.
//! A file reader's output the model asked for may stay inline (`Read: never`), a tool
//! known to flood may go whole to an artifact (`always`), another may get its own limits.
//! They decide *whether* an output is materialized; summaries and read-back pages keep
//! the materializer's own limits.
//!
//! **One precedence rule**, for the Materializer and the Workspace: the entry that
//! applies to a tool — its own, else the limit the tool declared for itself (MCP), else
//! the `"*"` entry — decides for it on every axis: the limits it sets are the only ones,
//! an axis it leaves unset has no limit, and the options' own limits (`max_inline_chars`,
//! `max_inline_bytes`, the Workspace's `token_threshold`) apply only to tools no entry
//! applies to. So `bash: { maxInlineChars: 30000 }` keeps a 20,000-character output
//! inline whatever the global byte limit. An entry that sets nothing is as if absent.

use crate::error::OffloadError;
use crate::text::measure::Measure;
use crate::tokens::{over_limit, TokenCounter};

/// When a tool's outputs are materialized, whatever their size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterializeWhen {
    /// Never: every output stays inline.
    Never,
    /// Always: every output becomes an artifact and its summary.
    Always,
}

/// One tool's entry in
/// [`MaterializerOptions::tools`](crate::materialize::MaterializerOptions::tools) (and the
/// Workspace's [`tools`](crate::workspace::WorkspaceOptions::tools)): each field given overrides the
/// `"*"` entry's, which overrides the options' own limits.
///
/// ```
/// use tool_offload_core::materialize::{Materializer, MaterializerOptions, MaterializeWhen, ToolLimits};
/// let mut options = MaterializerOptions::new("/d", "c", "/");
/// options.tools = vec![
///     ("Read".into(), ToolLimits { materialize: Some(MaterializeWhen::Never), ..ToolLimits::default() }),
///     ("*".into(), ToolLimits { max_inline_chars: Some(2000), ..ToolLimits::default() }),
///     ("bash".into(), ToolLimits { max_inline_chars: Some(8000), ..ToolLimits::default() }),
/// ];
/// let m = Materializer::new(options).unwrap();
/// let text = "x".repeat(5000);
/// assert!(!m.exceeds_limits_for("Read", &text));
/// assert!(!m.exceeds_limits_for("bash", &text));
/// assert!(m.exceeds_limits_for("grep", &text)); // "*": 2,000
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolLimits {
    /// Outputs over this many UTF-16 code units are materialized.
    pub max_inline_chars: Option<usize>,
    /// Outputs over this many UTF-8 bytes are materialized.
    pub max_inline_bytes: Option<usize>,
    /// Outputs over this many tokens are materialized: by
    /// [`estimate_tokens`](crate::tokens::estimate_tokens) in a Materializer, by the host's
    /// counter (else its estimate) in a Workspace, where it replaces `token_threshold`.
    pub max_inline_tokens: Option<usize>,
    /// Whatever the size: never, or always.
    pub materialize: Option<MaterializeWhen>,
}

/// The name of the entry that applies to every tool without its own.
pub const ANY_TOOL: &str = "*";

/// The entries of a `tools` option that apply to one tool: its own and the `"*"` entry,
/// each only if it sets something. One resolution for the Materializer and the Workspace.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ToolEntries<'a> {
    own: Option<&'a ToolLimits>,
    any: Option<&'a ToolLimits>,
}

impl<'a> ToolEntries<'a> {
    /// `tool`'s entries in `tools`.
    pub(crate) fn of(tools: &'a [(String, ToolLimits)], tool: &str) -> Self {
        let entry = |name: &str| {
            tools
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, l)| l)
                .filter(|l| **l != ToolLimits::default())
        };
        ToolEntries {
            own: entry(tool),
            any: entry(ANY_TOOL),
        }
    }

    /// The entry that decides for the tool: its own, else the `"*"` entry.
    pub(crate) fn deciding(&self) -> Option<&'a ToolLimits> {
        self.own.or(self.any)
    }

    /// `never` or `always`, if the tool's own entry says so.
    pub(crate) fn own_when(&self) -> Option<MaterializeWhen> {
        self.own.and_then(|l| l.materialize)
    }
}

/// The limits that apply to one tool's outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub(crate) chars: usize,
    pub(crate) bytes: usize,
    /// Tokens (by the host's counter, else [`estimate_tokens`](crate::tokens::estimate_tokens)),
    /// when a `tools` entry sets them.
    pub(crate) tokens: Option<usize>,
    pub(crate) when: Option<MaterializeWhen>,
}

impl Limits {
    /// The limits an entry sets, and no other: an axis it leaves unset has none.
    pub(crate) fn of_entry(entry: &ToolLimits) -> Self {
        Limits {
            chars: entry.max_inline_chars.unwrap_or(usize::MAX),
            bytes: entry.max_inline_bytes.unwrap_or(usize::MAX),
            tokens: entry.max_inline_tokens,
            when: entry.materialize,
        }
    }

    /// Whether an output `text` of `measure` is materialized under these limits. Tokens
    /// are counted only when the text could hold more than the limit: by `count` when
    /// its bytes are over it (a host's counter never counts more tokens than bytes),
    /// by the estimate when its UTF-16 units are over half of it (the estimate gives at
    /// most two tokens a unit).
    ///
    /// # Errors
    /// The counter's own.
    pub(crate) fn exceeded_by(
        &self,
        measure: &Measure,
        text: &str,
        count: Option<&TokenCounter<'_>>,
    ) -> Result<bool, OffloadError> {
        Ok(match self.when {
            Some(MaterializeWhen::Never) => false,
            Some(MaterializeWhen::Always) => true,
            None => {
                measure.chars > self.chars
                    || measure.bytes > self.bytes
                    || match self.tokens {
                        Some(limit) if count.is_some() || measure.chars > limit / 2 => {
                            over_limit(text, limit, count)?
                        }
                        _ => false,
                    }
            }
        })
    }

    /// The longest output in UTF-16 units that surely stays inline, so shorter text is
    /// not copied out of a host to be measured; 0 when outputs of any size may be
    /// materialized. UTF-8 takes at most 3 bytes a unit; the estimate gives at most 2
    /// tokens a unit, a host's counter (`counted`) at most one a byte, so 3 a unit.
    pub(crate) fn surely_inline(&self, counted: bool) -> usize {
        let per_unit = if counted { 3 } else { 2 };
        match self.when {
            Some(MaterializeWhen::Never) => usize::MAX,
            Some(MaterializeWhen::Always) => 0,
            None => self
                .chars
                .min(self.bytes / 3)
                .min(self.tokens.map_or(usize::MAX, |t| t / per_unit)),
        }
    }

    /// The limits for `tool` by the one precedence rule: its entry's in `tools`, else the
    /// limit the tool declared itself (`declared` characters: MCP's
    /// `_meta["anthropic/maxResultSizeChars"]`; the `"*"` entry's `materialize` still
    /// applies), else the `"*"` entry's, else `own` (the options' own limits).
    pub(crate) fn for_tool(
        tools: &[(String, ToolLimits)],
        tool: &str,
        declared: Option<usize>,
        own: Limits,
    ) -> Limits {
        let entries = ToolEntries::of(tools, tool);
        match (entries.own, declared, entries.any) {
            (Some(entry), ..) => Limits::of_entry(entry),
            (None, Some(chars), any) => Limits {
                chars,
                bytes: usize::MAX,
                tokens: None,
                when: any.and_then(|l| l.materialize),
            },
            (None, None, Some(any)) => Limits::of_entry(any),
            (None, None, None) => own,
        }
    }
}
