//! One conversation replayed turn by turn under each policy: what each turn sends, fed to
//! core's [`Tally`]; for the Materializer, its artifacts' needles looked for again.

use std::borrow::Cow;
use std::path::Path;

use tokio::runtime::Runtime;
use tool_offload::core::json::LoneSurrogates;
use tool_offload::core::replay::{
    agents_trimmed, claude_code_persisted, clear_tool_uses, head_tail, pick_needles, recovered,
    tool_names, Analysis, Figures, Serialised, Tally,
};
use tool_offload::core::BatchOptions;
use tool_offload::json::stringify;
use tool_offload::{GrepOptions, Materializer, MaterializerOptions, OffloadError, Value};

use super::args::{Policy, ReplayArgs};
use crate::engine::Engine;
use crate::error::CliError;
use crate::location::Location;

/// Needles looked for again, and how many were found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Needles {
    /// Recovered by one grep.
    pub found: usize,
    /// Looked for.
    pub total: usize,
}

/// One policy over one conversation.
#[derive(Debug, Clone)]
pub struct PolicyRun {
    /// The policy.
    pub policy: Policy,
    /// Its figures.
    pub figures: Figures,
    /// Characters sent at each turn.
    pub per_turn: Vec<u64>,
    /// Artifacts or files written.
    pub artifacts: usize,
    /// Needle recovery (the Materializer only).
    pub needles: Option<Needles>,
    /// Turns at which the budget cleared results (each a planned rewrite of the cached
    /// prefix).
    pub rewrites: usize,
}

/// A conversation to replay.
pub struct Conversation<'a> {
    /// Its name: the refs' conversation id.
    pub name: &'a str,
    /// Its messages.
    pub messages: &'a [Value],
    /// Stand-ins for its lone surrogates.
    pub lone: &'a LoneSurrogates,
}

/// Replays `conversation` under each of `policies`, writing artifacts under `dir`.
pub fn replay(
    conversation: &Conversation<'_>,
    policies: &[Policy],
    args: &ReplayArgs,
    dir: &Path,
    runtime: &Runtime,
) -> Result<Vec<PolicyRun>, CliError> {
    let analysis = Analysis::of(conversation.messages);
    let raw: Vec<Serialised> = conversation
        .messages
        .iter()
        .map(|m| Serialised::new(stringify(m)))
        .collect();
    let mut runs = Vec::new();
    for &policy in policies {
        let dir = dir.join(policy.name());
        let run = match policy {
            Policy::None => fixed(
                &analysis,
                policy,
                Cow::Borrowed(conversation.messages),
                &raw,
            ),
            Policy::Headtail => {
                let cut: Vec<Option<Value>> = conversation.messages.iter().map(head_tail).collect();
                let serialised = reuse(&raw, &cut);
                let sent = merged(conversation.messages, cut);
                fixed(&analysis, policy, Cow::Owned(sent), &serialised)
            }
            Policy::ClaudeCode => {
                let names = tool_names(conversation.messages);
                let shown: Vec<Option<Value>> = conversation
                    .messages
                    .iter()
                    .map(|m| claude_code_persisted(m, &names))
                    .collect();
                let serialised = reuse(&raw, &shown);
                let sent = merged(conversation.messages, shown);
                fixed(&analysis, policy, Cow::Owned(sent), &serialised)
            }
            Policy::ClearToolUses => cleared_per_turn(conversation.messages, &analysis, &raw),
            Policy::AgentsTrimmer => trimmed_per_turn(conversation.messages, &analysis, &raw),
            Policy::Offload => offload(conversation, &analysis, args, &dir, &raw)?,
            Policy::Materialize | Policy::Budget => {
                materialize(conversation, &analysis, args, policy, &dir, &raw, runtime)?
            }
        };
        runs.push(run);
    }
    Ok(runs)
}

/// A policy that rewrites each message once, whatever the turn: every turn sends a
/// prefix of `sent`.
fn fixed(
    analysis: &Analysis,
    policy: Policy,
    sent: Cow<'_, [Value]>,
    serialised: &[Serialised],
) -> PolicyRun {
    let mut tally = Tally::new(analysis);
    let per_turn = analysis
        .turns
        .iter()
        .map(|&at| tally.turn(at, &sent[..at], serialised[..at].to_vec()).chars as u64)
        .collect();
    PolicyRun {
        policy,
        figures: tally.finish(),
        per_turn,
        artifacts: 0,
        needles: None,
        rewrites: 0,
    }
}

/// Anthropic's clearing as its server applies it: each turn, from the full history, every
/// result but the last 3 cleared once the history is over 100,000 tokens.
fn cleared_per_turn(messages: &[Value], analysis: &Analysis, raw: &[Serialised]) -> PolicyRun {
    let tokens: Vec<usize> = raw.iter().map(Serialised::tokens).collect();
    let mut tally = Tally::new(analysis);
    let mut per_turn = Vec::new();
    for &at in &analysis.turns {
        let mut sent = messages[..at].to_vec();
        let mut serialised = raw[..at].to_vec();
        replace(
            &mut sent,
            &mut serialised,
            clear_tool_uses(&messages[..at], &tokens[..at], 100_000, 3),
        );
        per_turn.push(tally.turn(at, &sent, serialised).chars as u64);
    }
    PolicyRun {
        policy: Policy::ClearToolUses,
        figures: tally.finish(),
        per_turn,
        artifacts: 0,
        needles: None,
        rewrites: 0,
    }
}

/// The Agents SDK's trimmer as it runs: before every model call, over the full history
/// the loop keeps.
fn trimmed_per_turn(messages: &[Value], analysis: &Analysis, raw: &[Serialised]) -> PolicyRun {
    let mut tally = Tally::new(analysis);
    let mut per_turn = Vec::new();
    for &at in &analysis.turns {
        let mut sent = messages[..at].to_vec();
        let mut serialised = raw[..at].to_vec();
        replace(&mut sent, &mut serialised, agents_trimmed(&messages[..at]));
        per_turn.push(tally.turn(at, &sent, serialised).chars as u64);
    }
    PolicyRun {
        policy: Policy::AgentsTrimmer,
        figures: tally.finish(),
        per_turn,
        artifacts: 0,
        needles: None,
        rewrites: 0,
    }
}

/// `raw` where a message is unchanged (`None` in `changed`), a new serialisation where
/// it changed.
fn reuse(raw: &[Serialised], changed: &[Option<Value>]) -> Vec<Serialised> {
    raw.iter()
        .zip(changed)
        .map(|(r, c)| {
            c.as_ref()
                .map_or_else(|| r.clone(), |v| Serialised::new(stringify(v)))
        })
        .collect()
}

/// The messages with the changed ones in place.
fn merged(messages: &[Value], changed: Vec<Option<Value>>) -> Vec<Value> {
    messages
        .iter()
        .zip(changed)
        .map(|(m, c)| c.unwrap_or_else(|| m.clone()))
        .collect()
}

/// Batch offload, each message offloaded once as the loop first holds it.
fn offload(
    conversation: &Conversation<'_>,
    analysis: &Analysis,
    args: &ReplayArgs,
    dir: &Path,
    raw: &[Serialised],
) -> Result<PolicyRun, CliError> {
    let out = dir.join(conversation.name);
    let location = Location::parse("--user-data", &out)?;
    let cwd = tool_offload::working_dir_for(&location.dir)
        .map_err(|e| CliError::failure(e.to_string()))?;
    let options = BatchOptions {
        output_dir: &location.dir,
        cwd: &cwd,
        threshold: args.threshold,
        redact: tool_offload::core::redact::Redaction::off(),
    };
    let mut engine = Engine::new(&options, location.io)?;
    let mut changed = Vec::with_capacity(conversation.messages.len());
    for (i, message) in conversation.messages.iter().enumerate() {
        let mut copy = message.clone();
        engine
            .offload(i, &mut copy, conversation.lone)
            .map_err(failed(conversation.name))?;
        changed.push((copy != *message).then_some(copy));
    }
    let serialised = reuse(raw, &changed);
    let files = engine.stats().offloaded as usize;
    let sent = merged(conversation.messages, changed);
    let mut run = fixed(analysis, Policy::Offload, Cow::Owned(sent), &serialised);
    run.artifacts = files;
    Ok(run)
}

/// The Materializer as an agent loop holds it: each turn it is given what it returned
/// the turn before plus the new raw messages, and what it returns is what the turn sends
/// (under `budget`, after the budget has had its say).
fn materialize(
    conversation: &Conversation<'_>,
    analysis: &Analysis,
    args: &ReplayArgs,
    policy: Policy,
    dir: &Path,
    raw: &[Serialised],
    runtime: &Runtime,
) -> Result<PolicyRun, CliError> {
    let user_data = dir.to_str().ok_or_else(|| {
        CliError::failure(format!("replay: {} is not valid UTF-8", dir.display()))
    })?;
    let mut options = MaterializerOptions::at(user_data, conversation.name);
    args.limits.apply(&mut options);
    let limit = options.max_inline_chars;
    let m = Materializer::new(options).map_err(failed(conversation.name))?;
    let mut tally = Tally::new(analysis);
    let mut per_turn = Vec::new();
    let mut sent: Vec<Value> = Vec::new();
    let mut serialised: Vec<Serialised> = Vec::new();
    let mut artifacts = Vec::new();
    let mut rewrites = 0;
    let budget = (policy == Policy::Budget).then(|| args.budget());
    for &at in &analysis.turns {
        let before = sent.len();
        sent.extend_from_slice(&conversation.messages[before..at]);
        serialised.extend_from_slice(&raw[before..at]);
        let done = runtime
            .block_on(m.materialize_messages(&sent))
            .map_err(failed(conversation.name))?;
        artifacts.extend(
            done.refs
                .iter()
                .map(|r| r.id.clone())
                .zip(done.paths.clone()),
        );
        let changed = owned(done.messages);
        replace(&mut sent, &mut serialised, changed);
        if let Some(options) = &budget {
            let done = runtime
                .block_on(m.budget(&sent, options))
                .map_err(failed(conversation.name))?;
            rewrites += usize::from(done.rewritten_from_message.is_some());
            artifacts.extend(done.stored.iter().map(|(r, p)| (r.id.clone(), p.clone())));
            let changed = owned(done.messages);
            replace(&mut sent, &mut serialised, changed);
        }
        per_turn.push(tally.turn(at, &sent, serialised.clone()).chars as u64);
    }
    let needles = (args.needles > 0).then(|| {
        needles(
            conversation.name,
            &m,
            &artifacts,
            args.needles,
            limit,
            runtime,
        )
    });
    Ok(PolicyRun {
        policy,
        figures: tally.finish(),
        per_turn,
        artifacts: artifacts.len(),
        needles: needles.transpose()?,
        rewrites,
    })
}

/// The messages a call rewrote (returned owned), with their indices.
fn owned(messages: Vec<Cow<'_, Value>>) -> Vec<(usize, Value)> {
    messages
        .into_iter()
        .enumerate()
        .filter_map(|(i, m)| match m {
            Cow::Owned(m) => Some((i, m)),
            Cow::Borrowed(_) => None,
        })
        .collect()
}

/// `changed` put in place in `sent`, with their new serialisations.
fn replace(sent: &mut [Value], serialised: &mut [Serialised], changed: Vec<(usize, Value)>) {
    for (i, message) in changed {
        serialised[i] = Serialised::new(stringify(&message));
        sent[i] = message;
    }
}

/// Looks for `count` lines of every artifact again with one grep each.
fn needles(
    conversation: &str,
    m: &Materializer,
    artifacts: &[(String, String)],
    count: usize,
    limit: usize,
    runtime: &Runtime,
) -> Result<Needles, CliError> {
    let mut tally = Needles::default();
    for (reference, path) in artifacts {
        let text =
            std::fs::read_to_string(path).map_err(|e| CliError::failure(format!("{path}: {e}")))?;
        for needle in pick_needles(conversation, reference, &text, count, limit) {
            let page = runtime.block_on(m.grep(reference, &needle.pattern, GrepOptions::default()));
            tally.total += 1;
            tally.found += usize::from(page.is_ok_and(|page| recovered(&page, &needle)));
        }
    }
    Ok(tally)
}

fn failed(what: &str) -> impl Fn(OffloadError) -> CliError + '_ {
    move |err| CliError::bad_input(format!("{what}: {err}"))
}
