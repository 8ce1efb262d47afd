"""The Materializer's options and methods beyond materialize/read/tail/grep: per-tool
limits, redaction, a Python token counter, conversations, budget, read tools,
export/import, gc."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import tool_offload as to

LOG = "error: boom\n" * 3000


def history(result: str = LOG, call: str = "t9") -> list[dict[str, Any]]:
    return [
        {"role": "assistant", "content": [{"type": "tool_use", "id": call, "name": "bash", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call, "content": result}]},
    ]


def test_count_tokens_decides_per_tool_limits(tmp_path: Path) -> None:
    seen: list[str] = []

    def words(text: str) -> int:
        seen.append(text)
        return len(text.split())

    m = to.Materializer(tmp_path, "c1", tools={"bash": {"max_inline_tokens": 5}}, count_tokens=words)
    over = m.materialize_sync(tool_name="bash", tool_call_id="t1", output="a b c d e f")
    assert not over.inline and over.ref is not None and over.ref.id == "ctx://c1/tool/t1.txt"
    assert seen == ["a b c d e f"], "the Python counter was called with the output"
    assert m.materialize_sync(tool_name="bash", tool_call_id="t2", output="a b c").inline
    assert m.materialize_sync(tool_name="ls", tool_call_id="t3", output="a b c d e f g").inline


def test_count_tokens_errors_keep_their_cause(tmp_path: Path) -> None:
    def broken(text: str) -> int:
        raise KeyError("no vocabulary")

    m = to.Materializer(tmp_path, "c1", tools={"bash": {"max_inline_tokens": 5}}, count_tokens=broken)
    with pytest.raises(to.InvalidArgumentError) as caught:
        m.materialize_sync(tool_name="bash", tool_call_id="t1", output="a b c d e f")
    assert caught.value.code == "INVALID_ARGUMENT"
    assert "count_tokens raised" in str(caught.value)
    assert isinstance(caught.value.__cause__, KeyError)
    # The next call starts clean.
    assert to.Materializer(tmp_path, "c2").materialize_sync(tool_name="bash", tool_call_id="t", output="x").inline


def test_count_tokens_must_count(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "c1", tools={"bash": {"max_inline_tokens": 5}}, count_tokens=lambda t: -1)
    with pytest.raises(to.InvalidArgumentError) as caught:
        m.materialize_sync(tool_name="bash", tool_call_id="t1", output="a b c d e f g h")
    assert isinstance(caught.value.__cause__, ValueError)
    with pytest.raises(to.InvalidArgumentError):
        to.Materializer(tmp_path, "c1", count_tokens=3)  # type: ignore[arg-type]


def test_tools_never_and_always(tmp_path: Path) -> None:
    m = to.Materializer(
        tmp_path, "c1", max_inline_chars=10, tools={"cat": {"materialize": "never"}, "ls": {"materialize": "always"}}
    )
    assert m.materialize_sync(tool_name="cat", tool_call_id="a", output="x" * 100).inline
    assert not m.materialize_sync(tool_name="ls", tool_call_id="b", output="y").inline
    assert not m.materialize_sync(tool_name="other", tool_call_id="c", output="z" * 100).inline


@pytest.mark.parametrize(
    "options",
    [
        {"tools": {"b": {"max_inline": 3}}},
        {"tools": {"b": {"materialize": "sometimes"}}},
        {"tools": ["b"]},
        {"redact": "yes"},
        {"context_window": {"result_share": 0.5}},
        {"max_inline_chars": -1},
    ],
)
def test_bad_options_are_invalid_arguments(tmp_path: Path, options: dict[str, Any]) -> None:
    with pytest.raises(to.InvalidArgumentError):
        to.Materializer(tmp_path, "c1", **options)


def test_bad_ids_and_patterns_are_typed(tmp_path: Path) -> None:
    with pytest.raises(to.InvalidIdError):
        to.Materializer(tmp_path, "../x")
    with pytest.raises(to.InvalidPatternError):
        to.Materializer(tmp_path, "c", redact={"patterns": ["("]})


def test_redact_keeps_secrets_out_of_artifacts(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "c1", max_inline_chars=10, redact=True)
    done = m.materialize_sync(tool_name="bash", tool_call_id="k", output="key AKIAIOSFODNN7EXAMPLE and more")
    assert done.path is not None
    stored = Path(done.path).read_text()
    assert "AKIAIOSFODNN7EXAMPLE" not in stored and "[REDACTED:aws-access-key]" in stored
    # The ref says what was replaced, as the npm package's does.
    assert done.ref is not None and done.ref.hint.redacted == {"aws-access-key": 1}
    assert done.ref.to_dict()["hint"]["redacted"] == {"aws-access-key": 1}
    custom = to.Materializer(
        tmp_path, "c2", max_inline_chars=10, redact={"patterns": [{"pattern": r"ACME-\d+", "kind": "acme"}]}
    )
    done = custom.materialize_sync(tool_name="bash", tool_call_id="k", output="order ACME-123456 shipped")
    assert done.path is not None and "[REDACTED:acme]" in Path(done.path).read_text()


def test_conversation_budget_and_read_tools(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "c1")
    msgs = history()
    done = m.materialize_messages_sync(msgs)
    assert done.messages[0] is msgs[0] and done.messages[1] is not msgs[1]
    (ref,) = done.refs
    assert done.paths == [str(tmp_path / "context/c1/artifacts/tool/t9.txt")]
    assert m.unread_refs(done.messages) == [ref.id]
    (stat,) = m.read_stats(done.messages)
    assert (stat.ref, stat.tool_call_id, stat.reads, stat.errors) == (ref.id, "t9", 0, True)
    again = m.materialize_messages_sync(done.messages)
    assert again.refs == [] and again.messages[1] is done.messages[1], "a summary is left alone"

    read = m.handle_tool_call_sync("context_read", {"ref": ref.id, "limit": 1})
    assert not read.is_error and read.content.endswith("1| error: boom")
    outside = m.handle_tool_call_sync("context_read", {"ref": "ctx://other/tool/x.txt"})
    assert outside.is_error and "outside this conversation" in outside.content
    assert m.handle_tool_call_sync("no_such_tool", {}).is_error
    names = [d["function"]["name"] for d in m.tool_definitions("openai-chat")]
    assert names == ["context_read", "context_tail", "context_grep"]
    with pytest.raises(to.InvalidArgumentError):
        m.tool_definitions("gemini")

    b = m.budget_sync(msgs, trigger_tokens=10, keep_last=0)
    (cleared,) = b.cleared
    assert (cleared.message, cleared.tool_call_id, cleared.tool_name) == (1, "t9", "bash")
    assert b.rewritten_from_message == 1 and b.tokens_after < b.tokens_before
    assert m.read_sync(cleared.ref, 0, 1).endswith("1| error: boom")
    assert m.budget_sync(msgs, trigger_tokens=10**9).cleared == []


def test_export_import_and_gc(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path / "a", "c1")
    done = m.materialize_messages_sync(history())
    bundle = m.export_conversation_sync(done.messages)
    assert bundle["conversationId"] == "c1" and len(bundle["artifacts"]) == 1
    imported = to.import_conversation_sync(bundle, user_data=tmp_path / "b")
    assert imported.conversation_id == "c1"
    assert imported.paths == [str(tmp_path / "b/context/c1/artifacts/tool/t9.txt")]
    assert to.Materializer(tmp_path / "b", "c1").tail_sync(done.refs[0], 1).endswith("error: boom")
    with pytest.raises(to.InvalidBundleError):
        to.import_conversation_sync({**bundle, "artifacts": [{**bundle["artifacts"][0], "sha256": "0" * 64}]}, user_data=tmp_path / "c")

    m.materialize_sync(tool_name="bash", tool_call_id="old", output="x" * 5000)
    kept = m.gc_sync(older_than_ms=0, keep=done.messages, dry_run=True)
    assert [Path(p).name for p in kept.removed] == ["old.txt"] and kept.kept == 1
    assert (tmp_path / "a/context/c1/artifacts/tool/old.txt").exists(), "a dry run removes nothing"
    gone = m.gc_sync(older_than_ms=0, keep=done.messages)
    assert gone.removed == kept.removed and not (tmp_path / "a/context/c1/artifacts/tool/old.txt").exists()
    with pytest.raises(to.InvalidArgumentError):
        m.gc_sync()


def test_stats_and_terminal(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "c1", max_inline_chars=10)
    m.materialize_sync(tool_name="bash", tool_call_id="a", output="short")
    t = m.materialize_terminal_sync("snip", "$ make\n" + "compiling\n" * 50)
    assert not t.inline and t.ref is not None
    s = m.stats()
    assert (s.hits, s.inlined) == (1, 1) and s.saved_chars > 0 and s.avg_saved_chars == s.saved_chars


@pytest.mark.asyncio
async def test_async_twins(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "c1")
    done = await m.materialize_messages(history())
    (ref,) = done.refs
    assert (await m.handle_tool_call("context_tail", {"ref": ref.id, "lines": 1})).content.endswith("error: boom")
    assert (await m.budget(history(), trigger_tokens=10, keep_last=0)).cleared
    assert (await m.export_conversation(done.messages))["format"]
    pages = await asyncio.gather(*(m.grep(ref, "boom", max_matches=1) for _ in range(8)))
    assert len(set(pages)) == 1
    with pytest.raises(to.RunningEventLoopError):
        m.budget_sync(history(), trigger_tokens=10)


def test_bytes_are_a_binary_artifact(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "c1")
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    done = m.materialize_sync(tool_name="screenshot", tool_call_id="shot", output=png)
    assert not done.inline and done.ref is not None and done.ref.id == "ctx://c1/tool/shot.bin"
    assert done.path is not None and Path(done.path).read_bytes() == png
    assert "PNG" in done.content
    assert m.materialize_sync(tool_name="s", tool_call_id="b2", output=bytearray(b"ab")).ref is not None


def test_budget_counts_with_this_calls_counter(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "c1")
    counted: list[str] = []

    def count(text: str) -> int:
        counted.append(text)
        return 1

    b = m.budget_sync(history(), trigger_tokens=10, keep_last=0, count_tokens=count)
    assert b.cleared == [] and b.tokens_before == 2 and len(counted) == 2, "two messages of one token each"
    with pytest.raises(to.InvalidArgumentError) as caught:
        m.budget_sync(history(), trigger_tokens=10, count_tokens=lambda t: 1 // 0)
    assert isinstance(caught.value.__cause__, ZeroDivisionError)


def test_lone_surrogates_come_back_in_conversations(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "c1")
    msgs = history(result="cut \udc00 " + LOG)
    msgs[1]["note"] = "keep \ud83d"
    done = m.materialize_messages_sync(msgs)
    assert done.messages[1] is not msgs[1], "changed: its summary"
    assert done.messages[1]["note"] == "keep \ud83d", "the rest of a changed message as it was"
    b = m.budget_sync(msgs, trigger_tokens=10, keep_last=0)
    assert b.messages[1] is not msgs[1] and b.messages[1]["note"] == "keep \ud83d"
    bundle = m.export_conversation_sync(done.messages)
    assert bundle["messages"][1]["note"] == "keep \ud83d"


def test_mcp_call_tool_results(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "c1")
    small = {"content": [{"type": "text", "text": "ok"}]}
    assert m.materialize_call_tool_result_sync(small, tool_name="bash", call_id="a") is small
    big = {"content": [{"type": "text", "text": LOG}], "isError": True}
    out = m.materialize_call_tool_result_sync(big, tool_name="bash", call_id="b", server_name="shell")
    assert out["isError"] is True and out["content"][1]["uri"] == "ctx://c1/tool/b.txt"
    assert len(out["content"][0]["text"]) < 4000
    assert m.tail_sync("ctx://c1/tool/b.txt", 1).endswith("error: boom")
    with pytest.raises(to.InvalidArgumentError):
        m.materialize_call_tool_result_sync("text", tool_name="bash", call_id="c")  # type: ignore[arg-type]


def test_grep_all_is_grep_without_a_ref(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "c1")
    m.materialize_messages_sync(history())
    assert m.grep_all_sync("boom", max_matches=1) == m.grep_sync(None, "boom", max_matches=1)
    ws = to.Workspace(tmp_path / "ws")
    ws.add_sync(id="n", content="a needle here", metadata={"context_type": "note"})
    assert "needle" in ws.grep_all_sync("needle")
