"""Calls from many threads and tasks at once: the GIL is released while the extension
works and taken back for Python callbacks (a counter, handlers), so nothing deadlocks and
every call gets its own result."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import tool_offload as to

SCHEMA = {"type": "object", "properties": {}}


def test_threads_share_one_materializer_and_its_python_counter(tmp_path: Path) -> None:
    calls = 0
    lock = threading.Lock()

    def words(text: str) -> int:
        nonlocal calls
        with lock:
            calls += 1
        return len(text.split())

    m = to.Materializer(tmp_path, "c1", tools={"bash": {"max_inline_tokens": 10}}, count_tokens=words)

    def one(i: int) -> str:
        done = m.materialize_sync(tool_name="bash", tool_call_id=f"t{i}", output=f"word{i} " * 50)
        assert done.ref is not None
        return m.read_sync(done.ref, 0, 1)

    with ThreadPoolExecutor(8) as pool:
        pages = list(pool.map(one, range(32), timeout=60))
    for i, page in enumerate(pages):
        assert page.startswith(f"[ctx://c1/tool/t{i}.txt: lines 1-1 of 1") and f"1| word{i} word{i}" in page
    assert calls >= 32 and m.stats().hits == 32


@pytest.mark.asyncio
async def test_tasks_run_async_handlers_on_the_loop_at_once() -> None:
    r = to.ToolRegistry()
    started = 0
    both = asyncio.Event()

    async def meet(p: Any) -> str:
        nonlocal started
        started += 1
        if started == 2:
            both.set()
        await asyncio.wait_for(both.wait(), 10)
        return f"met {p['n']}"

    r.register({"name": "meet", "description": "waits for the other", "input_schema": SCHEMA}, meet)
    got = await asyncio.wait_for(asyncio.gather(*(r.execute_tool(f"u{n}", "meet", {"n": n}) for n in (1, 2))), 20)
    assert [g["content"] for g in got] == ["met 1", "met 2"], "both handlers waited for each other"


def test_registration_while_a_handler_runs(tmp_path: Path) -> None:
    r = to.ToolRegistry()
    entered = threading.Event()
    release = threading.Event()

    def slow(p: Any) -> str:
        entered.set()
        assert release.wait(10)
        return "done"

    r.register({"name": "slow", "description": "d", "input_schema": SCHEMA}, slow)
    with ThreadPoolExecutor(2) as pool:
        running = pool.submit(r.execute_tool_sync, "u1", "slow", {})
        assert entered.wait(10)
        registering = pool.submit(r.register, {"name": "later", "description": "d", "input_schema": SCHEMA}, lambda p: "x")
        release.set()
        assert running.result(20)["content"] == "done"
        registering.result(20)
    assert [d["name"] for d in r.tool_definitions()] == ["slow", "later"]


def test_a_handler_registering_on_its_own_registry_is_refused_not_stuck() -> None:
    r = to.ToolRegistry()

    def grow(p: Any) -> str:
        r.register({"name": "grown", "description": "d", "input_schema": SCHEMA}, lambda q: "g")
        return "grew"

    r.register({"name": "grow", "description": "d", "input_schema": SCHEMA}, grow)
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(r.execute_tool_sync, "u1", "grow", {}).result(20)
    assert result["is_error"] is True and "register tools before executing them" in result["content"]
    assert [d["name"] for d in r.tool_definitions()] == ["grow"]


@pytest.mark.asyncio
async def test_an_async_handler_registering_is_refused_not_stuck() -> None:
    r = to.ToolRegistry()

    async def grow(p: Any) -> str:
        r.register({"name": "grown", "description": "d", "input_schema": SCHEMA}, lambda q: "g")
        return "grew"

    r.register({"name": "grow", "description": "d", "input_schema": SCHEMA}, grow)
    result = await asyncio.wait_for(r.execute_tool("u1", "grow", {}), 20)
    assert result["is_error"] is True and "register tools before executing them" in result["content"]
    r.register({"name": "later", "description": "d", "input_schema": SCHEMA}, lambda q: "x")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_child_gets_a_runtime_of_its_own(tmp_path: Path) -> None:
    """A child made by fork (multiprocessing, pre-forking servers) inherits the parent's
    runtime without its threads: its calls must still finish."""
    m = to.Materializer(tmp_path, "c1")
    m.materialize_sync(tool_name="bash", tool_call_id="parent", output="x\n" * 5000)
    pid = os.fork()
    if pid == 0:  # the child: exit 0 only when the call finished with an artifact
        try:
            done = m.materialize_sync(tool_name="bash", tool_call_id="child", output="y\n" * 5000)
            os._exit(0 if done.ref is not None else 3)
        except BaseException:
            os._exit(4)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        finished, status = os.waitpid(pid, os.WNOHANG)
        if finished:
            assert os.waitstatus_to_exitcode(status) == 0
            assert (tmp_path / "context/c1/artifacts/tool/child.txt").exists()
            return
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    pytest.fail("the forked child's call never finished")


def test_copies_are_the_same_handle(tmp_path: Path) -> None:
    import copy

    m, ws, r = to.Materializer(tmp_path, "c1"), to.Workspace(tmp_path / "ws"), to.ToolRegistry()
    for obj in (m, ws, r):
        assert copy.copy(obj) is obj and copy.deepcopy(obj) is obj
    assert copy.deepcopy({"tools": [m]})["tools"][0] is m


def words(text: str) -> int:
    return len(text.split())


def read_in_child(m: to.Materializer, ref: str) -> str:
    return m.read_sync(ref, 0, 1)


def test_a_materializer_goes_to_a_spawned_process(tmp_path: Path) -> None:
    """Pickled as its arguments: a pool's process (spawned, not forked) reads the same
    artifacts."""
    import multiprocessing
    import pickle

    m = to.Materializer(tmp_path, "c1", max_inline_chars=10, count_tokens=words)
    done = m.materialize_sync(tool_name="bash", tool_call_id="t", output="one two three")
    assert done.ref is not None
    again = pickle.loads(pickle.dumps(m))
    assert again is not m and again.conversation_id == "c1" and again.read_sync(done.ref) == m.read_sync(done.ref)
    ws = pickle.loads(pickle.dumps(to.Workspace(tmp_path / "ws", namespace="n", index=None)))
    assert ws.namespace == "n"
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        page = pool.apply(read_in_child, (m, done.ref.id))
    assert page.endswith("1| one two three")
