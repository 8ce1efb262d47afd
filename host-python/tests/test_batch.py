"""Batch offload (seed 001) against the conformance vectors and its Python contract."""

from __future__ import annotations

import asyncio
import copy
import json
import os
from pathlib import Path

import pytest

import tool_offload
from tool_offload import OffloadError, offload_tool_results, offload_tool_results_sync
from tool_offload._offload import _batch

from conftest import VECTORS, compact, js, load_vector

BATCH = sorted(p.name for p in VECTORS.glob("batch-*.json"))
# `failOn`: the writer fails on that path (the private `_fail_on` of `_batch`).
INJECTED = {"batch-mkdir-failure.json", "batch-write-failure.json"}
# Lone UTF-16 surrogates, which a Python str holds: they cross escaped and are marked.
LONE = {n for n in BATCH if "lone-surrogate" in n}


def test_vectors_found() -> None:
    assert len(BATCH) >= 50


@pytest.mark.parametrize("name", BATCH)
def test_vector(name: str, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vector = load_vector(name)
    cwd = root / vector["cwd"].lstrip("/")
    cwd.mkdir(parents=True)
    monkeypatch.chdir(cwd)
    (step,) = vector["steps"]
    assert step["op"] == "offloadToolResults"
    out_dir = step["outputDir"]
    if out_dir.startswith("/"):
        out_dir = str(root) + out_dir
    messages = step["messages"]
    before = copy.deepcopy(messages)
    threshold = step.get("threshold", tool_offload.DEFAULT_THRESHOLD)
    fail_on = None if "failOn" not in step else str(root) + step["failOn"]
    if "error" in step:
        with pytest.raises(OffloadError) as caught:
            _batch(messages, out_dir, threshold, _fail_on=fail_on)
        assert caught.value.code == step["error"]["code"]
        assert str(caught.value).replace(str(root), "") == step["error"]["message"]
        if "path" in step["error"]:
            assert caught.value.path == str(root) + step["error"]["path"]
    else:
        done = _batch(messages, out_dir, threshold, _fail_on=fail_on)
        expect = step["expect"]
        # Outcomes are compared as every host records them: printed as JSON.stringify
        # prints (the Python values keep their own float/int and key order).
        assert js(done.messages) == js(expect["messages"])
        assert done.offloaded_count == expect["offloadedCount"]
        assert done.freed_chars == expect["freedChars"]
        assert done.files == [str(root) + f for f in expect["files"]]
        assert done.unrecognized == expect.get("unrecognized", [])
    assert messages == before, "the input list is left untouched"
    written = {
        "/" + str(p.relative_to(root)): p.read_text(encoding="utf-8")
        for p in root.rglob("*")
        if p.is_file()
    }
    assert written == {os.path.normpath(k): v for k, v in vector["files"].items()}


def test_300_chars_at_threshold_100(tmp_path: Path) -> None:
    messages = [
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "x" * 300}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "short"},
    ]
    done = offload_tool_results_sync(messages, output_dir=tmp_path, threshold=100)
    assert done.messages[0]["content"][0]["content"] == "[Content offloaded to: ./tool-result-toolu_1.md]"
    assert done.messages[1] == messages[1]
    assert (done.offloaded_count, done.freed_chars) == (1, 300)
    assert done.files == [str(tmp_path / "tool-result-toolu_1.md")]
    assert (tmp_path / "tool-result-toolu_1.md").read_text() == "x" * 300
    assert messages[0]["content"][0]["content"] == "x" * 300
    assert done.messages[1] is messages[1], "unchanged messages are the same objects, as npm's"
    assert done.messages[0] is not messages[0]


def test_default_threshold_is_100() -> None:
    assert tool_offload.DEFAULT_THRESHOLD == 100


@pytest.mark.asyncio
async def test_async_runs_off_the_loop(tmp_path: Path) -> None:
    messages = [{"role": "tool", "tool_call_id": f"call_{i}", "content": "y" * 150} for i in range(20)]
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    ticker = asyncio.create_task(tick())
    done = await offload_tool_results(messages, output_dir=tmp_path)
    ticker.cancel()
    assert done.offloaded_count == 20
    assert ticks > 0, "the event loop kept running while the batch ran"


@pytest.mark.asyncio
async def test_sync_twin_refuses_a_running_loop(tmp_path: Path) -> None:
    with pytest.raises(tool_offload.RunningEventLoopError) as caught:
        offload_tool_results_sync([], output_dir=tmp_path)
    assert isinstance(caught.value, OffloadError) and isinstance(caught.value, RuntimeError)
    assert "await offload_tool_results" in str(caught.value)


def test_write_failure_names_the_path(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    messages = [{"role": "tool", "tool_call_id": "call_1", "content": "z" * 200}]
    with pytest.raises(tool_offload.WriteFailedError) as caught:
        offload_tool_results_sync(messages, output_dir=tmp_path / "file" / "out")
    assert caught.value.code == "WRITE_FAILED"
    assert caught.value.path is not None and caught.value.path.startswith(str(tmp_path / "file"))
    assert isinstance(caught.value, OSError)


@pytest.mark.parametrize(
    "messages", ["not a list", [{"role": "tool", "tool_call_id": "c", "content": float("nan")}], [object()]]
)
def test_bad_arguments(messages: object, tmp_path: Path) -> None:
    with pytest.raises(tool_offload.InvalidArgumentError) as caught:
        offload_tool_results_sync(messages, output_dir=tmp_path)  # type: ignore[arg-type]
    assert caught.value.code == "INVALID_ARGUMENT"


def test_json_round_trip_keeps_values(tmp_path: Path) -> None:
    message = {"role": "tool", "tool_call_id": "c", "content": "ok", "n": [1, 2.5, -0.0, 1e300, True, None], "é": "ü"}
    done = offload_tool_results_sync([message], output_dir=tmp_path)
    assert json.dumps(done.messages[0]) == json.dumps(message)


def test_one_vector_byte_for_byte(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """batch-openai-chat-conversation: the output messages, byte for byte, both as Python
    prints them and as the vector (JSON.stringify) does."""
    vector = load_vector("batch-openai-chat-conversation.json")
    (step,) = vector["steps"]
    (root / "work").mkdir()
    monkeypatch.chdir(root / "work")
    done = offload_tool_results_sync(step["messages"], output_dir=step["outputDir"])
    assert compact(done.messages) == compact(step["expect"]["messages"])
    assert js(done.messages) == compact(step["expect"]["messages"])
    assert '"content":"[Content offloaded to: ./tool-result-' in compact(done.messages)


def test_lone_surrogates_cross_and_are_written_as_node_writes_them(tmp_path: Path) -> None:
    kept = {"role": "tool", "tool_call_id": "k", "content": "short \udc00"}
    messages = [{"role": "tool", "tool_call_id": "c", "content": "cut \ud83d" + "x" * 200}, kept]
    done = offload_tool_results_sync(messages, output_dir=tmp_path)
    assert done.freed_chars == 205, "a lone surrogate is one UTF-16 unit"
    assert (tmp_path / "tool-result-c.md").read_text(encoding="utf-8") == "cut \ufffd" + "x" * 200
    assert done.messages[1] is kept
    assert done.messages[0]["content"] == "[Content offloaded to: ./tool-result-c.md]"
