"""A ``count_tokens`` callable that raises fails the call at once (host-tokio's fallible
counter, ``with_fallible_token_counter``/``try_budget_counted``): it is not asked again
in that call, nothing more is written, and the exception is the ``__cause__`` of the
``InvalidArgumentError`` raised."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

import tool_offload as to

LOG = "word " * 3000


def history(n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(n):
        out.append({"role": "assistant", "content": [{"type": "tool_use", "id": f"t{i}", "name": "bash", "input": {}}]})
        out.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{i}", "content": LOG}]})
    return out


def failing_at(call: int, calls: list[str]) -> Callable[[str], int]:
    """A counter answering 1 until its ``call``-th call, which raises."""

    def count(text: str) -> int:
        calls.append(text)
        if len(calls) == call:
            raise LookupError(f"tokenizer gone at call {call}")
        return 1

    return count


def files_under(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("call", [1, 3])
def test_budget_stops_at_the_counter_s_error(tmp_path: Path, call: int) -> None:
    calls: list[str] = []
    m = to.Materializer(tmp_path, "c1", count_tokens=failing_at(call, calls))
    with pytest.raises(to.InvalidArgumentError) as caught:
        m.budget_sync(history(4), trigger_tokens=1, keep_last=0)
    assert len(calls) == call, "the counter is not asked again after it raised"
    assert isinstance(caught.value.__cause__, LookupError)
    assert "count_tokens raised" in str(caught.value) and f"at call {call}" in str(caught.value)
    assert files_under(tmp_path) == [], "nothing written: the messages were never all counted"


def test_budget_s_own_counter_too(tmp_path: Path) -> None:
    calls: list[str] = []
    m = to.Materializer(tmp_path, "c1")
    with pytest.raises(to.InvalidArgumentError) as caught:
        m.budget_sync(history(4), trigger_tokens=1, count_tokens=failing_at(1, calls))
    assert len(calls) == 1 and isinstance(caught.value.__cause__, LookupError)
    # The same materializer, the same messages, a counter that works: the budget runs.
    done = m.budget_sync(history(4), trigger_tokens=1, keep_last=0, count_tokens=lambda t: 1000)
    assert [c.tool_call_id for c in done.cleared] == ["t0", "t1", "t2"]


def test_materialize_stops_before_writing(tmp_path: Path) -> None:
    calls: list[str] = []
    m = to.Materializer(tmp_path, "c1", tools={"bash": {"max_inline_tokens": 5}}, count_tokens=failing_at(1, calls))
    with pytest.raises(to.InvalidArgumentError) as caught:
        m.materialize_sync(tool_name="bash", tool_call_id="t1", output=LOG)
    assert len(calls) == 1 and isinstance(caught.value.__cause__, LookupError)
    assert files_under(tmp_path) == []


@pytest.mark.asyncio
async def test_materialize_messages_with_a_window_stops_at_once(tmp_path: Path) -> None:
    calls: list[str] = []
    m = to.Materializer(
        tmp_path, "c1", context_window={"tokens": 1000}, count_tokens=failing_at(2, calls)
    )
    with pytest.raises(to.InvalidArgumentError) as caught:
        await m.materialize_messages(history(5))
    assert len(calls) == 2 and isinstance(caught.value.__cause__, LookupError)


def test_a_count_below_zero_stops_the_call(tmp_path: Path) -> None:
    calls: list[str] = []

    def negative(text: str) -> int:
        calls.append(text)
        return -1

    m = to.Materializer(tmp_path, "c1", count_tokens=negative)
    with pytest.raises(to.InvalidArgumentError) as caught:
        m.budget_sync(history(3), trigger_tokens=1)
    assert len(calls) == 1 and isinstance(caught.value.__cause__, ValueError)
    assert "integer >= 0, got -1" in str(caught.value)


def test_workspace_counter_stops_the_offload(tmp_path: Path) -> None:
    calls: list[str] = []
    ws = to.Workspace(tmp_path, token_threshold=10, count_tokens=failing_at(1, calls))
    with pytest.raises(to.InvalidArgumentError) as caught:
        ws.offload_tool_result_sync(tool_call_id="c1", tool_name="bash", content=LOG)
    assert len(calls) == 1 and isinstance(caught.value.__cause__, LookupError)
    assert ws.query_artifacts_sync({}) == []
