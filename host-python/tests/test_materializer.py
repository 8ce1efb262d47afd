"""Materializer: materialize, read, tail, grep, and their _sync twins."""

from __future__ import annotations

from pathlib import Path

import pytest

import tool_offload
from tool_offload import ContextRef, Materializer, OffloadError

LOG = "\n".join("FATAL: disk full on /dev/sda1" if i == 120 else f"step {i}: ok" for i in range(300))


def test_small_output_stays_inline(tmp_path: Path) -> None:
    m = Materializer(tmp_path, "conv-1")
    done = m.materialize_sync(tool_name="bash", tool_call_id="call_1", output="hello")
    assert done.inline and done.content == "hello" and done.ref is None
    value = {"rows": [1, 2]}
    assert m.materialize_sync(tool_name="q", tool_call_id="call_2", output=value).content is value
    assert not list(tmp_path.rglob("*.txt"))


def test_large_output_is_materialized_and_read_back(tmp_path: Path) -> None:
    m = Materializer(tmp_path, "conv-1", max_inline_chars=1000)
    done = m.materialize_sync(tool_name="bash", tool_call_id="call_1", output=LOG)
    assert not done.inline
    assert done.content.startswith("[Output of ")
    assert isinstance(done.ref, ContextRef)
    assert done.ref.id == "ctx://conv-1/tool/call_1.txt" == str(done.ref)
    assert (done.ref.hint.tool_name, done.ref.hint.tool_call_id) == ("bash", "call_1")
    assert done.ref.hint.lines == 300 and done.ref.hint.chars == len(LOG) and not done.ref.hint.is_json
    assert done.path == str(tmp_path / "context" / "conv-1" / "artifacts" / "tool" / "call_1.txt")
    assert Path(done.path).read_text() == LOG

    page = m.read_sync(done.ref, offset=10, limit=2)
    assert "11| step 10: ok\n12| step 11: ok" in page
    assert m.read_sync(done.ref.id, 10, 2) == page
    tail = m.tail_sync(done.ref, 2)
    assert tail.rstrip().endswith("300| step 299: ok")
    hits = m.grep_sync(done.ref, "fatal", ignore_case=True)
    assert "121| FATAL: disk full on /dev/sda1" in hits
    assert "1 matching row" in hits
    assert "no match" in m.grep_sync(done.ref, "fatal").lower() or "0 matching" in m.grep_sync(done.ref, "fatal")


@pytest.mark.asyncio
async def test_async_methods(tmp_path: Path) -> None:
    m = Materializer(tmp_path, "conv-2", max_inline_chars=100)
    done = await m.materialize(tool_name="bash", tool_call_id="a", output=LOG)
    assert not done.inline and done.ref is not None
    assert (await m.read(done.ref, 0, 1)).count("\n") >= 1
    assert "300| step 299: ok" in await m.tail(done.ref, 1)
    assert "FATAL" in await m.grep(done.ref, "disk full")


@pytest.mark.asyncio
async def test_sync_twins_refuse_a_running_loop(tmp_path: Path) -> None:
    m = Materializer(tmp_path, "conv-3")
    for call in (
        lambda: m.materialize_sync(tool_name="t", tool_call_id="c", output="x"),
        lambda: m.read_sync("ctx://conv-3/tool/c.txt"),
        lambda: m.tail_sync("ctx://conv-3/tool/c.txt"),
        lambda: m.grep_sync("ctx://conv-3/tool/c.txt", "x"),
    ):
        with pytest.raises(tool_offload.RunningEventLoopError):
            call()


def test_errors_have_codes(tmp_path: Path) -> None:
    m = Materializer(tmp_path, "conv-4")
    with pytest.raises(tool_offload.RefOutOfScopeError) as out_of_scope:
        m.read_sync("ctx://someone-else/tool/c.txt")
    assert out_of_scope.value.code == "REF_OUT_OF_SCOPE"
    with pytest.raises(tool_offload.RefNotFoundError) as not_found:
        m.tail_sync("ctx://conv-4/tool/missing.txt")
    assert not_found.value.code == "REF_NOT_FOUND"
    with pytest.raises(OffloadError) as bad_id:
        m.materialize_sync(tool_name="t", tool_call_id="../escape", output="x" * 5000)
    assert bad_id.value.code == "INVALID_ID"
    with pytest.raises(tool_offload.InvalidIdError):
        Materializer(tmp_path, "../up")


def test_invalid_pattern(tmp_path: Path) -> None:
    m = Materializer(tmp_path, "conv-5", max_inline_chars=10)
    done = m.materialize_sync(tool_name="t", tool_call_id="c", output=LOG)
    assert done.ref is not None
    with pytest.raises(tool_offload.InvalidPatternError) as caught:
        m.grep_sync(done.ref, "(unclosed")
    assert caught.value.code == "INVALID_PATTERN" and isinstance(caught.value, ValueError)


def test_option_checks(tmp_path: Path) -> None:
    with pytest.raises(tool_offload.InvalidArgumentError):
        Materializer(tmp_path, "c", max_inline_chars=-1)
    with pytest.raises(tool_offload.InvalidArgumentError):
        Materializer(tmp_path, "c").read_sync(123)  # type: ignore[arg-type]
