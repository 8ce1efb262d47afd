//! The budget's rule: when a history grows past a trigger, old tool results are cleared from it
//! — replaced by a one-line pointer to their artifact, stored first if they were inline —
//! oldest first, enough at once that the next trigger is far away, and only when the
//! saving is worth rewriting the cached prefix. Nothing is lost: every cleared result
//! reads back byte for byte.
//!
//! Decisions are frozen by content: a pointer is never cleared again and never changes,
//! so a loop that sends what `budget` returned plus its new messages extends the turn
//! before byte for byte, except at the rewrites `budget` reports. No clock, no randomness.
//!
//! The rule lives here, below the products: [`Choice`] decides what is cleared and builds
//! the edits; a product stores the results that were inline (the Materializer's
//! `budget`).

use crate::error::OffloadError;
use crate::forms::context_ref::ContextRef;
use crate::forms::pointer::{cleared_page_pointer, cleared_pointer};
use crate::forms::stored_form::{stored_form, StoredForm};
use crate::forms::summary_header::summary_parts;
use crate::json::view::JsonView;
use crate::message::{plan_tool_results, tool_input, Planned, Slot};
use crate::tokens::estimate_tokens;

/// Options of [`Materializer::budget`](crate::materialize::Materializer::budget).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetOptions {
    /// Clear only when the history holds more tokens than this.
    pub trigger_tokens: usize,
    /// The most recent tool results never cleared (default 3).
    pub keep_last: usize,
    /// Clear only when that saves at least this many tokens (default: a tenth of the
    /// trigger); otherwise rewriting the cached prefix does not pay.
    pub clear_at_least_tokens: usize,
    /// Tools whose results are never cleared.
    pub exclude_tools: Vec<String>,
}

impl BudgetOptions {
    /// The defaults for `trigger_tokens`: keep the last 3 results, clear at least a tenth
    /// of the trigger, exclude no tool.
    pub fn new(trigger_tokens: usize) -> Self {
        BudgetOptions {
            trigger_tokens,
            keep_last: 3,
            clear_at_least_tokens: trigger_tokens / 10,
            exclude_tools: Vec::new(),
        }
    }
}

/// One result cleared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleared {
    /// The index of its message.
    pub message: usize,
    /// Its tool call's id.
    pub tool_call_id: String,
    /// Its tool's name.
    pub tool_name: String,
    /// The ref it reads back with.
    pub reference: String,
    /// The full output's length in UTF-16 code units.
    pub chars: usize,
    /// Tokens saved (estimated: what was shown minus the pointer).
    pub tokens: usize,
}

impl Cleared {
    /// The entry as every host returns it: `{ message, toolCallId, toolName, ref, chars,
    /// tokens }`.
    pub fn to_value(&self) -> serde_json::Value {
        let mut shown = serde_json::Map::new();
        shown.insert("message".into(), self.message.into());
        shown.insert("toolCallId".into(), self.tool_call_id.as_str().into());
        shown.insert("toolName".into(), self.tool_name.as_str().into());
        shown.insert("ref".into(), self.reference.as_str().into());
        shown.insert("chars".into(), self.chars.into());
        shown.insert("tokens".into(), self.tokens.into());
        shown.into()
    }
}

/// What [`Materializer::budget`](crate::materialize::Materializer::budget) did, as edits
/// for the host to apply.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Budgeted {
    /// For each changed message, by index: slot → pointer edits.
    pub changed: Vec<(usize, Vec<(Slot, String)>)>,
    /// The results cleared, oldest first.
    pub cleared: Vec<Cleared>,
    /// The history's tokens as given.
    pub tokens_before: usize,
    /// Its tokens after the edits (`tokens_before` minus the estimated savings).
    pub tokens_after: usize,
    /// The first message rewritten: the cached prefix ends before it. `None` when nothing
    /// was.
    pub rewritten_from_message: Option<usize>,
    /// Artifacts written for results that were inline, with their paths.
    pub stored: Vec<(ContextRef, String)>,
}

/// How a chosen result is cleared.
enum Clearing {
    /// Stored first, then pointed to.
    Inline,
    /// A summary: pointed to by its own ref.
    Summary(String),
    /// A page the read tools returned: pointed to by the call's input, which returns it
    /// again.
    Page(String),
}

/// The ref (or knowledge id) a page's header names: `[<ref>: lines …]`.
fn page_ref(page: &str) -> &str {
    let header = page.lines().next().unwrap_or_default();
    header
        .strip_prefix('[')
        .and_then(|h| crate::search::split_once(h, ": "))
        .map_or("", |(reference, _)| reference)
}

/// The results a budget clears, chosen before anything is stored (the budget's rule, no
/// IO): the product stores the inline ones ([`Choice::inline`]), then [`Choice::finish`]
/// points to each.
pub(crate) struct Choice {
    done: Budgeted,
    results: Vec<Planned>,
    /// Index in `results`, how it is cleared, its UTF-16 units, the tokens it saves.
    chosen: Vec<(usize, Clearing, usize, usize)>,
}

impl Choice {
    /// Choose what to clear in `messages` (see
    /// [`Materializer::budget`](crate::materialize::Materializer::budget)): nothing when
    /// they hold at most `trigger_tokens`, or when clearing would save less than
    /// `clear_at_least_tokens`.
    ///
    /// # Errors
    /// `INVALID_MESSAGE`, `INVALID_ID`; `INVALID_ARGUMENT` when `message_tokens` is not one
    /// count per message.
    pub(crate) fn of<V: JsonView>(
        messages: &[V],
        message_tokens: &[usize],
        options: &BudgetOptions,
    ) -> Result<Choice, OffloadError> {
        if message_tokens.len() != messages.len() {
            return Err(OffloadError::InvalidArgument(format!(
                "budget: {} token counts for {} messages",
                message_tokens.len(),
                messages.len()
            )));
        }
        let tokens_before: usize = message_tokens.iter().sum();
        let mut choice = Choice {
            done: Budgeted {
                tokens_before,
                tokens_after: tokens_before,
                ..Budgeted::default()
            },
            results: Vec::new(),
            chosen: Vec::new(),
        };
        if tokens_before <= options.trigger_tokens {
            return Ok(choice);
        }
        let results = plan_tool_results(messages, &mut Vec::new(), false, &|_| true, &|_, _| {
            Ok(true)
        })?;
        let older = results.len().saturating_sub(options.keep_last);
        let target = options.trigger_tokens / 2;
        let mut chosen = Vec::new();
        let mut saving = 0;
        for (index, result) in results[..older].iter().enumerate() {
            if tokens_before.saturating_sub(saving) <= target {
                break;
            }
            let text = &result.text;
            if options.exclude_tools.contains(&result.tool_name) {
                continue;
            }
            // A summary is cleared to its own ref, a page the read tools returned to the
            // call that returns it again; what else already stands for stored content
            // (the store would not store it again) stays.
            let (clearing, chars) = match (stored_form(text), summary_parts(text)) {
                (None, _) => (Clearing::Inline, None),
                (Some(StoredForm::Summary), Some(parts)) => {
                    (Clearing::Summary(parts.reference.to_owned()), parts.chars)
                }
                (Some(StoredForm::ReadBackPage), _) => {
                    // Only the call that read it brings it back: one whose input names
                    // the page's ref (a result of another tool that looks like a page
                    // stays, as does a page whose call left the history).
                    let reference = page_ref(text);
                    match tool_input(messages, &result.id) {
                        Some(input)
                            if !reference.is_empty()
                                && crate::search::contains(&input, reference) =>
                        {
                            (Clearing::Page(input), None)
                        }
                        _ => continue,
                    }
                }
                _ => continue,
            };
            let chars = chars.unwrap_or_else(|| crate::text::utf16_len(text));
            // The pointer's ref is not known before an inline result is stored: a
            // ref-sized stand-in measures it.
            let pointer = match &clearing {
                Clearing::Page(input) => {
                    cleared_page_pointer(&result.tool_name, &result.id, chars, input)
                }
                _ => cleared_pointer(&result.tool_name, &result.id, chars, "ctx://x/tool/x.txt"),
            };
            // Counted as the history is, serialised: escapes (`\n`, `\"`) are tokens too.
            let json = |t: &str| crate::json::stringify(&serde_json::Value::from(t));
            let shown = estimate_tokens(&json(text));
            let after = estimate_tokens(&json(&pointer));
            if shown <= after {
                continue;
            }
            saving += shown - after;
            chosen.push((index, clearing, chars, shown - after));
        }
        if !chosen.is_empty() && saving >= options.clear_at_least_tokens {
            choice.results = results;
            choice.chosen = chosen;
        }
        Ok(choice)
    }

    /// The chosen results that were inline, in order: each is stored (whatever its size)
    /// before it is pointed to.
    pub(crate) fn inline(&self) -> Vec<&Planned> {
        self.chosen
            .iter()
            .filter(|c| matches!(c.1, Clearing::Inline))
            .map(|c| &self.results[c.0])
            .collect()
    }

    /// The edits and the entries cleared, given what storing each of [`Choice::inline`]
    /// gave in turn: its ref and path, or `None` (nothing stored: never cleared).
    pub(crate) fn finish(
        self,
        stored: impl IntoIterator<Item = Option<(ContextRef, String)>>,
    ) -> Budgeted {
        let Choice {
            mut done,
            results,
            chosen,
        } = self;
        let mut stored = stored.into_iter();
        for (index, clearing, mut chars, tokens) in chosen {
            let result = &results[index];
            let (reference, pointer) = match clearing {
                Clearing::Summary(r) => {
                    let pointer = cleared_pointer(&result.tool_name, &result.id, chars, &r);
                    (r, pointer)
                }
                Clearing::Page(input) => (
                    page_ref(&result.text).to_owned(),
                    cleared_page_pointer(&result.tool_name, &result.id, chars, &input),
                ),
                Clearing::Inline => match stored.next().flatten() {
                    Some((reference, path)) => {
                        // The size of what was stored: with `redact`, the redacted text.
                        chars = reference.hint.chars;
                        let id = reference.id.clone();
                        done.stored.push((reference, path));
                        let pointer = cleared_pointer(&result.tool_name, &result.id, chars, &id);
                        (id, pointer)
                    }
                    None => continue,
                },
            };
            match done.changed.last_mut() {
                Some((message, edits)) if *message == result.message => {
                    edits.push((result.slot, pointer));
                }
                _ => done
                    .changed
                    .push((result.message, vec![(result.slot, pointer)])),
            }
            done.tokens_after = done.tokens_after.saturating_sub(tokens);
            done.cleared.push(Cleared {
                message: result.message,
                tool_call_id: result.id.clone(),
                tool_name: result.tool_name.clone(),
                reference,
                chars,
                tokens,
            });
        }
        done.rewritten_from_message = done.changed.first().map(|(i, _)| *i);
        done
    }
}
