//! Issue 29, "Nothing hung": lines the MCP proxy once skipped, leaving the request they
//! answered (or were) waiting forever. Lone surrogates parse as `JSON.parse` parses them,
//! nesting is read 1,000 levels deep and relayed untouched deeper, and whatever cannot be
//! relayed is answered with an error naming the cause: every request gets exactly one
//! answer. Each test waits at most `ANSWER_TIMEOUT` for a line, so a request left
//! unanswered fails it instead of hanging.

mod mcp_session;

use mcp_session::Session;
use serde_json::{json, Value};

/// `{"jsonrpc":"2.0","id":<id>,"method":<method>}` with `params`.
fn request(id: Value, method: &str, params: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string()
}

/// `n` nested arrays around `"x"`.
fn nested(n: usize) -> String {
    format!("{}\"x\"{}", "[".repeat(n), "]".repeat(n))
}

/// Shell that sets `$L` and `$R` to `n` opening and closing brackets.
fn brackets(n: usize) -> String {
    format!(
        r"L=$(head -c {n} /dev/zero | tr '\0' '\133'); R=$(head -c {n} /dev/zero | tr '\0' '\135')"
    )
}

#[test]
fn upstream_text_ending_in_half_an_emoji_is_relayed_and_stored_as_u_fffd() {
    let script = r#"
read line
cat <<'X'
{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"cut","version":"1"},"instructions":"cut \ud83d"}}
X
read line
cat <<'X'
{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"cut \ud83d"}]}}
X
read line
printf '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"%s\\ud83d"}],"_meta":{"n":"\\udc00"}}}\n' "$(head -c 20000 /dev/zero | tr '\0' a)"
read line
"#;
    let mut proxy = Session::start(script);
    // Patched (capabilities), the lone surrogate back as the escape it came as.
    proxy.send(&request(json!(1), "initialize", json!({})));
    assert_eq!(
        proxy.receive_line(),
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"cut","version":"1"},"instructions":"cut \ud83d"}}"#
    );
    // Within the limits: the very line the upstream printed.
    proxy.send(&request(json!(2), "tools/call", json!({ "name": "cut" })));
    assert_eq!(
        proxy.receive_line(),
        r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"cut \ud83d"}]}}"#
    );
    // Over the limits: stored with U+FFFD, as every host writes a lone surrogate.
    let big = proxy.call(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": { "name": "cut" } }));
    let uri = big["result"]["content"][1]["uri"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(big["result"]["_meta"], json!({ "n": "\u{FFFD}" }));
    let read = proxy.call(
        json!({ "jsonrpc": "2.0", "id": 4, "method": "resources/read",
        "params": { "uri": uri } }),
    );
    let want = format!("{}\u{FFFD}", "a".repeat(20000));
    assert_eq!(read["result"]["contents"][0]["text"], want);
    drop(proxy.stdin.take());
    assert!(proxy.child.wait().unwrap().success());
}

#[test]
fn results_200_deep_are_relayed_and_10_000_deep_answered_without_a_crash() {
    let script = format!(
        r#"{deep200}
read line
printf '{{"jsonrpc":"2.0","id":1,"result":{{"deep":%s"x"%s}}}}\n' "$L" "$R"
read line
printf '{{"jsonrpc":"2.0","id":2,"result":{{"content":[{{"type":"text","text":"rows"}}],"structuredContent":{{"deep":%s"%s"%s}}}}}}\n' "$L" "$(head -c 5000 /dev/zero | tr '\0' a)" "$R"
{deep10000}
read line
printf '{{"jsonrpc":"2.0","id":3,"result":{{"content":[{{"type":"text","text":"rows"}}],"structuredContent":{{"deep":%s"x"%s}}}}}}\n' "$L" "$R"
read line
printf '{{"jsonrpc":"2.0","id":4,"result":{{"deep":%s"x"%s}}}}\n' "$L" "$R"
read line
echo '{{"jsonrpc":"2.0","id":5,"result":{{}}}}'
read line
"#,
        deep200 = brackets(200),
        deep10000 = brackets(10_000),
    );
    let mut proxy = Session::start(&script);
    // Nothing to patch: relayed as it came.
    proxy.send(&request(json!(1), "ping", json!({})));
    let want = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"deep":{}}}}}"#,
        nested(200)
    );
    assert_eq!(proxy.receive_line(), want);
    // Read, and its structuredContent stored.
    let stored = proxy.call(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "rows" } }));
    assert!(stored["result"].get("structuredContent").is_none());
    assert_eq!(stored["result"]["content"][2]["type"], "resource_link");
    // Too deep to materialize: an error naming the cause.
    let deep = proxy.call(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": { "name": "rows" } }));
    assert_eq!(
        deep,
        json!({ "jsonrpc": "2.0", "id": 3, "error": { "code": -32603, "message":
            "tool-offload proxy: cannot relay the upstream MCP server's response: nested 10003 levels deep, more than the 1000 the proxy reads" } })
    );
    // Too deep to read but nothing to patch: relayed as it came.
    proxy.send(&request(json!(4), "ping", json!({})));
    let want = format!(
        r#"{{"jsonrpc":"2.0","id":4,"result":{{"deep":{}}}}}"#,
        nested(10_000)
    );
    assert_eq!(proxy.receive_line(), want);
    // Still up.
    let ping = proxy.call(json!({ "jsonrpc": "2.0", "id": 5, "method": "ping" }));
    assert_eq!(ping, json!({ "jsonrpc": "2.0", "id": 5, "result": {} }));
    drop(proxy.stdin.take());
    assert!(proxy.child.wait().unwrap().success());
}

#[test]
fn client_requests_with_half_an_emoji_or_unreadable_are_answered() {
    let script = r#"
read -r line
printf '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"got it"}],"structuredContent":{"request":%s}}}\n' "$line"
read line
"#;
    let mut proxy = Session::start(script);
    // Relayed upstream as it was sent; the answer (echoing it) comes back as it came.
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"half \ud83d"}}}"#;
    proxy.send(call);
    assert_eq!(
        proxy.receive_line(),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{{"type":"text","text":"got it"}}],"structuredContent":{{"request":{call}}}}}}}"#
        )
    );
    // Answered by the proxy, to the id as sent (a lone surrogate in it too).
    proxy.send(
        r#"{"jsonrpc":"2.0","id":"g\udc00","method":"tools/call","params":{"name":"context_grep","arguments":{"ref":"ctx://c/tool/x\ud83d.txt","pattern":"a"}}}"#,
    );
    let grep = proxy.receive_line();
    assert!(
        grep.starts_with(
            r#"{"jsonrpc":"2.0","id":"g\udc00","result":{"content":[{"type":"text","text":"#
        ),
        "{grep}"
    );
    assert!(grep.ends_with(r#""isError":true}}"#), "{grep}");
    // Not JSON, but its id can be told: a parse error to that id.
    proxy.send(r#"{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":tru}}"#);
    let parse = proxy.receive();
    assert_eq!(parse["id"], 9);
    assert_eq!(parse["error"]["code"], -32700);
    assert_eq!(
        parse["error"]["message"],
        "tool-offload proxy: cannot relay a request from the client: not valid JSON (expected ident at line 1 column 58)"
    );
    // Too deep to route: an error to its id.
    proxy.send(&format!(
        r#"{{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{{"name":"echo","arguments":{{"a":{}}}}}}}"#,
        nested(5000)
    ));
    let deep = proxy.receive();
    assert_eq!(deep["id"], 10);
    assert_eq!(
        deep["error"]["message"],
        "tool-offload proxy: cannot relay a request from the client: nested 5003 levels deep, more than the 1000 the proxy reads"
    );
    drop(proxy.stdin.take());
    assert!(proxy.child.wait().unwrap().success());
}

#[test]
fn an_unreadable_answer_to_a_pending_request_is_an_error_naming_the_cause() {
    let script = r#"
read line
printf '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"bad \\x"}]}}\n'
read line
printf '{"jsonrpc":"2.0","id":"two","result":{"text":"\377 not UTF-8"}}\n'
read line
echo '{"jsonrpc":"2.0","id":3,"result":{"n":1e400}}'
read line
echo '{"jsonrpc":"2.0","id":4,"result":{"tools":[],"n":1e400}}'
read line
echo '{"jsonrpc":"2.0","id":5,"result":{}}'
read line
"#;
    let mut proxy = Session::start(script);
    let bad = proxy.call(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "bad" } }));
    assert_eq!(
        bad,
        json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32603, "message":
            "tool-offload proxy: cannot relay the upstream MCP server's response: not valid JSON (invalid escape at line 1 column 74)" } })
    );
    // A byte that is not UTF-8 is U+FFFD, as Node decodes it.
    let lossy = proxy.call(json!({ "jsonrpc": "2.0", "id": "two", "method": "ping" }));
    assert_eq!(lossy["result"]["text"], "\u{FFFD} not UTF-8");
    // JSON.parse reads 1e400 (as Infinity): relayed as it came when nothing is patched…
    proxy.send(&request(json!(3), "ping", json!({})));
    assert_eq!(
        proxy.receive_line(),
        r#"{"jsonrpc":"2.0","id":3,"result":{"n":1e400}}"#
    );
    // … and an error when the proxy would have to patch it.
    let list = proxy.call(json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/list" }));
    assert_eq!(list["id"], 4);
    assert_eq!(
        list["error"]["message"],
        "tool-offload proxy: cannot relay the upstream MCP server's response: not readable by the proxy (number out of range at line 1 column 54)"
    );
    // Exactly one answer each: the next line is the next request's.
    let ping = proxy.call(json!({ "jsonrpc": "2.0", "id": 5, "method": "ping" }));
    assert_eq!(ping, json!({ "jsonrpc": "2.0", "id": 5, "result": {} }));
    let stderr = proxy.stderr();
    assert!(
        stderr.contains("tool-offload mcp proxy: the upstream's answer to request 1 cannot be relayed (not valid JSON (invalid escape"),
        "{stderr}"
    );
    drop(proxy.stdin.take());
    assert!(proxy.child.wait().unwrap().success());
}

#[test]
fn a_request_the_upstream_can_no_longer_read_is_an_error() {
    // The upstream closes its stdin, says so, and lingers.
    let script = r#"
exec 0<&-
echo '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"stdin closed"}}'
sleep 3
"#;
    let mut proxy = Session::start(script);
    assert_eq!(proxy.receive()["method"], "notifications/message");
    for id in [1, 2] {
        let answer = proxy.call(json!({ "jsonrpc": "2.0", "id": id, "method": "ping" }));
        assert_eq!(answer["id"], id);
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("tool-offload proxy: cannot write to the upstream MCP server (")
                && message.ends_with("), so it never got this request"),
            "{message}"
        );
    }
    drop(proxy.stdin.take());
    assert!(proxy.child.wait().unwrap().success());
}
