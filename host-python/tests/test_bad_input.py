"""Bad input of any kind (a wrong type, a number out of range, a bare str where a list
of names goes) is an OffloadError with a code, never a TypeError from the extension."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

import tool_offload as to


@pytest.fixture
def objects(tmp_path: Path) -> dict[str, Any]:
    return {"d": tmp_path, "m": to.Materializer(tmp_path, "c"), "r": to.ToolRegistry(), "ws": to.Workspace(tmp_path)}


CASES: dict[str, Callable[[dict[str, Any]], Any]] = {
    "materializer user_data": lambda o: to.Materializer(1, "c"),
    "materializer conversation_id": lambda o: to.Materializer(o["d"], 1),
    "materialize tool_name": lambda o: o["m"].materialize_sync(tool_name=1, tool_call_id="x", output="y"),
    "materialize server_name": lambda o: o["m"].materialize_sync(
        tool_name="a", tool_call_id="x", output="y", server_name=3
    ),
    "materialize output": lambda o: o["m"].materialize_sync(tool_name="a", tool_call_id="x", output={1, 2}),
    "terminal id": lambda o: o["m"].materialize_terminal_sync(3, "t"),
    "terminal text": lambda o: o["m"].materialize_terminal_sync("s", 3),
    "read path": lambda o: o["m"].read_sync("ctx://c/tool/x.txt", path=3),
    "read offset huge": lambda o: o["m"].read_sync("ctx://c/tool/x.txt", 2**70),
    "read offset negative": lambda o: o["m"].read_sync("ctx://c/tool/x.txt", -1),
    "read ref": lambda o: o["m"].read_sync(3),
    "grep pattern": lambda o: o["m"].grep_sync("ctx://c/tool/x.txt", 3),
    "definitions format": lambda o: o["m"].tool_definitions(3),
    "handle name": lambda o: o["m"].handle_tool_call_sync(3, {}),
    "import user_data": lambda o: to.import_conversation_sync({}, user_data=3),
    "import bundle": lambda o: to.import_conversation_sync({"format": "nope"}, user_data=o["d"]),
    "batch output_dir": lambda o: to.offload_tool_results_sync([], output_dir=3),
    "batch cwd": lambda o: to.offload_tool_results_sync([], output_dir="x", cwd=3),
    "batch messages": lambda o: to.offload_tool_results_sync({"role": "user"}, output_dir="x"),
    "direct session_id": lambda o: to.offload_tool_result_sync({}, session_id=3, output_dir="x"),
    "execute id": lambda o: o["r"].execute_tool_sync(3, "x", {}),
    "execute name": lambda o: o["r"].execute_tool_sync("u", 3, {}),
    "registry format": lambda o: o["r"].tool_definitions(3),
    "registry definition": lambda o: o["r"].register("tool", lambda p: ""),
    "workspace root": lambda o: to.Workspace(3),
    "workspace namespace": lambda o: to.Workspace(o["d"], namespace=3),
    "workspace index": lambda o: to.Workspace(o["d"], index=3),
    "workspace offload_tools": lambda o: to.Workspace(o["d"], offload_tools="bash"),
    "ws tool_call_id": lambda o: o["ws"].offload_tool_result_sync(tool_call_id=3, tool_name="t", content="c"),
    "ws add id": lambda o: o["ws"].add_sync(id=3, content="c"),
    "ws get_by_id": lambda o: o["ws"].get_by_id_sync(3),
    "ws get_by_lines": lambda o: o["ws"].get_by_lines_sync("x", "1"),
    "ws grep": lambda o: o["ws"].grep_sync(3, "p"),
    "ws info": lambda o: o["ws"].get_tool_result_offload_info_sync(task_id=3),
    "ws query filter": lambda o: o["ws"].query_artifacts_sync(["a"]),
    "gc huge": lambda o: o["m"].gc_sync(older_than_ms=2**80),
    "budget trigger": lambda o: o["m"].budget_sync([], trigger_tokens="3"),
    "budget exclude_tools": lambda o: o["m"].budget_sync([], trigger_tokens=3, exclude_tools="bash"),
    "redact option": lambda o: to.Materializer(o["d"], "c", redact={"pattern": ["x"]}),
    "redact pattern option": lambda o: to.Materializer(o["d"], "c", redact={"patterns": [{"pattern": "x", "flags": "i"}]}),
    "offload option": lambda o: to.ToolRegistry(offload={"output_dir": o["d"], "session_id": "s", "threshold": 3}),
    "context_window option": lambda o: to.Materializer(o["d"], "c", context_window={"tokens": 100, "share": 0.5}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_a_typed_error(case: str, objects: dict[str, Any]) -> None:
    with pytest.raises(to.OffloadError) as caught:
        CASES[case](objects)
    assert caught.value.code in to.ERROR_CODES
