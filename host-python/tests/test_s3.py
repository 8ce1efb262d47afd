"""S3-compatible storage (issue 51): the Materializer, Workspace, offloads and imports
in a real S3 server (moto on 127.0.0.1, tests/moto.py), through the tokio host's
ObjectStoreIo, configured as the CLI's is: a location ``s3://bucket/prefix`` and the
``AWS_*`` environment. Each test reads what it wrote back from the bucket itself."""

from __future__ import annotations

import pickle
import threading
from pathlib import Path
from typing import Any

import pytest

import tool_offload as to
from moto import Moto, files_in, require_auth

LOG = "".join(f"line {i}: compiling module {i}\n" for i in range(400)) + "error: linker failed at step 7\n"


def no_local_files(cwd: Path) -> None:
    assert [p.name for p in cwd.iterdir()] == [], "nothing may be written to the working directory"


def test_materializer_in_a_bucket_is_read_by_another_worker(moto: Moto, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    m = to.Materializer("s3://artifacts/team-a", "conv-1", max_inline_chars=200)
    r = m.materialize_sync(tool_name="bash", tool_call_id="call_1", output=LOG)
    assert not r.inline and r.ref is not None
    assert r.path == "/context/conv-1/artifacts/tool/call_1.txt"
    keys = moto.keys("artifacts", "team-a/")
    assert "team-a/context/conv-1/artifacts/tool/call_1.txt" in keys
    assert moto.get("artifacts", "team-a/context/conv-1/artifacts/tool/call_1.txt").decode() == LOG

    # Another worker (another Materializer, the same URL) reads it by its ref.
    other = to.Materializer("s3://artifacts/team-a", "conv-1")
    assert other.tail_sync(r.ref, 1).endswith("error: linker failed at step 7")
    assert "error: linker failed" in other.grep_sync(r.ref.id, "linker")
    assert "line 3: compiling module 3" in other.read_sync(r.ref, 0, 5)
    found = other.handle_tool_call_sync("context_grep", {"ref": r.ref.id, "pattern": "step 7"})
    assert not found.is_error and "linker failed at step 7" in found.content
    unknown = other.handle_tool_call_sync("context_nothing", {})
    assert unknown.is_error
    # A ref of another prefix is not found there.
    with pytest.raises(to.OffloadError) as e:
        to.Materializer("s3://artifacts/team-b", "conv-1").tail_sync(r.ref, 1)
    assert e.value.code in ("REF_NOT_FOUND", "READ_FAILED")
    no_local_files(tmp_path)


def test_storage_option_is_the_url_with_a_path_inside(moto: Moto) -> None:
    a = to.Materializer("/data", "c", storage="s3://artifacts/p2", max_inline_chars=100)
    r = a.materialize_sync(tool_name="bash", tool_call_id="call_9", output=LOG)
    assert r.path == "/data/context/c/artifacts/tool/call_9.txt"
    assert moto.keys("artifacts", "p2/") == ["p2/data/context/c/artifacts/tool/call_9.txt"]
    # The same objects seen from the prefix's root as a URL.
    b = to.Materializer("s3://artifacts/p2/data", "c")
    assert b.tail_sync(r.ref, 1) == a.tail_sync(r.ref, 1)
    with pytest.raises(to.InvalidArgumentError, match="not both"):
        to.Materializer("s3://artifacts/p2", "c", storage="s3://artifacts/p2")


@pytest.mark.asyncio
async def test_conversation_calls_export_import_and_gc(moto: Moto) -> None:
    m = to.Materializer("s3://artifacts/conv", "c1", max_inline_chars=100)
    history = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": LOG}]},
    ]
    done = await m.materialize_messages(history)
    assert len(done.refs) == 1 and done.paths == ["/context/c1/artifacts/tool/t1.txt"]
    bundle = await m.export_conversation(done.messages)
    assert bundle["artifacts"][0]["content"] == LOG
    imported = await to.import_conversation(bundle, user_data="s3://artifacts/restored")
    assert imported.paths == ["/context/c1/artifacts/tool/t1.txt"]
    assert moto.get("artifacts", "restored/context/c1/artifacts/tool/t1.txt").decode() == LOG
    restored = to.Materializer("/", "c1", storage="s3://artifacts/restored")
    assert (await restored.tail(done.refs[0], 1)).endswith("step 7")
    report = await m.gc(older_than_ms=0, dry_run=True)
    assert report.removed and all(p.startswith("/context/c1/") for p in report.removed)
    assert "conv/context/c1/artifacts/tool/t1.txt" in moto.keys("artifacts", "conv/")
    report = await m.gc(older_than_ms=0)
    # The artifact is gone, its tombstone stays (docs/retention.md): a ref never changes meaning.
    assert moto.keys("artifacts", "conv/") == ["conv/context/c1/artifacts/tool/t1.txt.removed"]


def test_pickled_materializer_opens_the_same_bucket(moto: Moto) -> None:
    m = to.Materializer("s3://artifacts/pickled", "c", max_inline_chars=100)
    r = m.materialize_sync(tool_name="bash", tool_call_id="p1", output=LOG)
    again = pickle.loads(pickle.dumps(m))
    assert again.tail_sync(r.ref, 1) == m.tail_sync(r.ref, 1)


def test_workspace_in_a_bucket(moto: Moto, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    ws = to.Workspace("s3://artifacts/ws", namespace="team", session_id="s1", now=lambda: 1_700_000_000_000)
    r = ws.offload_tool_result_sync(tool_call_id="call_1", tool_name="bash", content=LOG * 3)
    assert r.offloaded and r.artifact_id == "tool_result_call_1"
    keys = moto.keys("artifacts", "ws/")
    assert any(k.startswith("ws/context/team/") for k in keys) and len(keys) >= 2
    # Another worker's workspace, scanning the records in the bucket.
    other = to.Workspace("s3://artifacts/ws", namespace="team")
    records = other.query_artifacts_sync({"tool_name": "bash"})
    assert [x["id"] for x in records] == ["tool_result_call_1"]
    assert other.get_by_id_sync("tool_result_call_1")["content"] == LOG * 3
    assert "linker failed" in other.grep_sync(None, "linker")
    bundle = other.export_namespace_sync()
    assert [(i["record"]["id"], i["content"]) for i in bundle["items"]] == [("tool_result_call_1", LOG * 3)]
    assert ws.tool_definitions("anthropic") == to.Workspace(tmp_path / "local").tool_definitions("anthropic")
    with pytest.raises(to.InvalidArgumentError, match="sqlite"):
        to.Workspace("s3://artifacts/ws", index="sqlite")
    # Pickled, its index is the store's default again (not an explicit "sqlite").
    again = pickle.loads(pickle.dumps(other))
    assert [x["id"] for x in again.query_artifacts_sync({})] == ["tool_result_call_1"]
    for p in list(tmp_path.iterdir()):
        if p.name == "local":
            continue
        pytest.fail(f"{p} written locally")


def test_offloads_to_a_bucket(moto: Moto) -> None:
    history = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": LOG}]},
    ]
    done = to.offload_tool_results_sync(history, output_dir="s3://artifacts/batch", threshold=100)
    assert done.offloaded_count == 1 and done.files == ["/tool-result-t1.md"]
    assert moto.get("artifacts", "batch/tool-result-t1.md").decode() == LOG
    direct = to.offload_tool_result_sync(history[1], session_id="s1", output_dir="/out", storage="s3://artifacts/direct")
    assert direct.file == "/out/s1/t1.md"
    assert files_in(moto, "artifacts", "direct") == {"/out/s1/t1.md": LOG}
    registry = to.ToolRegistry(offload={"output_dir": "s3://artifacts/reg", "session_id": "s2", "threshold_chars": 10})
    registry.register({"name": "bash", "description": "Run", "input_schema": {"type": "object"}}, lambda p: LOG)
    result = registry.execute_tool_sync("toolu_1", "bash", {})
    assert "offloaded" in str(result["content"])
    assert moto.keys("artifacts", "reg/") == ["reg/s2/toolu_1.md"]


def test_storage_errors_are_typed(moto: Moto) -> None:
    with pytest.raises(to.InvalidArgumentError, match="unsupported scheme"):
        to.Materializer("ftp://host/x", "c")
    with pytest.raises(to.InvalidArgumentError):
        to.Materializer("/data", "c", storage=42)  # type: ignore[arg-type]
    missing = to.Materializer("s3://no-such-bucket/p", "c", max_inline_chars=10)
    with pytest.raises(to.WriteFailedError) as e:
        missing.materialize_sync(tool_name="bash", tool_call_id="x1", output=LOG)
    assert e.value.code == "WRITE_FAILED" and e.value.path == "/context/c/artifacts/tool/x1.txt"
    assert "no-such-bucket" in str(e.value) or "NoSuchBucket" in str(e.value)
    # Read tools over a store on a registry that offloads: their pages would be offloaded.
    m = to.Materializer("s3://artifacts/refused", "c")
    offloading = to.ToolRegistry(offload={"output_dir": "/tmp/x", "session_id": "s"})
    with pytest.raises(to.InvalidArgumentError, match="object store"):
        m.register_tools(offloading)
    with pytest.raises(to.InvalidArgumentError, match="object store"):
        to.Workspace("s3://artifacts/refused").register_tools(offloading)
    assert offloading.tool_definitions() == []


def test_registry_materializing_into_a_bucket(moto: Moto) -> None:
    m = to.Materializer("s3://artifacts/registry", "c", max_inline_chars=200)
    registry = to.ToolRegistry(materializer=m)
    registry.register({"name": "bash", "description": "Run", "input_schema": {"type": "object"}}, lambda p: LOG)
    m.register_tools(registry)
    with pytest.raises(to.DuplicateToolError):
        m.register_tools(registry)  # all or none
    result = registry.execute_tool_sync("toolu_1", "bash", {})
    assert "ctx://c/tool/toolu_1.txt" in str(result["content"]) and len(str(result["content"])) < len(LOG)
    assert moto.get("artifacts", "registry/context/c/artifacts/tool/toolu_1.txt").decode() == LOG
    # A read tool's page, longer than the limit, comes back whole: never materialized.
    page = registry.execute_tool_sync("toolu_2", "context_read", {"ref": "ctx://c/tool/toolu_1.txt", "limit": 50})
    content = str(page["content"])
    assert len(content) > 200 and "22| line 21: compiling module 21" in content and not page.get("is_error")
    assert moto.keys("artifacts", "registry/") == ["registry/context/c/artifacts/tool/toolu_1.txt"]
    ws = to.Workspace("s3://artifacts/registry-ws")
    ws.offload_tool_result_sync(tool_call_id="k1", tool_name="bash", content=LOG * 3)
    ws.register_tools(registry)
    got = registry.execute_tool_sync("toolu_3", "get_knowledge_by_lines", {"id": "tool_result_k1", "start_line": 401, "end_line": 401})
    assert "linker failed" in str(got["content"])


def test_wrong_credentials_are_typed_errors(moto: Moto, monkeypatch: Any) -> None:
    strict = Moto("locked")
    try:
        require_auth(strict)
        monkeypatch.setenv("AWS_ENDPOINT_URL", strict.endpoint)
        m = to.Materializer("s3://locked/p", "c", max_inline_chars=10)
        with pytest.raises(to.WriteFailedError) as e:
            m.materialize_sync(tool_name="bash", tool_call_id="x1", output=LOG)
        assert e.value.path == "/context/c/artifacts/tool/x1.txt" and "403" in str(e.value)
        with pytest.raises(to.ReadFailedError) as r:
            m.tail_sync("ctx://c/tool/x1.txt", 1)
        assert r.value.code == "READ_FAILED"
    finally:
        strict.stop()


def test_two_workers_with_the_same_call_ids_lose_nothing(moto: Moto) -> None:
    """Two materializers of one conversation in threads, the same call ids: each name is
    taken once (a conditional put), every output is kept, each reads the other's."""
    outputs = {w: [f"worker {w} output {i}\n" * 40 for i in range(6)] for w in ("a", "b")}
    done: dict[str, list[to.Materialized]] = {}

    def work(w: str) -> None:
        m = to.Materializer("s3://artifacts/race", "conv", max_inline_chars=100)
        done[w] = [m.materialize_sync(tool_name="bash", tool_call_id=f"call_{i}", output=o) for i, o in enumerate(outputs[w])]

    threads = [threading.Thread(target=work, args=(w,)) for w in outputs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    refs = [r.ref.id for w in ("a", "b") for r in done[w] if r.ref is not None]
    assert len(refs) == 12 and len(set(refs)) == 12
    reader = to.Materializer("s3://artifacts/race", "conv")
    for w in ("a", "b"):
        for r, output in zip(done[w], outputs[w]):
            assert r.ref is not None and reader.read_sync(r.ref, 0, 1).endswith(output.splitlines()[0])
    assert len(moto.keys("artifacts", "race/")) >= 12


def test_relative_paths_in_a_store_start_at_its_root(moto: Moto, tmp_path: Path, monkeypatch: Any) -> None:
    """This process's working directory means nothing in a bucket: a relative path there
    is taken from the prefix's root (offloads: unless ``cwd=`` says otherwise)."""
    monkeypatch.chdir(tmp_path)
    m = to.Materializer("data", "c", storage="s3://artifacts/rel", max_inline_chars=100)
    r = m.materialize_sync(tool_name="bash", tool_call_id="t1", output=LOG)
    assert r.path == "/data/context/c/artifacts/tool/t1.txt"
    history = [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": LOG}]}]
    done = to.offload_tool_results_sync(history, output_dir="out", storage="s3://artifacts/rel", threshold=100)
    assert done.files == ["/out/tool-result-t2.md"]
    done = to.offload_tool_results_sync(history, output_dir="out", cwd="/w", storage="s3://artifacts/rel", threshold=100)
    assert done.files == ["/w/out/tool-result-t2.md"]
    assert sorted(moto.keys("artifacts", "rel/")) == [
        "rel/data/context/c/artifacts/tool/t1.txt", "rel/out/tool-result-t2.md", "rel/w/out/tool-result-t2.md"
    ]
    no_local_files(tmp_path)
