//! What `replay` prints: a table of the totals, or one JSON object with every
//! conversation's figures.

use serde_json::{json, Map};
use tool_offload::core::materialize::count;
use tool_offload::core::replay::Figures;
use tool_offload::Value;

use super::args::Policy;
use super::run::{Needles, PolicyRun};

/// One conversation's runs.
pub struct Replayed {
    /// The input it was read from.
    pub input: String,
    /// Its turns.
    pub turns: usize,
    /// One run per policy, `none` first.
    pub runs: Vec<PolicyRun>,
}

/// Prices of a prompt cache, in base input tokens.
#[derive(Debug, Clone, Copy)]
pub struct Prices {
    /// A cached token read.
    pub read: f64,
    /// A token written to the cache.
    pub write: f64,
}

/// A policy's totals over every conversation.
pub struct Total {
    /// The figures, summed.
    pub figures: Figures,
    /// Artifacts written.
    pub artifacts: usize,
    /// Needles looked for and found.
    pub needles: Option<Needles>,
    /// Planned rewrites of the cached prefix.
    pub rewrites: usize,
}

/// The totals of `policy` over every conversation.
pub fn total(replayed: &[Replayed], policy: Policy) -> Total {
    let mut figures = Figures::default();
    let mut artifacts = 0;
    let mut rewrites = 0;
    let mut needles: Option<Needles> = None;
    for run in replayed
        .iter()
        .flat_map(|r| &r.runs)
        .filter(|r| r.policy == policy)
    {
        figures.add(&run.figures);
        artifacts += run.artifacts;
        rewrites += run.rewrites;
        if let Some(n) = run.needles {
            let t = needles.get_or_insert_with(Needles::default);
            t.found += n.found;
            t.total += n.total;
        }
    }
    Total {
        figures,
        artifacts,
        needles,
        rewrites,
    }
}

/// Planned rewrites are reported for the budget only.
fn rewrites_of(policy: Policy, n: usize) -> Option<usize> {
    (policy == Policy::Budget).then_some(n)
}

/// A policy's figures as JSON; `none` is the baseline of the savings.
fn policy_json(
    figures: &Figures,
    none: &Figures,
    artifacts: usize,
    needles: Option<Needles>,
    rewrites: Option<usize>,
    prices: Prices,
) -> Value {
    let cost = figures.cache_cost(prices.read, prices.write);
    let s = &figures.sufficiency;
    let mut out = json!({
        "chars": figures.chars,
        "tokens": figures.tokens,
        "cacheCost": round(cost),
        "prefixStableTurns": figures.stable_turns,
        "shrunk": figures.shrunk,
        "previewSufficiency": {
            "used": s.used, "visible": s.visible,
            "newUsed": s.new_used, "newVisible": s.new_visible,
        },
        "laterTurns": figures.later_turns,
        "results": figures.results,
        "cacheReadChars": figures.cache_read_chars,
        "cacheReadTokens": figures.cache_read_tokens,
        "charsSaved": share(none.chars as f64 - figures.chars as f64, none.chars as f64),
        "cacheCostSaved": share(
            none.cache_cost(prices.read, prices.write) - cost,
            none.cache_cost(prices.read, prices.write),
        ),
        "artifacts": artifacts,
    });
    out["tools"] = tools_json(figures);
    if let Some(n) = needles {
        out["needles"] = json!({ "found": n.found, "total": n.total });
    }
    if let Some(r) = rewrites {
        out["plannedRewrites"] = json!(r);
    }
    out
}

/// Each tool's figures, the tool whose results held the most characters first.
fn tools_json(figures: &Figures) -> Value {
    let mut tools: Vec<_> = figures.tools.iter().collect();
    tools.sort_by(|a, b| {
        b.chars_before
            .cmp(&a.chars_before)
            .then(a.tool.cmp(&b.tool))
    });
    tools
        .into_iter()
        .map(|t| {
            let s = &t.sufficiency;
            json!({
                "tool": t.tool,
                "results": t.results,
                "shrunk": t.shrunk,
                "charsBefore": t.chars_before,
                "charsAfter": t.chars_after,
                "previewSufficiency": {
                    "used": s.used, "visible": s.visible,
                    "newUsed": s.new_used, "newVisible": s.new_visible,
                },
            })
        })
        .collect()
}

/// `part / whole` to 4 decimals, `null` when `whole` is 0.
fn share(part: f64, whole: f64) -> Value {
    if whole > 0.0 {
        json!((part / whole * 10_000.0).round() / 10_000.0)
    } else {
        Value::Null
    }
}

/// To 2 decimals.
fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The whole report as one JSON object.
pub fn to_json(replayed: &[Replayed], policies: &[Policy], prices: Prices) -> Value {
    let conversations: Vec<Value> = replayed
        .iter()
        .map(|r| {
            let none = &r.runs[0].figures;
            let mut by_policy = Map::new();
            for run in &r.runs {
                let rewrites = rewrites_of(run.policy, run.rewrites);
                let p = policy_json(
                    &run.figures,
                    none,
                    run.artifacts,
                    run.needles,
                    rewrites,
                    prices,
                );
                by_policy.insert(run.policy.name().into(), p);
            }
            json!({ "input": r.input, "turns": r.turns, "policies": by_policy })
        })
        .collect();
    let none = total(replayed, Policy::None).figures;
    let mut totals = Map::new();
    for &policy in policies {
        let t = total(replayed, policy);
        let rewrites = rewrites_of(policy, t.rewrites);
        let p = policy_json(&t.figures, &none, t.artifacts, t.needles, rewrites, prices);
        totals.insert(policy.name().into(), p);
    }
    json!({
        "conversations": conversations,
        "totals": { "turns": none.turns, "policies": totals },
        "prices": { "cacheRead": prices.read, "cacheWrite": prices.write },
    })
}

/// The totals as a table, one row per policy.
pub fn to_text(replayed: &[Replayed], policies: &[Policy], prices: Prices) -> String {
    let none = total(replayed, Policy::None).figures;
    let mut rows = vec![[
        "policy",
        "chars sent",
        "saved",
        "tokens",
        "cache cost",
        "saved",
        "prefix-stable",
        "shrunk",
        "ids visible",
        "new ids visible",
        "needles",
    ]
    .map(String::from)];
    for &policy in policies {
        let Total {
            figures: f,
            needles,
            rewrites,
            ..
        } = total(replayed, policy);
        let cost = f.cache_cost(prices.read, prices.write);
        let none_cost = none.cache_cost(prices.read, prices.write);
        let s = &f.sufficiency;
        rows.push([
            policy.name().to_owned(),
            thousands(f.chars),
            percent(none.chars as f64 - f.chars as f64, none.chars as f64),
            thousands(f.tokens),
            thousands(cost.round() as u64),
            percent(none_cost - cost, none_cost),
            match rewrites_of(policy, rewrites) {
                Some(r) => format!("{}/{} ({r} planned)", f.stable_turns, f.later_turns),
                None => format!("{}/{}", f.stable_turns, f.later_turns),
            },
            format!("{}/{}", f.shrunk, f.results),
            ratio(s.visible, s.used),
            ratio(s.new_visible, s.new_used),
            needles.map_or_else(|| "—".to_owned(), |n| format!("{}/{}", n.found, n.total)),
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = format!(
        "{}, {}; cache: read {}×, write {}× (tokens estimated)\n\n",
        count(replayed.len(), "conversation"),
        count(none.turns, "turn"),
        prices.read,
        prices.write
    );
    for (k, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, &w))| {
                let pad = " ".repeat(w - cell.chars().count());
                if i == 0 {
                    format!("{cell}{pad}")
                } else {
                    format!("{pad}{cell}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
        if k == 0 {
            let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
            out.push_str(&rule.join("  "));
            out.push('\n');
        }
    }
    out
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn percent(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{:.1} %", 100.0 * part / whole)
    } else {
        "—".to_owned()
    }
}

fn ratio(hit: usize, of: usize) -> String {
    if of == 0 {
        return "—".to_owned();
    }
    format!("{:.1} % ({hit}/{of})", 100.0 * hit as f64 / of as f64)
}
