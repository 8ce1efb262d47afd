"""ToolRegistry (Python handlers, TodoWrite/TodoRead, offload and materialize policies)
and Workspace (knowledge tools, SQLite index or none)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import tool_offload as to

SCHEMA = {"type": "object", "properties": {}}


def tool(name: str) -> dict[str, Any]:
    return {"name": name, "description": f"the {name} tool", "input_schema": SCHEMA}


def test_handlers_sync_async_failing() -> None:
    r = to.ToolRegistry()
    r.register(tool("echo"), lambda p: {"content": p})
    r.register(tool("pair"), lambda p: ("half", True))

    async def slow(p: Any) -> str:
        await asyncio.sleep(0)
        return "async " + p["x"]

    r.register(tool("slow"), slow)

    def broken(p: Any) -> str:
        raise RuntimeError("it broke")

    r.register(tool("broken"), broken)
    r.register(tool("weird"), lambda p: 42)
    assert r.execute_tool_sync("u1", "echo", {"a": 1}) == {"type": "tool_result", "tool_use_id": "u1", "content": '{"a":1}'}
    assert r.execute_tool_sync("u2", "pair")["is_error"] is True
    assert r.execute_tool_sync("u3", "slow", {"x": "hi"})["content"] == "async hi"
    failed = r.execute_tool_sync("u4", "broken", {})
    assert failed["is_error"] is True and failed["content"] == "it broke"
    assert "a handler must return" in r.execute_tool_sync("u5", "weird", {})["content"]
    assert r.execute_tool_sync("u6", "missing", {})["is_error"] is True
    assert [d["name"] for d in r.tool_definitions()] == ["echo", "pair", "slow", "broken", "weird"]
    assert [d["name"] for d in r.tool_definitions("mcp")][0] == "echo"


@pytest.mark.asyncio
async def test_an_async_handler_runs_on_the_callers_loop() -> None:
    loop = asyncio.get_running_loop()
    seen: list[asyncio.AbstractEventLoop] = []

    async def where(p: Any) -> str:
        seen.append(asyncio.get_running_loop())
        return "here"

    r = to.ToolRegistry()
    r.register(tool("where"), where)
    assert (await r.execute_tool("u1", "where", {}))["content"] == "here"
    assert seen == [loop]
    with pytest.raises(to.RunningEventLoopError):
        r.execute_tool_sync("u2", "where", {})


def test_registration_errors_are_typed() -> None:
    r = to.ToolRegistry()
    r.register(tool("echo"), lambda p: "")
    with pytest.raises(to.DuplicateToolError):
        r.register(tool("echo"), lambda p: "")
    with pytest.raises(to.InvalidToolNameError):
        r.register(tool("bad name!"), lambda p: "")
    with pytest.raises(to.InvalidToolDefinitionError):
        r.register({"name": "x"}, lambda p: "")
    with pytest.raises(to.InvalidArgumentError):
        r.register(tool("y"), "not callable")  # type: ignore[arg-type]
    with pytest.raises(to.InvalidArgumentError):
        to.ToolRegistry(offload={"session_id": "s"})


def test_todo_tools() -> None:
    r = to.ToolRegistry()
    to.register_todo_tools(r)
    todos = [{"content": "ship", "status": "pending", "activeForm": "shipping"}]
    assert r.execute_tool_sync("u1", "TodoWrite", {"todos": todos})["content"] == '{"success":true,"count":1}'
    assert r.execute_tool_sync("u2", "TodoRead", {})["content"] == '{"todos":' + to._native.js_stringify(
        '[{"content":"ship","status":"pending","activeForm":"shipping"}]'
    ) + "}"
    assert r.execute_tool_sync("u3", "TodoWrite", {"todos": "no"})["is_error"] is True


def test_offload_and_materialize_policies(tmp_path: Path) -> None:
    off = to.ToolRegistry(offload={"output_dir": tmp_path / "off", "session_id": "s1", "threshold_chars": 10})
    off.register(tool("big"), lambda p: "x" * 100)
    result = off.execute_tool_sync("u7", "big", {})
    assert result["content"] == f"[Tool result offloaded to file: {tmp_path}/off/s1/u7.md]"
    assert (tmp_path / "off/s1/u7.md").read_text() == "x" * 100

    m = to.Materializer(tmp_path / "data", "c1", max_inline_chars=50)
    mat = to.ToolRegistry(materializer=m)
    mat.register(tool("big"), lambda p: "line\n" * 100)
    m.register_tools(mat)
    content = mat.execute_tool_sync("u8", "big", {})["content"]
    assert "ctx://c1/tool/u8.txt" in content
    page = mat.execute_tool_sync("u9", "context_read", {"ref": "ctx://c1/tool/u8.txt", "limit": 1})
    assert page["content"].endswith("1| line")
    with pytest.raises(to.InvalidArgumentError):
        to.ToolRegistry(offload={"output_dir": tmp_path, "session_id": "s"}, materializer=m)


def test_workspace_store_query_read(tmp_path: Path) -> None:
    ws = to.Workspace(tmp_path, namespace="ns", inline_limit=2000, now=lambda: 1_700_000_000_000)
    assert ws.namespace == "ns"
    big = "line of output\n" * 500
    o = ws.offload_tool_result_sync(tool_call_id="c1", tool_name="bash", content=big, metadata={"k": "v"})
    assert o.offloaded and o.artifact_id == "tool_result_c1" and o.reason == "over_threshold"
    assert o.content.startswith("<knowledge_list>")
    small = {"rows": [1, 2]}
    kept = ws.offload_tool_result_sync(tool_call_id="c2", tool_name="sql", content=small)
    assert not kept.offloaded and kept.content is small
    (record,) = ws.query_artifacts_sync({"tool_name": "bash"})
    assert record["metadata"]["created_at"] == "2023-11-14T22:13:20.000Z" and record["metadata"]["k"] == "v"
    assert ws.get_by_id_sync("tool_result_c1")["content"] == big
    assert ws.get_by_lines_sync("tool_result_c1", 2, 2).endswith("2| line of output")
    assert "500 matching rows" in ws.grep_sync("tool_result_c1", "of out", max_matches=1)
    (info,) = ws.get_tool_result_offload_info_sync()
    assert (info["artifact_id"], info["lines"]) == ("tool_result_c1", 500)
    added = ws.add_sync(id="notes", content="remember this", metadata={"context_type": "note"})
    assert added["reused"] is False and added["path"].startswith(str(tmp_path))
    assert (tmp_path / "ns" / "index.sqlite").exists() or any(tmp_path.rglob("index.sqlite"))

    assert ws.skipped_records() == []
    ws.rebuild_index_sync()
    scan = to.Workspace(tmp_path, namespace="ns", index=None)
    assert [r["id"] for r in scan.query_artifacts_sync()] == [r["id"] for r in ws.query_artifacts_sync()]
    bundle = ws.export_namespace_sync()
    other = to.Workspace(tmp_path / "copy", namespace="ns")
    assert sorted(other.import_namespace_sync(bundle)) == ["notes", "tool_result_c1"]

    r = to.ToolRegistry()
    ws.register_tools(r)
    names = [d["name"] for d in r.tool_definitions()]
    assert names == [d["name"] for d in ws.tool_definitions()] and "grep_knowledge" in names
    got = r.execute_tool_sync("u1", "get_knowledge_by_id", {"id": "notes"})
    assert "remember this" in got["content"]


def test_workspace_messages_and_errors(tmp_path: Path) -> None:
    ws = to.Workspace(tmp_path, inline_limit=2000)
    msgs = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "y\n" * 3000}]},
    ]
    done = ws.offload_messages_sync(msgs)
    assert done.artifact_ids == ["tool_result_t1"] and done.messages[0] is msgs[0]
    assert ws.offload_messages_sync(done.messages).artifact_ids == []
    with pytest.raises(to.RefNotFoundError):
        ws.get_by_id_sync("missing")
    with pytest.raises(to.InvalidPatternError):
        ws.grep_sync("tool_result_t1", "(")
    with pytest.raises(to.InvalidArgumentError):
        to.Workspace(tmp_path, index="postgres")
    with pytest.raises(to.InvalidArgumentError):
        ws.offload_tool_result_sync(tool_call_id="x", tool_name="t", content="c", metadata=["no"])  # type: ignore[arg-type]


def test_workspace_clock_errors_keep_their_cause(tmp_path: Path) -> None:
    def broken() -> float:
        raise OSError("no clock")

    ws = to.Workspace(tmp_path, inline_limit=2000, now=broken)
    with pytest.raises(to.InvalidArgumentError) as caught:
        ws.offload_tool_result_sync(tool_call_id="c", tool_name="bash", content="z\n" * 3000)
    assert isinstance(caught.value.__cause__, OSError)


def test_direct_offload(tmp_path: Path) -> None:
    message = {"role": "tool", "tool_call_id": "c", "content": "zzz"}
    done = to.offload_tool_result_sync(message, session_id="s", output_dir=tmp_path)
    assert done.message["content"] == f"[Tool result offloaded to file: {tmp_path}/s/c.md]"
    assert (done.file, done.files, done.freed_chars) == (f"{tmp_path}/s/c.md", [f"{tmp_path}/s/c.md"], 3 - len(done.message["content"]))
    assert message["content"] == "zzz"
    with pytest.raises(to.NoToolResultError):
        to.offload_tool_result_sync({"role": "user", "content": "hi"}, session_id="s", output_dir=tmp_path)
    with pytest.raises(to.AlreadyOffloadedError):
        to.offload_tool_result_sync(done.message, session_id="s", output_dir=tmp_path)
    with pytest.raises(to.InvalidIdError):
        to.offload_tool_result_sync(message, session_id="../up", output_dir=tmp_path)
    redacted = to.offload_tool_result_sync(
        {"role": "tool", "tool_call_id": "k", "content": "AKIAIOSFODNN7EXAMPLE"}, session_id="s", output_dir=tmp_path, redact=True
    )
    assert "REDACTED" in Path(redacted.file).read_text()


def test_workspace_content_with_a_lone_surrogate(tmp_path: Path) -> None:
    ws = to.Workspace(tmp_path, inline_limit=2000)
    r = ws.offload_tool_result_sync(tool_call_id="c", tool_name="bash", content="cut \ud83d\n" * 1000)
    assert r.offloaded and ws.get_by_id_sync("tool_result_c")["content"] == "cut \ufffd\n" * 1000
