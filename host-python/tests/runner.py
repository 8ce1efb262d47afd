"""Running one vector's steps on the Python package (see steps.py)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable, Optional

import tool_offload as to
from tool_offload._offload import _batch, _direct

from steps import (
    Json,
    canonical_bundle,
    canonical_ref,
    context_window,
    files_under,
    handler,
    js,
    resolve,
    tools_option,
    words,
)

MATERIALIZER_OPTIONS = {
    "conversationId", "maxInlineChars", "maxInlineBytes", "snippetLines", "snippetBytes", "offloadDir",
    "tools", "redact", "messageBudgetChars", "contextWindow", "countTokens",
}


class Host:
    """One vector's host state: its materializer, registry and workspace on real files."""

    def __init__(
        self, vector: dict[str, Any], root: Path, postgres: Optional[str] = None, storage: Optional[str] = None
    ) -> None:
        # In an object store (``storage``, a URL), paths are the vector's own: no root.
        self.storage = storage
        self.root = "" if storage else str(root)
        self.data = f"{self.root}/data"
        self.cwd = vector.get("cwd", "/work")
        self.options = dict(vector.get("options") or {})
        self.problems: list[str] = []
        unknown = set(self.options) - MATERIALIZER_OPTIONS
        if unknown:
            self.problems.append(f"options the Python runner does not map: {sorted(unknown)}")
        self.main = self.make(None)
        self.registry = to.ToolRegistry()
        self.workspace: Optional[to.Workspace] = None
        # A libpq connection string: the workspace's index in PostgreSQL instead of SQLite.
        self.postgres = postgres

    def make(self, user_data: Optional[str]) -> to.Materializer:
        o = self.options
        return to.Materializer(
            self.data if not user_data else f"{self.data}/{user_data}",
            o.get("conversationId", "conv-1"),
            max_inline_chars=o.get("maxInlineChars"),
            max_inline_bytes=o.get("maxInlineBytes"),
            snippet_lines=o.get("snippetLines"),
            snippet_bytes=o.get("snippetBytes"),
            offload_dir=None if o.get("offloadDir") is None else self.root + o["offloadDir"],
            tools=tools_option(o.get("tools")),
            redact=o.get("redact"),
            message_budget_chars=o.get("messageBudgetChars"),
            context_window=context_window(o.get("contextWindow")),
            count_tokens=words if o.get("countTokens") == "words" else None,
            storage=self.storage,
        )

    def rel(self, path: str) -> str:
        prefix = self.data + "/"
        return path[len(prefix):] if path.startswith(prefix) else f"OUTSIDE THE ROOT: {path}"

    def real(self, path: Optional[str]) -> Optional[str]:
        """A virtual absolute path under the root; a relative one as it is."""
        return None if path is None else (self.root + path if path.startswith("/") else path)

    def materialized(self, r: to.Materialized) -> Json:
        if r.inline:
            return {"inline": True, "content": r.content}
        assert r.ref is not None and r.path is not None
        return {"inline": False, "content": r.content, "ref": canonical_ref(r.ref), "path": self.rel(r.path)}

    def run(self, op: str, s: dict[str, Any], raw: dict[str, Any], i: int) -> Json:
        m = self.main
        other = self.make(s["userData"]) if s.get("userData") else m
        if op == "materialize":
            r = m.materialize_sync(
                tool_call_id=s["toolCallId"], tool_name=s["toolName"], output=s["output"],
                server_name=s.get("serverName"),
            )
            expected = (raw.get("expect") or {}).get("content") if isinstance(raw.get("expect"), dict) else None
            if r.inline and r.content is not s["output"] and r.content != expected:
                self.problems.append(f"step {i}: inline content is not the output given")
            return self.materialized(r)
        if op == "terminal":
            return self.materialized(m.materialize_terminal_sync(s["snippetId"], s["text"]))
        if op == "read":
            return other.read_sync(
                s["ref"], s.get("offset", 0), s.get("limit"), part=s.get("part"), char=s.get("char"), path=s.get("path")
            )
        if op == "tail":
            return other.tail_sync(s["ref"], s.get("lines"))
        if op == "grep":
            return other.grep_sync(
                s.get("ref"), s["pattern"], s.get("ignoreCase", False), context=s.get("context"),
                max_matches=s.get("maxMatches"),
            )
        if op == "readStats":
            return [
                {"ref": x.ref, "toolCallId": x.tool_call_id, "reads": x.reads, "errors": x.errors}
                for x in m.read_stats(s["messages"])
            ]
        if op == "unreadRefs":
            return m.unread_refs(s["messages"])
        if op == "materializeMessages":
            r = m.materialize_messages_sync(s["messages"], remind_unread=s.get("remindUnread", False))
            out = {"messages": r.messages, "refs": [canonical_ref(x) for x in r.refs], "paths": [self.rel(p) for p in r.paths]}
            if r.unrecognized:
                out["unrecognized"] = r.unrecognized
            return out
        if op == "budget":
            b = m.budget_sync(
                s["messages"], trigger_tokens=s["triggerTokens"], keep_last=s.get("keepLast"),
                clear_at_least_tokens=s.get("clearAtLeastTokens"), exclude_tools=s.get("excludeTools"),
            )
            return {
                "messages": b.messages,
                "cleared": [
                    {"message": c.message, "toolCallId": c.tool_call_id, "toolName": c.tool_name, "ref": c.ref, "chars": c.chars}
                    for c in b.cleared
                ],
                "rewrittenFromMessage": b.rewritten_from_message,
                "refs": [canonical_ref(x) for x in b.refs],
                "paths": [self.rel(p) for p in b.paths],
            }
        if op == "export":
            return canonical_bundle(m.export_conversation_sync(s["messages"]))
        if op == "import":
            target = self.data if not s.get("userData") else f"{self.data}/{s['userData']}"
            r = to.import_conversation_sync(s["bundle"], user_data=target, storage=self.storage)
            return {"conversationId": r.conversation_id, "messages": r.messages, "paths": [self.rel(p) for p in r.paths]}
        if op == "offloadToolResult":
            d = _direct(
                s["message"], s["sessionId"], s["outputDir"], self.cwd, None, s.get("failOn"), self.root, self.storage
            )
            return {"message": d.message, "freedChars": d.freed_chars, "file": d.file, "files": d.files}
        if op == "offloadToolResults":
            given = s["messages"]
            threshold = s.get("threshold", to.DEFAULT_THRESHOLD)
            b = _batch(given, s["outputDir"], threshold, self.cwd, None, s.get("failOn"), self.root, self.storage)
            self.problems.extend(identity_problems(given, b.messages))
            out = {"messages": b.messages, "offloadedCount": b.offloaded_count, "freedChars": b.freed_chars, "files": b.files}
            if b.unrecognized:
                out["unrecognized"] = b.unrecognized
            return out
        if op == "registry":
            offload = s.get("offload")
            if offload is not None:
                self.registry = to.ToolRegistry(
                    offload={
                        "output_dir": offload["outputDir"],
                        "session_id": offload["sessionId"],
                        "threshold_chars": offload.get("thresholdChars"),
                        "_fail_on": offload.get("failOn"),
                        "_root": self.root,
                        "storage": self.storage,
                    }
                )
            else:
                self.registry = to.ToolRegistry(materializer=m if s.get("materialize") else None)
            return None
        if op == "register":
            self.registry.register(s["definition"], handler(s["handler"]))
            return None
        if op == "registerTodoTools":
            to.register_todo_tools(self.registry)
            return None
        if op == "registerReadTools":
            m.register_tools(self.registry)
            return None
        if op == "stats":
            st = m.stats()
            return {"hits": st.hits, "inlined": st.inlined, "savedChars": st.saved_chars}
        if op == "definitions":
            return self.registry.tool_definitions(s.get("format", "anthropic"))
        if op == "execute":
            return self.registry.execute_tool_sync(s["toolUseId"], s["name"], s.get("params"))
        if op == "workspace":
            o = dict(s.get("options") or {})
            now = o.get("now")
            self.workspace = to.Workspace(
                self.data,
                namespace=o.get("namespace"),
                agent_id=o.get("agentId"),
                task_id=o.get("taskId"),
                session_id=o.get("sessionId"),
                inline_limit=o.get("inlineLimit"),
                offload_tools=o.get("offloadTools"),
                tools=tools_option(o.get("tools")),
                token_threshold=o.get("tokenThreshold"),
                redact=o.get("redact"),
                count_tokens=words if o.get("countTokens") == "words" else None,
                now=lambda: now if now is not None else 0,
                **({"index": "postgres", "postgres": self.postgres} if self.postgres else {}),
                storage=self.storage,
            )
            return None
        if op == "ws":
            assert self.workspace is not None, "a workspace step comes first"
            return self.ws(self.workspace, s)
        if op == "registerKnowledgeTools":
            assert self.workspace is not None, "a workspace step comes first"
            self.workspace.register_tools(self.registry)
            return None
        raise ValueError(f"unknown op {op!r}")

    def ws(self, ws: to.Workspace, s: dict[str, Any]) -> Json:
        call = s["call"]
        if call == "offloadToolResult":
            r = ws.offload_tool_result_sync(
                tool_call_id=s["toolCallId"], tool_name=s["toolName"], content=s["content"],
                action_name=s.get("actionName"), metadata=s.get("metadata"),
            )
            if not isinstance(r.content, str) and r.content is not s["content"]:
                self.problems.append("content is not the value given")
            out: dict[str, Any] = {"offloaded": r.offloaded, "content": r.content}
            if r.artifact_id is not None:
                out["artifactId"] = r.artifact_id
            if r.reason is not None:
                out["reason"] = r.reason
            return out
        if call == "add":
            r = ws.add_sync(id=s.get("id"), content=s.get("content"), type=s.get("type"), metadata=s.get("metadata"))
            return {**r, "path": self.rel(r["path"])}
        if call == "offloadMessages":
            o = ws.offload_messages_sync(s["messages"])
            out = {"messages": o.messages, "artifactIds": o.artifact_ids}
            if o.unrecognized:
                out["unrecognized"] = o.unrecognized
            return out
        if call == "queryArtifacts":
            return ws.query_artifacts_sync(s.get("filter"), limit=s.get("limit"), offset=s.get("offset", 0))
        if call == "getToolResultOffloadInfo":
            return ws.get_tool_result_offload_info_sync(task_id=s.get("taskId"), session_id=s.get("sessionId"))
        if call == "getById":
            return ws.get_by_id_sync(s["id"])
        if call == "getByLines":
            return ws.get_by_lines_sync(s["id"], s["startLine"], s.get("endLine"))
        if call == "grep":
            return ws.grep_sync(
                s["id"], s["pattern"], s.get("ignoreCase", False), context=s.get("context"), max_matches=s.get("maxMatches")
            )
        if call == "exportNamespace":
            return ws.export_namespace_sync()
        if call == "importNamespace":
            return ws.import_namespace_sync(s["bundle"])
        raise ValueError(f"unknown workspace call {call!r}")


def identity_problems(given: list[Any], got: list[Any]) -> list[str]:
    """Unchanged messages must be the input's own objects, changed ones share none."""
    if len(got) != len(given):
        return [f"{len(got)} messages returned for {len(given)}"]
    problems = []
    for i, (a, b) in enumerate(zip(given, got)):
        changed = js(a) != js(b)
        if not changed and a is not b:
            problems.append(f"messages[{i}] is unchanged but not the same object")
        if changed and objects_in(b) & objects_in(a):
            problems.append(f"messages[{i}] is changed but shares objects with the input")
    return problems


def objects_in(value: Any, found: Optional[set[int]] = None) -> set[int]:
    found = set() if found is None else found
    if isinstance(value, (dict, list)) and id(value) not in found:
        found.add(id(value))
        for v in value.values() if isinstance(value, dict) else value:
            objects_in(v, found)
    return found


def canonical_error(e: BaseException, root: str) -> Json:
    if not isinstance(e, to.OffloadError):
        return {"code": f"NOT AN OFFLOAD ERROR: {type(e).__name__}: {e}"}
    out: dict[str, Any] = {"code": e.code, "message": str(e).replace(root, "")}
    if e.code == "WRITE_FAILED":
        out["path"] = str(e.path).replace(root, "")
    return out


def run_vector(
    vector: dict[str, Any],
    root: Path,
    postgres: Optional[str] = None,
    storage: Optional[str] = None,
    files: Optional[Callable[[], dict[str, str]]] = None,
) -> tuple[str, list[Json]]:
    """Every step of ``vector`` on real files under ``root`` (workspaces indexed in
    PostgreSQL when ``postgres`` is a connection string; or in the object store
    ``storage``, a URL, whose objects ``files`` lists): the canonical outcome and each
    step's result (None for a failed step)."""
    host = Host(vector, root, postgres, storage)
    actual: list[Json] = []
    steps: list[Json] = []
    for i, raw in enumerate(vector["steps"]):
        s = resolve({**raw, "expect": None, "error": None}, actual, False)
        given = s.get("message", s.get("messages"))
        before = copy.deepcopy(given)
        try:
            result = host.run(raw["op"], s, raw, i)
            result = json_round_trip(result)
            steps.append({"expect": result})
            actual.append(result)
        except to.OffloadError as e:
            steps.append({"error": canonical_error(e, host.root)})
            actual.append(None)
        if given is not None and given != before:
            host.problems.append(f"step {i}: the input was modified")
    out: dict[str, Any] = {"steps": steps, "files": files() if files else files_under(root)}
    if host.problems:
        out["problems"] = host.problems
    return js(out), actual


def json_round_trip(value: Json) -> Json:
    """What a host returns, compared as data (as steps.ts does through JSON)."""
    import json

    from tool_offload._run import dumps

    return json.loads(dumps(value, "result"))
