//! The TypeScript declarations the npm package ships (`wasm/ts/*.d.ts`) name exactly the
//! keys core reads from an options object and the keys of the values core returns to
//! every host. A key added on one side only fails here, not in a user's hands (an option
//! TypeScript refuses, or one it accepts that core then rejects as unknown).

use std::collections::BTreeSet;

use tool_offload_core::gc::GcReport;
use tool_offload_core::materialize::{Cleared, MaterializeStats};
use tool_offload_core::option_keys::{
    BUDGET_KEYS, MATERIALIZER_KEYS, TOOL_ENTRY_KEYS, WORKSPACE_KEYS,
};
use tool_offload_core::options::{materializer_options, materializer_options_shown, Given};
use tool_offload_core::OffloadError;

const DECLARATIONS: [&str; 4] = [
    include_str!("../../wasm/ts/materializer.d.ts"),
    include_str!("../../wasm/ts/conversation.d.ts"),
    include_str!("../../wasm/ts/workspace.d.ts"),
    include_str!("../../wasm/ts/shared.d.ts"),
];

/// The members of `export interface <name>` (with those of the interfaces it extends),
/// each with whether it is optional (`key?:`).
fn members(name: &str) -> Vec<(String, bool)> {
    let opening = format!("export interface {name} ");
    let body = DECLARATIONS
        .iter()
        .find_map(|text| {
            let start = text.find(&opening)?;
            let rest = &text[start..];
            Some(&rest[..rest.find("\n}\n")?])
        })
        .unwrap_or_else(|| panic!("no `export interface {name}` in wasm/ts"));
    let header = body.lines().next().unwrap_or_default();
    let mut found = Vec::new();
    if let Some(parents) = header.split(" extends ").nth(1) {
        for parent in parents.trim_end_matches('{').split(',') {
            let parent = parent.trim().split('<').next().unwrap_or_default();
            found.extend(members(parent));
        }
    }
    for line in body.lines().skip(1) {
        // A member of this interface, not of a nested type: two spaces, then its name.
        let Some(member) = line.strip_prefix("  ") else {
            continue;
        };
        let name_end = member
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(member.len());
        let (key, after) = member.split_at(name_end);
        if key.is_empty() {
            continue;
        }
        match after {
            a if a.starts_with("?:") => found.push((key.to_owned(), true)),
            a if a.starts_with(':') => found.push((key.to_owned(), false)),
            _ => {}
        }
    }
    found
}

fn keys(name: &str) -> BTreeSet<String> {
    members(name).into_iter().map(|(key, _)| key).collect()
}

fn set(keys: &[&str]) -> BTreeSet<String> {
    keys.iter().map(|k| (*k).to_owned()).collect()
}

fn value_keys(value: &serde_json::Value) -> BTreeSet<String> {
    value
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect()
}

#[test]
fn the_options_declared_are_the_options_core_reads() {
    assert_eq!(keys("MaterializerOptions"), set(MATERIALIZER_KEYS));
    assert_eq!(keys("WorkspaceOptions"), set(WORKSPACE_KEYS));
    assert_eq!(keys("BudgetCallOptions"), set(BUDGET_KEYS));
    assert_eq!(keys("ToolLimits"), set(TOOL_ENTRY_KEYS));
}

#[test]
fn the_results_declared_are_the_values_core_returns() {
    let stats = MaterializeStats::default().to_value();
    assert_eq!(keys("MaterializeStats"), value_keys(&stats));
    assert_eq!(
        keys("GcReport"),
        value_keys(&GcReport::default().to_value())
    );
    let cleared = Cleared {
        message: 0,
        tool_call_id: String::new(),
        tool_name: String::new(),
        reference: String::new(),
        chars: 0,
        tokens: 0,
    };
    assert_eq!(keys("ClearedResult"), value_keys(&cleared.to_value()));
}

/// The options shown back: the declaration's required keys are those always shown, and
/// all its keys those shown when every option is given.
#[test]
fn the_resolved_options_declared_are_those_core_shows() {
    let shown = |options: serde_json::Value| {
        let given = Given::from(&options);
        let read = materializer_options(&given, |_| Ok::<_, OffloadError>("/".to_owned()));
        value_keys(&materializer_options_shown(&read.expect("valid options")))
    };
    let least = shown(serde_json::json!({ "userData": "/u", "conversationId": "c" }));
    let most = shown(serde_json::json!({
        "userData": "/u",
        "conversationId": "c",
        "snippetBytes": 2048,
        "offloadDir": "/o",
        "tools": { "bash": { "maxInlineChars": 10 } },
        "redact": true,
        "messageBudgetChars": 100000,
        "contextWindow": { "tokens": 200000 },
    }));
    let declared = members("ResolvedMaterializerOptions");
    let required = declared.iter().filter(|(_, optional)| !optional);
    assert_eq!(
        required
            .map(|(key, _)| key.clone())
            .collect::<BTreeSet<_>>(),
        least
    );
    assert_eq!(keys("ResolvedMaterializerOptions"), most);
}
