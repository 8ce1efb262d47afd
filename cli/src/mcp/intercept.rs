//! What the proxy changes in the traffic it relays, as pure functions over JSON-RPC
//! messages: which client requests it answers itself, and how it patches the upstream's
//! answers to `initialize`, `tools/list` and `resources/templates/list`. Everything
//! else passes through byte for byte.

use rmcp::model::ErrorCode;
use serde_json::{json, Value};

use super::context::ContextTools;

/// A client request the proxy answers without the upstream.
#[derive(Debug, Clone, PartialEq)]
pub enum Local {
    /// `tools/call` of a read-back tool.
    Tool { name: String, arguments: Value },
    /// `resources/read` of a `ctx://` ref.
    ReadResource { uri: String },
    /// `resources/templates/list` when the upstream has no resources.
    TemplatesList,
    /// `resources/list` when the upstream has no resources: this conversation's
    /// artifacts, from `cursor` on.
    ResourcesList { cursor: Option<String> },
}

/// A request relayed upstream, remembered until its response comes back.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    /// `initialize`: capabilities get `tools` and `resources`.
    Initialize,
    /// `tools/list`: the first page gets the read-back tools.
    ToolsList { first_page: bool },
    /// `tools/call` of an upstream tool: its result may be materialized.
    ToolsCall { tool: String },
    /// `resources/templates/list`: the first page gets the `ctx://` template.
    TemplatesList { first_page: bool },
    /// Anything else: relayed unchanged.
    Other,
}

/// Where a client request goes: answered here, or upstream.
#[derive(Debug, Clone, PartialEq)]
pub enum Route {
    /// Answered by the proxy.
    Local(Local),
    /// Relayed to the upstream.
    Upstream(Pending),
}

/// Route the request `method` with `params`; `upstream_resources` says whether the
/// upstream announced the resources capability.
pub fn route(method: &str, params: Option<&Value>, upstream_resources: bool) -> Route {
    let param = |name: &str| params.and_then(|p| p.get(name));
    let first_page = param("cursor").is_none();
    match method {
        "initialize" => Route::Upstream(Pending::Initialize),
        "tools/list" => Route::Upstream(Pending::ToolsList { first_page }),
        "tools/call" => {
            let name = param("name").and_then(Value::as_str).unwrap_or_default();
            if ContextTools::is_context_tool(name) {
                let arguments = param("arguments").cloned().unwrap_or_else(|| json!({}));
                Route::Local(Local::Tool {
                    name: name.to_owned(),
                    arguments,
                })
            } else {
                Route::Upstream(Pending::ToolsCall {
                    tool: name.to_owned(),
                })
            }
        }
        "resources/read" => match param("uri").and_then(Value::as_str) {
            Some(uri) if ContextTools::owns_uri(uri) => Route::Local(Local::ReadResource {
                uri: uri.to_owned(),
            }),
            _ => Route::Upstream(Pending::Other),
        },
        "resources/templates/list" if !upstream_resources => Route::Local(Local::TemplatesList),
        "resources/templates/list" => Route::Upstream(Pending::TemplatesList { first_page }),
        "resources/list" if !upstream_resources => Route::Local(Local::ResourcesList {
            cursor: param("cursor").and_then(Value::as_str).map(str::to_owned),
        }),
        _ => Route::Upstream(Pending::Other),
    }
}

/// What the upstream's `initialize` result told the proxy.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UpstreamInfo {
    /// `serverInfo.name`, used as the server name in summaries.
    pub name: Option<String>,
    /// Whether it announced the resources capability.
    pub resources: bool,
}

/// Add the `tools` and `resources` capabilities to an `initialize` response when the
/// upstream lacks them (the proxy serves both); report what it announced.
pub fn patch_initialize(message: &mut Value) -> UpstreamInfo {
    let Some(result) = message.get_mut("result").and_then(Value::as_object_mut) else {
        return UpstreamInfo::default();
    };
    let name = result
        .get("serverInfo")
        .and_then(|info| info.get("name"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let capabilities = result.entry("capabilities").or_insert_with(|| json!({}));
    let Some(capabilities) = capabilities.as_object_mut() else {
        return UpstreamInfo {
            name,
            resources: false,
        };
    };
    let resources = capabilities.contains_key("resources");
    capabilities.entry("tools").or_insert_with(|| json!({}));
    capabilities.entry("resources").or_insert_with(|| json!({}));
    UpstreamInfo { name, resources }
}

/// Add `ours` to the list `field` of a first-page list response (after the upstream's
/// items, dropping upstream items with the same `name_field` as one of ours); a
/// method-not-found error on the first page becomes a list of just ours. Returns the
/// upstream names that were shadowed.
pub fn patch_list(
    message: &mut Value,
    field: &str,
    name_field: &str,
    ours: &[Value],
    first_page: bool,
) -> Vec<String> {
    if !first_page {
        return Vec::new();
    }
    let Some(object) = message.as_object_mut() else {
        return Vec::new();
    };
    let not_found = object
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_i64)
        == Some(i64::from(ErrorCode::METHOD_NOT_FOUND.0));
    if not_found {
        object.remove("error");
        object.insert("result".into(), json!({ field: ours }));
        return Vec::new();
    }
    let Some(items) = object
        .get_mut("result")
        .and_then(|r| r.get_mut(field))
        .and_then(Value::as_array_mut)
    else {
        return Vec::new();
    };
    let our_names: Vec<&Value> = ours.iter().filter_map(|o| o.get(name_field)).collect();
    let mut shadowed = Vec::new();
    items.retain(|item| match item.get(name_field) {
        Some(name) if our_names.contains(&name) => {
            shadowed.push(name.as_str().unwrap_or_default().to_owned());
            false
        }
        _ => true,
    });
    items.extend(ours.iter().cloned());
    shadowed
}

/// Drop `outputSchema` from every tool of a `tools/list` response: a materialized
/// result has its `structuredContent` stored and removed, which a client checking the
/// schema would reject ("has an output schema but did not return structured content").
/// Returns how many schemas went.
pub fn drop_output_schemas(message: &mut Value) -> usize {
    let Some(tools) = message
        .get_mut("result")
        .and_then(|r| r.get_mut("tools"))
        .and_then(Value::as_array_mut)
    else {
        return 0;
    };
    tools
        .iter_mut()
        .filter_map(Value::as_object_mut)
        .map(|tool| tool.remove("outputSchema"))
        .filter(Option::is_some)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_back_calls_and_ctx_reads_are_answered_here() {
        let call = json!({ "name": "context_grep", "arguments": { "ref": "ctx://c/tool/a.txt", "pattern": "x" } });
        assert_eq!(
            route("tools/call", Some(&call), true),
            Route::Local(Local::Tool {
                name: "context_grep".into(),
                arguments: call["arguments"].clone()
            })
        );
        let bare = json!({ "name": "context_tail" });
        assert!(matches!(
            route("tools/call", Some(&bare), true),
            Route::Local(Local::Tool { arguments, .. }) if arguments == json!({})
        ));
        let read = json!({ "uri": "ctx://c/tool/a.txt" });
        assert_eq!(
            route("resources/read", Some(&read), true),
            Route::Local(Local::ReadResource {
                uri: "ctx://c/tool/a.txt".into()
            })
        );
    }

    #[test]
    fn everything_else_goes_upstream() {
        let call = json!({ "name": "read_file" });
        assert_eq!(
            route("tools/call", Some(&call), false),
            Route::Upstream(Pending::ToolsCall {
                tool: "read_file".into()
            })
        );
        let read = json!({ "uri": "file:///etc/hosts" });
        assert_eq!(
            route("resources/read", Some(&read), true),
            Route::Upstream(Pending::Other)
        );
        assert_eq!(
            route("initialize", None, false),
            Route::Upstream(Pending::Initialize)
        );
        assert_eq!(
            route("vendor/custom", None, false),
            Route::Upstream(Pending::Other)
        );
        assert_eq!(
            route("prompts/list", None, false),
            Route::Upstream(Pending::Other)
        );
    }

    #[test]
    fn resource_lists_go_upstream_only_when_it_has_resources() {
        assert_eq!(
            route("resources/templates/list", None, false),
            Route::Local(Local::TemplatesList)
        );
        assert_eq!(
            route("resources/list", None, false),
            Route::Local(Local::ResourcesList { cursor: None })
        );
        assert_eq!(
            route("resources/templates/list", None, true),
            Route::Upstream(Pending::TemplatesList { first_page: true })
        );
        assert_eq!(
            route("resources/list", None, true),
            Route::Upstream(Pending::Other)
        );
        let next = json!({ "cursor": "2" });
        assert_eq!(
            route("tools/list", Some(&next), true),
            Route::Upstream(Pending::ToolsList { first_page: false })
        );
        assert_eq!(
            route("resources/templates/list", Some(&next), true),
            Route::Upstream(Pending::TemplatesList { first_page: false })
        );
    }

    #[test]
    fn initialize_gains_tools_and_resources_and_keeps_the_rest() {
        let mut message = json!({ "jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-06-18", "capabilities": { "logging": {} },
            "serverInfo": { "name": "fs", "version": "1" }, "x-vendor": 1 } });
        let info = patch_initialize(&mut message);
        assert_eq!(
            info,
            UpstreamInfo {
                name: Some("fs".into()),
                resources: false
            }
        );
        assert_eq!(
            message["result"]["capabilities"],
            json!({ "logging": {}, "tools": {}, "resources": {} })
        );
        assert_eq!(message["result"]["x-vendor"], 1);

        let mut with = json!({ "result": { "capabilities": { "resources": { "subscribe": true }, "tools": { "listChanged": true } } } });
        assert!(patch_initialize(&mut with).resources);
        assert_eq!(
            with["result"]["capabilities"],
            json!({ "resources": { "subscribe": true }, "tools": { "listChanged": true } })
        );
        let mut error = json!({ "error": { "code": -1, "message": "no" } });
        assert_eq!(patch_initialize(&mut error), UpstreamInfo::default());
        assert_eq!(error, json!({ "error": { "code": -1, "message": "no" } }));
    }

    #[test]
    fn lists_gain_ours_on_the_first_page_only() {
        let ours = [json!({ "name": "context_read" })];
        let mut first = json!({ "result": { "tools": [{ "name": "a" }, { "name": "context_read", "x": 1 }], "nextCursor": "2" } });
        let shadowed = patch_list(&mut first, "tools", "name", &ours, true);
        assert_eq!(shadowed, ["context_read"]);
        assert_eq!(
            first,
            json!({ "result": { "tools": [{ "name": "a" }, { "name": "context_read" }], "nextCursor": "2" } })
        );
        let mut second = json!({ "result": { "tools": [{ "name": "b" }] } });
        assert!(patch_list(&mut second, "tools", "name", &ours, false).is_empty());
        assert_eq!(second, json!({ "result": { "tools": [{ "name": "b" }] } }));
    }

    #[test]
    fn a_method_not_found_list_becomes_ours() {
        let ours = [json!({ "uriTemplate": "ctx://c/{kind}/{file}" })];
        let mut message = json!({ "jsonrpc": "2.0", "id": 3, "error": { "code": -32601, "message": "Method not found" } });
        patch_list(
            &mut message,
            "resourceTemplates",
            "uriTemplate",
            &ours,
            true,
        );
        assert_eq!(
            message,
            json!({ "jsonrpc": "2.0", "id": 3, "result": { "resourceTemplates": ours } })
        );
        let mut other = json!({ "id": 3, "error": { "code": -32603, "message": "boom" } });
        patch_list(&mut other, "resourceTemplates", "uriTemplate", &ours, true);
        assert_eq!(
            other,
            json!({ "id": 3, "error": { "code": -32603, "message": "boom" } })
        );
    }

    #[test]
    fn output_schemas_are_dropped_and_the_rest_kept() {
        let mut message = json!({ "result": { "tools": [
            { "name": "a", "inputSchema": {}, "outputSchema": { "type": "object" } },
            { "name": "b", "inputSchema": {} }
        ] } });
        assert_eq!(drop_output_schemas(&mut message), 1);
        assert_eq!(
            message,
            json!({ "result": { "tools": [{ "name": "a", "inputSchema": {} }, { "name": "b", "inputSchema": {} }] } })
        );
        let mut error = json!({ "error": {} });
        assert_eq!(drop_output_schemas(&mut error), 0);
    }
}
