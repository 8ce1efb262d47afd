//! The messages every host refuses options with, pinned here once.

use super::*;
use crate::error::OffloadError;
use crate::limits::tool_limits::MaterializeWhen;
use crate::read::Within;
use serde_json::json;

fn given(value: serde_json::Value) -> Given {
    Given::from(&value)
}

fn root(_: &str) -> Result<String, OffloadError> {
    Ok("/".into())
}

fn materializer_err(value: serde_json::Value) -> String {
    materializer_options(&given(value), root)
        .unwrap_err()
        .to_string()
}

fn base(extra: serde_json::Value) -> serde_json::Value {
    let mut o = json!({"userData": "/d", "conversationId": "c"});
    for (k, v) in extra.as_object().unwrap() {
        o[k] = v.clone();
    }
    o
}

#[test]
fn materializer_options_refused_in_the_npm_packages_words() {
    let cases = [
        (json!(null), "options must be an object with userData, conversationId and writer, got null"),
        (json!("x"), "options must be an object with userData, conversationId and writer, got string"),
        (json!({"conversationId": "c"}), "options.userData must be a string, got undefined"),
        (json!({"userData": "/d"}), "id conversationId: is missing"),
        (json!({"userData": "/d", "conversationId": 3}), "id conversationId: must be a string"),
        (base(json!({"maxInlineChars": -1})), "options.maxInlineChars must be a non-negative integer, got -1"),
        (base(json!({"maxInlineBytes": 1.5})), "options.maxInlineBytes must be a non-negative integer, got 1.5"),
        (base(json!({"snippetLines": "40"})), "options.snippetLines must be a non-negative integer, got 40"),
        (base(json!({"snippetLines": null})), "options.snippetLines must be a non-negative integer, got null"),
        (base(json!({"offloadDir": 1})), "options.offloadDir must be a string when given, got number"),
        (base(json!({"tools": ["Read"]})), "options.tools must be an object of tool names, got array"),
        (base(json!({"tools": 5})), "options.tools must be an object of tool names, got number"),
        (base(json!({"tools": {"Read": 5}})), r#"options.tools["Read"] must be an object, got number"#),
        (base(json!({"tools": {"Read": {"materialize": 1}}})), r#"options.tools["Read"].materialize must be "never" or "always", got number"#),
        (base(json!({"tools": {"Read": {"maxInlineChars": [1, 2]}}})), r#"options.tools["Read"].maxInlineChars must be a non-negative integer, got 1,2"#),
        (base(json!({"tools": {"Read": {"maxInlineChar": 1}}})), r#"options.tools["Read"].maxInlineChar is not a tools entry field (did you mean maxInlineChars?)"#),
        (base(json!({"redact": "yes"})), "options.redact must be a boolean or { patterns?: [], replace?: string }, got string"),
        (base(json!({"redact": {"patterns": "x"}})), "options.redact must be a boolean or { patterns?: [], replace?: string }, got object"),
        (base(json!({"redact": {"patterns": [3]}})), "options.redact.patterns[0] must be a string, a RegExp or { pattern, kind?, ignoreCase? }, got number"),
        (base(json!({"redact": {"patterns": [{"pattern": "x", "ignoreCase": "yes"}]}})), "options.redact.patterns[0] must be a string, a RegExp or { pattern, kind?, ignoreCase? }, got object"),
        (base(json!({"messageBudgetChars": {}})), "options.messageBudgetChars must be a non-negative integer, got [object Object]"),
        (base(json!({"contextWindow": 5})), "options.contextWindow must be an object { tokens, resultShare? }, got number"),
        (base(json!({"contextWindow": null})), "options.contextWindow must be an object { tokens, resultShare? }, got null"),
        (base(json!({"contextWindow": {}})), "options.contextWindow.tokens is required"),
        (base(json!({"contextWindow": {"tokens": 10, "resultShare": "a"}})), "contextWindow.resultShare must be a number over 0 and at most 1, got string"),
        (base(json!({"maxInlineTokens": 5})), r#"options.maxInlineTokens is not a Materializer option: it belongs in a tools entry (options.tools["*"].maxInlineTokens for every tool)"#),
    ];
    for (value, message) in cases {
        assert_eq!(
            materializer_err(value.clone()),
            match message.strip_prefix("id ") {
                Some(id) => format!("invalid {id}"),
                None => format!("invalid argument: {message}"),
            },
            "{value}"
        );
    }
}

#[test]
fn a_lone_surrogate_in_an_id_is_an_invalid_id() {
    let mut options = given(base(json!({})));
    if let Given::Object(fields) = &mut options {
        fields[1].1 = Given::Text {
            text: "\u{fffd}".into(),
            well_formed: false,
        };
    }
    let err = materializer_options(&options, root).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid conversationId: contains a lone UTF-16 surrogate"
    );
}

#[test]
fn materializer_options_read_every_field_and_show_them_back() {
    let value = base(json!({
        "cwd": "/home",
        "maxInlineChars": 10,
        "maxInlineBytes": 20,
        "snippetLines": 3,
        "snippetBytes": 4,
        "offloadDir": "out",
        "redact": {"patterns": ["ab+", {"pattern": "cd", "kind": "k", "ignoreCase": true}, {"source": "ef", "flags": "gi"}], "replace": "X"},
        "messageBudgetChars": 5,
        "contextWindow": {"tokens": 100, "resultShare": 0.5},
        "tools": {"Read": {"materialize": "never", "maxInlineTokens": 7}, "*": {"materialize": "always"}},
        "writer": {},
    }));
    let mut cwd_asked = None;
    let options = materializer_options(&given(value), |dir: &str| {
        cwd_asked = Some(dir.to_owned());
        Ok::<_, OffloadError>("/w".into())
    })
    .unwrap();
    assert_eq!(cwd_asked.as_deref(), Some("/d"));
    assert_eq!(options.tools[0].1.materialize, Some(MaterializeWhen::Never));
    assert_eq!(
        options.tools[1].1.materialize,
        Some(MaterializeWhen::Always)
    );
    let shown = materializer_options_shown(&options);
    assert_eq!(
        crate::json::stringify(&shown),
        r#"{"userData":"/d","conversationId":"c","cwd":"/w","maxInlineChars":10,"maxInlineBytes":20,"snippetLines":3,"snippetBytes":4,"offloadDir":"out","redact":{"patterns":[{"pattern":"ab+","kind":"custom","ignoreCase":false},{"pattern":"cd","kind":"k","ignoreCase":true},{"pattern":"ef","kind":"custom","ignoreCase":true}],"replace":"X"},"messageBudgetChars":5,"contextWindow":{"tokens":100,"resultShare":0.5},"tools":{"Read":{"maxInlineTokens":7,"materialize":"never"},"*":{"materialize":"always"}}}"#
    );
    let defaults = materializer_options(&given(base(json!({"redact": true}))), root).unwrap();
    assert_eq!(
        crate::json::stringify(&materializer_options_shown(&defaults)),
        r#"{"userData":"/d","conversationId":"c","cwd":"/","maxInlineChars":4000,"maxInlineBytes":16384,"snippetLines":40,"redact":true}"#
    );
}

#[test]
fn workspace_options_refused_and_read() {
    let parse = crate::workspace::WorkspaceOptions::at("/").parse_json;
    let err = |value| {
        workspace_options(&given(value), root, parse)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(json!([])),
        "invalid argument: options.root must be a string, got undefined"
    );
    assert_eq!(
        err(json!(1)),
        "invalid argument: options must be an object with root and writer, got number"
    );
    assert_eq!(
        err(json!({})),
        "invalid argument: options.root must be a string, got undefined"
    );
    assert_eq!(
        err(json!({"root": "/w", "namespace": 1})),
        "invalid namespace: must be a string"
    );
    assert_eq!(
        err(json!({"root": "/w", "agentId": 1})),
        "invalid argument: options.agentId must be a string when given, got number"
    );
    assert_eq!(
        err(json!({"root": "/w", "offloadTools": "Read"})),
        "invalid argument: options.offloadTools must be an array of tool names, got string"
    );
    assert_eq!(
        err(json!({"root": "/w", "offloadTools": [1]})),
        "invalid argument: options.offloadTools must hold tool names (strings), got number"
    );
    assert_eq!(err(json!({"root": "/w", "tokenThresold": 1})), "invalid argument: options.tokenThresold is not a Workspace option (did you mean tokenThreshold?)");
    let read = workspace_options(
        &given(json!({"root": "w", "namespace": "n", "sessionId": null, "offloadTools": ["Bash"], "inlineLimit": 9})),
        |dir: &str| Ok::<_, OffloadError>(format!("/cwd-for-{dir}")),
        parse,
    )
    .unwrap();
    assert_eq!(
        (
            read.cwd.as_str(),
            read.namespace.as_str(),
            read.session_id,
            read.offload_tools,
            read.inline_limit
        ),
        ("/cwd-for-w", "n", None, vec!["Bash".to_owned()], 9)
    );
}

#[test]
fn call_options_read_pages_flags_and_limits() {
    let args = read_args(&given(
        json!({"offset": 3, "part": 2, "limit": 9, "path": "$.a"}),
    ))
    .unwrap();
    assert_eq!(
        (args.offset, args.within, args.limit, args.path.as_deref()),
        (3, Within::Part(2), 9, Some("$.a"))
    );
    let args = read_args(&given(json!({"part": 2, "char": 7}))).unwrap();
    assert_eq!(args.within, Within::Char(7), "char wins over part");
    let err = |r: Result<ReadArgs, OffloadError>| r.unwrap_err().to_string();
    assert_eq!(
        err(read_args(&Given::Number(1.0))),
        "invalid argument: options must be an object when given, got number"
    );
    assert_eq!(
        err(read_args(&given(json!({"offset": -1})))),
        "invalid argument: options.offset must be a non-negative integer, got -1"
    );
    assert_eq!(
        err(read_args(&given(json!({"limit": 4294967296u64})))),
        "invalid argument: options.limit must be at most 4294967295, got 4294967296"
    );
    assert!(read_args(&Given::Null).is_ok());
    let grep = grep_args(&given(
        json!({"context": 0, "maxMatches": 3, "ignoreCase": true}),
    ))
    .unwrap();
    assert_eq!(
        (grep.context, grep.max_matches, grep.ignore_case),
        (0, 3, true)
    );
    let grep_err = grep_args(&given(json!({"ignoreCase": "yes"}))).unwrap_err();
    assert_eq!(
        grep_err.to_string(),
        "invalid argument: options.ignoreCase must be a boolean, got yes"
    );
    let infinite = grep_args(&Given::Object(vec![(
        "maxMatches".into(),
        Given::Number(f64::INFINITY),
    )]));
    assert_eq!(
        infinite.unwrap_err().to_string(),
        "invalid argument: options.maxMatches must be a non-negative integer, got Infinity"
    );
}

#[test]
fn gc_and_budget_options() {
    let gc = gc_options(&given(json!({"olderThanMs": 5e12, "dryRun": true})), 7).unwrap();
    assert_eq!(
        (gc.older_than_ms, gc.max_bytes, gc.dry_run, gc.now_ms),
        (Some(5_000_000_000_000), None, true, 7)
    );
    let err = |value| gc_options(&given(value), 0).unwrap_err().to_string();
    assert_eq!(
        err(json!({})),
        "invalid argument: say what to remove: options.olderThanMs and/or options.maxBytes"
    );
    assert_eq!(
        err(json!({"maxBytes": 1.5})),
        "invalid argument: options.maxBytes must be a non-negative integer, got 1.5"
    );
    assert_eq!(
        err(json!({"maxBytes": 1, "dryRun": "yes"})),
        "invalid argument: options.dryRun must be a boolean, got yes"
    );
    let budget = budget_options(&given(
        json!({"triggerTokens": 10, "keepLast": 1, "excludeTools": ["Read"]}),
    ))
    .unwrap();
    assert_eq!(
        (
            budget.trigger_tokens,
            budget.keep_last,
            budget.exclude_tools
        ),
        (10, 1, vec!["Read".to_owned()])
    );
    let err = |value| budget_options(&given(value)).unwrap_err().to_string();
    assert_eq!(
        err(json!({})),
        "invalid argument: budget: triggerTokens is required"
    );
    assert_eq!(
        err(json!({"triggerTokens": 1, "excludeTools": [1, "a"]})),
        "invalid argument: excludeTools must be an array of strings, got 1,a"
    );
    assert_eq!(
        err(json!({"triggerTokens": 1, "keepLst": 1})),
        "invalid argument: options.keepLst is not a budget option (did you mean keepLast?)"
    );
}

#[test]
fn a_registry_offload() {
    let offload = result_offload(
        &given(json!({"outputDir": "/o", "sessionId": "s", "thresholdChars": 5})),
        root,
    )
    .unwrap();
    assert_eq!(
        (
            offload.output_dir.as_str(),
            offload.session_id.as_str(),
            offload.threshold_chars
        ),
        ("/o", "s", 5)
    );
    let err = |value| result_offload(&given(value), root).unwrap_err().to_string();
    assert_eq!(
        err(json!({"sessionId": "s"})),
        "invalid argument: offload.outputDir must be a string, got undefined"
    );
    assert_eq!(
        err(json!({"outputDir": "/o"})),
        "invalid argument: offload.sessionId must be a string, got undefined"
    );
    assert_eq!(
        err(json!({"outputDir": "/o", "sessionId": "s", "thresholdChars": -1})),
        "invalid argument: offload.thresholdChars must be a non-negative integer, got -1"
    );
}

#[test]
fn values_are_shown_as_javascript_shows_them() {
    let shown = |g: Given| (g.type_of().to_owned(), g.shown());
    assert_eq!(
        shown(Given::Number(1e21)),
        ("number".into(), "1e+21".into())
    );
    assert_eq!(shown(Given::Number(-0.0)), ("number".into(), "0".into()));
    assert_eq!(
        shown(given(json!([1, null, "a", [2, 3]]))),
        ("object".into(), "1,,a,2,3".into())
    );
    assert_eq!(
        shown(Given::Undefined),
        ("undefined".into(), "undefined".into())
    );
    assert_eq!(
        shown(Given::Bool(false)),
        ("boolean".into(), "false".into())
    );
    let function = Given::Other {
        type_of: "function".into(),
        shown: "() => 1".into(),
    };
    assert_eq!(shown(function), ("function".into(), "() => 1".into()));
    assert_eq!(
        count(&Given::Number(9007199254740992.0), "n", 0)
            .unwrap_err()
            .to_string(),
        "invalid argument: n must be a non-negative integer, got 9007199254740992"
    );
}

#[test]
fn working_dir_asks_the_host_only_for_a_relative_dir() {
    let asked = std::cell::Cell::new(0);
    let host = || {
        asked.set(asked.get() + 1);
        Ok::<_, OffloadError>(Some("/home".to_owned()))
    };
    assert_eq!(working_dir(&Given::Undefined, "/abs", host).unwrap(), "/");
    assert_eq!(
        working_dir(&Given::Undefined, "rel", host).unwrap(),
        "/home"
    );
    let cwd = given(json!({"cwd": "/given"}));
    assert_eq!(working_dir(&cwd, "rel", host).unwrap(), "/given");
    assert_eq!(asked.get(), 1);
    let bad = given(json!({"cwd": 5}));
    assert_eq!(
        working_dir(&bad, "rel", host).unwrap_err().to_string(),
        "invalid argument: options.cwd must be a string, got number"
    );
    let browser = || Ok::<_, OffloadError>(None);
    assert_eq!(working_dir(&Given::Undefined, "rel", browser).unwrap(), "/");
}

#[test]
fn counts_are_read_in_order_over_their_defaults() {
    let (mut a, mut b, mut c) = (1, 2, 3);
    counts(
        &given(json!({"b": 20, "c": null})),
        &mut [("a", &mut a), ("b", &mut b)],
    )
    .unwrap();
    assert_eq!((a, b, c), (1, 20, 3));
    // The first wrong one is the error, and nothing after it is read.
    let err = counts(
        &given(json!({"a": -1, "c": 1.5})),
        &mut [("a", &mut a), ("c", &mut c)],
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid argument: options.a must be a non-negative integer, got -1"
    );
    assert_eq!(c, 3);
    let both_wrong = base(json!({"maxInlineChars": "x", "maxInlineBytes": -1}));
    assert_eq!(
        materializer_err(both_wrong),
        "invalid argument: options.maxInlineChars must be a non-negative integer, got x"
    );
}
