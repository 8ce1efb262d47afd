//! `tool-offload mcp` driven line by line: the proxy in front of a scripted upstream
//! (`sh`) — what crosses unchanged, what is patched, materialized or answered locally,
//! and what the client gets when the upstream prints garbage or exits mid-call — and
//! `mcp serve`. (The tests with real MCP SDK clients and servers are in
//! host-node/test/mcp-*.test.ts.)

mod mcp_session;

use std::process::{Command, Stdio};

use mcp_session::Session;
use serde_json::{json, Value};

/// The scripted upstream: asks the client for its roots with the same id as the
/// client's `initialize`, answers that after an empty and a garbage line, echoes the next
/// message it reads inside a notification, answers one `tools/call` with a 20,000
/// character text, then reads a request and its cancellation and exits 3 on the next
/// request.
const UPSTREAM: &str = r#"
read line
echo '{"jsonrpc":"2.0","id":1,"method":"roots/list"}'
echo ''
echo 'this is not JSON-RPC'
echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"logging":{}},"serverInfo":{"name":"canned","version":"1"},"vendorField":"kept"}}'
read line
printf '{"jsonrpc":"2.0","method":"notifications/echo","params":{"got":%s}}\n' "$line"
read line
printf '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"big","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}],"nextCursor":"p2"}}\n'
read line
printf '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"%s"}],"isError":true,"x-extra":[1]}}\n' "$(head -c 20000 /dev/zero | tr '\0' a)"
read line
read line
read line
exit 3
"#;

#[test]
fn relays_patches_materializes_and_survives_the_upstream() {
    let mut proxy = Session::start(UPSTREAM);

    // initialize: the garbage line is skipped, capabilities gain tools and resources,
    // unknown fields stay.
    // The upstream's own request is relayed as it is, even with the id of a pending one.
    let roots = proxy.call(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } }));
    assert_eq!(
        roots,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "roots/list" })
    );
    let init = proxy.receive();
    assert_eq!(
        init["result"]["capabilities"],
        json!({ "logging": {}, "tools": {}, "resources": {} })
    );
    assert_eq!(init["result"]["vendorField"], "kept");
    assert_eq!(
        proxy.stderr().matches("not JSON-RPC").count(),
        2,
        "{}",
        proxy.stderr()
    );
    assert!(proxy.stderr().contains(
        "tool-offload mcp proxy: the upstream printed a line that is not JSON-RPC (expected ident at line 1 column 2), skipped: this is not JSON-RPC"
    ), "{}", proxy.stderr());

    // A custom notification reaches the upstream as the very line sent.
    let custom = r#"{"jsonrpc":"2.0","method":"vendor/notify","params":{"x":[1,2.50,"é"]}}"#;
    proxy.send(custom);
    assert_eq!(
        proxy.receive_line(),
        format!(r#"{{"jsonrpc":"2.0","method":"notifications/echo","params":{{"got":{custom}}}}}"#)
    );

    // tools/list: outputSchema goes, the read-back tools come last, the cursor stays.
    let list = proxy.call(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }));
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["big", "context_read", "context_tail", "context_grep"]
    );
    assert!(tools[0].get("outputSchema").is_none());
    assert_eq!(list["result"]["nextCursor"], "p2");

    // templates: the upstream has no resources, so the proxy answers.
    let templates =
        proxy.call(json!({ "jsonrpc": "2.0", "id": "t", "method": "resources/templates/list" }));
    assert_eq!(
        templates["result"]["resourceTemplates"][0]["uriTemplate"],
        "ctx://{conversation}/{kind}/{file}"
    );
    let resources = proxy.call(json!({ "jsonrpc": "2.0", "id": "r", "method": "resources/list" }));
    assert_eq!(
        resources,
        json!({ "jsonrpc": "2.0", "id": "r", "result": { "resources": [] } })
    );

    // tools/call over the limits: summary + link, isError and unknown fields kept.
    let big = proxy.call(
        json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "big" } }),
    );
    let content = big["result"]["content"].as_array().unwrap();
    assert!(content[0]["text"]
        .as_str()
        .unwrap()
        .starts_with("[Output of canned/big (call mcp-big-"));
    assert_eq!(content[1]["type"], "resource_link");
    assert_eq!(content[1]["size"], 20000);
    assert_eq!(big["result"]["isError"], true);
    assert_eq!(big["result"]["x-extra"], json!([1]));
    let uri = content[1]["uri"].as_str().unwrap().to_owned();

    // resources/list now names the artifact, so a client can discover it; a cursor this
    // side did not give is refused.
    let listed = proxy.call(json!({ "jsonrpc": "2.0", "id": "l", "method": "resources/list" }));
    assert_eq!(listed["result"]["resources"][0]["uri"], uri.as_str());
    assert_eq!(listed["result"]["resources"][0]["mimeType"], "text/plain");
    assert!(listed["result"].get("nextCursor").is_none());
    let bad = proxy.call(json!({ "jsonrpc": "2.0", "id": "b", "method": "resources/list", "params": { "cursor": "x" } }));
    assert_eq!(bad["error"]["message"], "unknown cursor \"x\"");

    // Answered by the proxy: resources/read and the read-back tools.
    let read = proxy.call(
        json!({ "jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": { "uri": uri } }),
    );
    assert_eq!(read["result"]["contents"][0]["text"], "a".repeat(20000));

    // A request the client cancels is forgotten: when the upstream dies, only the
    // requests still pending get an error.
    proxy.send(r#"{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"big"}}"#);
    proxy.send(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow"}}"#,
    );

    // The upstream exits mid-call: the pending request and the later ones get errors.
    let exited = proxy.call(
        json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": { "name": "big" } }),
    );
    assert_eq!(
        exited["error"]["message"],
        "the upstream MCP server exited (exit status: 3) before answering this request"
    );
    assert_eq!(exited["id"], 5);
    let later = proxy.call(json!({ "jsonrpc": "2.0", "id": 6, "method": "ping" }));
    assert_eq!(
        later["error"],
        json!({ "code": -32603, "message": "the upstream MCP server exited (exit status: 3)" })
    );
    let tail = proxy.call(json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": { "name": "context_tail", "arguments": { "ref": uri, "lines": 1 } } }));
    assert_eq!(tail["result"]["isError"], false);

    // Garbage from the client: a parse error, and the proxy goes on.
    proxy.send("{oops");
    let parse = proxy.receive();
    assert_eq!(parse["id"], Value::Null);
    assert_eq!(parse["error"]["code"], -32700);

    // The client leaves: the proxy exits 0.
    drop(proxy.stdin.take());
    assert!(proxy.child.wait().unwrap().success());
}

#[test]
fn an_invalid_response_to_a_pending_request_is_an_error() {
    let script = r#"
read line
echo '{"jsonrpc":"2.0","id":1}'
read line
"#;
    let mut proxy = Session::start(script);
    let answer = proxy.call(json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }));
    assert_eq!(
        answer["error"]["message"],
        "the upstream MCP server sent an invalid response (neither result nor error)"
    );
    drop(proxy.stdin.take());
    assert!(proxy.child.wait().unwrap().success());
}

#[test]
fn a_missing_server_command_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_tool-offload"))
        .args(["mcp", "proxy", "--user-data"])
        .arg(dir.path())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}

#[test]
fn serve_offers_only_the_read_back_side() {
    let mut serve = Session::spawn(&["serve", "--conversation", "c"]);
    let tool_dir = serve.dir.path().join("context/c/artifacts/tool");
    std::fs::create_dir_all(&tool_dir).unwrap();
    std::fs::write(tool_dir.join("a.txt"), "one\ntwo\nthree").unwrap();

    let init = serve.call(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } }));
    assert_eq!(init["result"]["serverInfo"]["name"], "tool-offload");
    assert!(init["result"]["capabilities"]["tools"].is_object());
    assert!(init["result"]["capabilities"]["resources"].is_object());
    serve.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    let list = serve.call(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }));
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["context_read", "context_tail", "context_grep"]);

    let tail = serve.call(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": { "name": "context_tail", "arguments": { "ref": "ctx://c/tool/a.txt", "lines": 1 } } }));
    assert_eq!(tail["result"]["isError"], false);
    assert!(tail["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .ends_with("3| three"));
    let unknown = serve.call(json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": { "name": "bash", "arguments": {} } }));
    assert_eq!(unknown["error"]["message"], "unknown tool: bash");

    let templates =
        serve.call(json!({ "jsonrpc": "2.0", "id": 5, "method": "resources/templates/list" }));
    assert_eq!(
        templates["result"]["resourceTemplates"][0]["uriTemplate"],
        "ctx://{conversation}/{kind}/{file}"
    );
    let read = serve.call(
        json!({ "jsonrpc": "2.0", "id": 6, "method": "resources/read",
        "params": { "uri": "ctx://c/tool/a.txt" } }),
    );
    assert_eq!(
        read["result"]["contents"],
        json!([{ "uri": "ctx://c/tool/a.txt", "mimeType": "text/plain", "text": "one\ntwo\nthree" }])
    );
    let missing = serve.call(
        json!({ "jsonrpc": "2.0", "id": 7, "method": "resources/read",
        "params": { "uri": "ctx://c/tool/b.txt" } }),
    );
    assert_eq!(missing["error"]["code"], -32002);

    drop(serve.stdin.take());
    assert!(serve.child.wait().unwrap().success());
}

/// A tool's `_meta["anthropic/maxResultSizeChars"]` in `tools/list` is its character
/// limit: a 15,000-character result of a tool that allows 50,000 crosses unchanged, the
/// same result of a tool that declares nothing is materialized (the default 4,000).
const DECLARING: &str = r#"
read line
echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"canned","version":"1"}}}'
read line
echo '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"wide","inputSchema":{"type":"object"},"_meta":{"anthropic/maxResultSizeChars":50000}},{"name":"narrow","inputSchema":{"type":"object"}}]}}'
read line
printf '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"%s"}]}}\n' "$(head -c 15000 /dev/zero | tr '\0' a)"
read line
printf '{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"%s"}]}}\n' "$(head -c 15000 /dev/zero | tr '\0' a)"
read line
"#;

#[test]
fn a_tools_declared_result_size_is_its_limit() {
    let mut proxy = Session::start(DECLARING);
    proxy.call(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } }));
    proxy.call(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }));
    let wide = proxy.call(
        json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "wide" } }),
    );
    let kept = wide["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        kept == "a".repeat(15000),
        "{}",
        &kept[..kept.len().min(200)]
    );
    let narrow = proxy.call(
        json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": { "name": "narrow" } }),
    );
    let text = narrow["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("[Output of canned/narrow (call mcp-narrow-"),
        "{text}"
    );
}

/// `--redact` with a pattern: a stored result's artifact and summary hold the markers,
/// never the secrets.
const SECRET: &str = r#"
read line
echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"canned","version":"1"}}}'
read line
printf '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"key AKIAIOSFODNN7EXAMPLE order ACME-20261202 %s"}]}}\n' "$(head -c 15000 /dev/zero | tr '\0' a)"
read line
"#;

#[test]
fn the_proxy_redacts_what_it_stores() {
    let mut proxy = Session::spawn(&[
        "proxy",
        "--conversation",
        "c",
        "--redact-pattern",
        "ACME-[0-9]{8}",
        "--",
        "sh",
        "-c",
        SECRET,
    ]);
    proxy.call(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } }));
    let done = proxy.call(
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "env" } }),
    );
    let summary = done["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        summary.contains("key [REDACTED:aws-access-key] order [REDACTED:custom] aaa"),
        "{}",
        &summary[..summary.len().min(400)]
    );
    let dir = proxy.dir.path().join("context/c/artifacts/tool");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    let stored = std::fs::read_to_string(&files[0]).unwrap();
    assert!(stored.starts_with("key [REDACTED:aws-access-key] order [REDACTED:custom] aaa"));
    assert!(!stored.contains("AKIAIOSFODNN7EXAMPLE") && !stored.contains("ACME-20261202"));
}
