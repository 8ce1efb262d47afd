"""tool_offload.strands with the real Strands agent loop and a scripted model (no
network)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, AsyncIterator, Callable, List

import pytest

from adapters import require  # noqa: E402

require("strands")

from strands import Agent, tool  # noqa: E402
from strands.models.model import Model  # noqa: E402

from tool_offload import Materializer  # noqa: E402
from tool_offload.strands import BudgetPlugin, MaterializePlugin  # noqa: E402

from adapters import LOG, NEEDLE, PATTERN, SMALL, assert_summary, ref_in  # noqa: E402


class ScriptedModel(Model):
    """A Strands model whose next turn is ``script(messages)``: ``("text", str)`` or
    ``("tool", name, tool_use_id, input)``; records the messages of every call."""

    def __init__(self, script: Callable[[List[Any]], tuple]) -> None:
        self.script = script
        self.seen: List[List[Any]] = []

    def update_config(self, **model_config: Any) -> None:
        pass

    def get_config(self) -> Any:
        return {}

    def structured_output(self, *args: Any, **kwargs: Any) -> Any:  # pragma: no cover
        raise NotImplementedError

    async def stream(self, messages: List[Any], *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        self.seen.append(json.loads(json.dumps(messages, default=str)))
        move = self.script(messages)
        yield {"messageStart": {"role": "assistant"}}
        if move[0] == "tool":
            _, name, tool_use_id, input = move
            yield {"contentBlockStart": {"start": {"toolUse": {"name": name, "toolUseId": tool_use_id}}}}
            yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(input)}}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}
        else:
            yield {"contentBlockStart": {"start": {}}}
            yield {"contentBlockDelta": {"delta": {"text": move[1]}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}


def results(messages: List[Any]) -> List[dict]:
    return [b["toolResult"] for m in messages for b in m["content"] if isinstance(b, dict) and "toolResult" in b]


def text_of(result: dict) -> str:
    return "".join(b.get("text", "") for b in result["content"])


def grep_the_needle(messages: List[Any]) -> tuple:
    done = results(messages)
    if not done:
        return ("tool", "build", "call_build", {"target": "all"})
    last = done[-1]
    if last["toolUseId"] == "call_build":
        ref = ref_in(text_of(last))
        if ref is None:
            return ("text", f"inline: {text_of(last)}")
        return ("tool", "context_grep", "call_grep", {"ref": ref, "pattern": PATTERN})
    return ("text", f"{last['status']}: {text_of(last)}")


def answer_after_one(messages: List[Any]) -> tuple:
    return ("text", "ok") if results(messages) else grep_the_needle(messages)


def agent_with(materializer: Materializer, output: Any, model: ScriptedModel, **options: Any) -> Agent:
    @tool
    def build(target: str) -> Any:
        """Build a target and return its log."""
        return output

    return Agent(
        model=model, tools=[build], plugins=[MaterializePlugin(materializer, **options)], callback_handler=None
    )


@pytest.fixture
def materializer(tmp_path: Path) -> Materializer:
    return Materializer(tmp_path, "conv-1")


def test_model_sees_the_summary(materializer: Materializer) -> None:
    model = ScriptedModel(answer_after_one)
    agent = agent_with(materializer, LOG, model, read_tools=False)
    agent("why does the build fail?")
    (seen,) = results(model.seen[1])
    ref = assert_summary(text_of(seen), "build")
    assert ref == "ctx://conv-1/tool/call_build.txt" and seen["status"] == "success"
    (kept,) = results(agent.messages)
    assert text_of(kept) == text_of(seen)
    assert materializer.grep_sync(ref, PATTERN).count(NEEDLE) == 1


@pytest.mark.asyncio
async def test_async_invocation(materializer: Materializer) -> None:
    model = ScriptedModel(answer_after_one)
    await agent_with(materializer, LOG, model, read_tools=False).invoke_async("build")
    assert_summary(text_of(results(model.seen[1])[0]), "build")


def test_small_output_stays_inline(materializer: Materializer) -> None:
    model = ScriptedModel(grep_the_needle)
    result = agent_with(materializer, SMALL, model, read_tools=False)("build")
    assert str(result).strip() == f"inline: {SMALL}"


def test_json_blocks_are_stored_as_json(materializer: Materializer, tmp_path: Path) -> None:
    rows = {"rows": [{"id": i, "name": f"row {i}"} for i in range(2000)]}
    model = ScriptedModel(answer_after_one)
    agent_with(materializer, {"status": "success", "content": [{"json": rows}]}, model, read_tools=False)("build")
    (seen,) = results(model.seen[1])
    assert text_of(seen).startswith("[Output of build ") and "call_build.json" in text_of(seen)
    stored = tmp_path / "context" / "conv-1" / "artifacts" / "tool" / "call_build.json"
    assert json.loads(stored.read_text()) == rows


def test_text_blocks_are_stored_as_text(materializer: Materializer, tmp_path: Path) -> None:
    half = len(LOG) // 2
    blocks = [{"text": LOG[:half]}, {"text": LOG[half:]}]
    model = ScriptedModel(answer_after_one)
    agent_with(materializer, {"status": "success", "content": blocks}, model, read_tools=False)("build")
    assert "call_build.txt" in text_of(results(model.seen[1])[0])
    stored = (tmp_path / "context" / "conv-1" / "artifacts" / "tool" / "call_build.txt").read_text()
    assert NEEDLE in stored and stored.replace("\n", "") == LOG.replace("\n", "")


def test_images_pass_unchanged(materializer: Materializer) -> None:
    image = {"image": {"format": "png", "source": {"bytes": b"\x89PNG" + b"x" * 50_000}}}
    model = ScriptedModel(answer_after_one)
    agent = agent_with(materializer, {"status": "success", "content": [{"text": LOG}, image]}, model, read_tools=False)
    agent("build")
    (kept,) = results(agent.messages)
    assert kept["content"][0]["text"] == LOG and "image" in kept["content"][1]


def test_model_greps_the_needle_back(materializer: Materializer) -> None:
    model = ScriptedModel(grep_the_needle)
    agent = agent_with(materializer, LOG, model)
    assert {"context_read", "context_tail", "context_grep"} <= set(agent.tool_names)
    result = agent("why does the build fail?")
    build, grep = results(agent.messages)
    assert_summary(text_of(build), "build")
    assert grep["status"] == "success" and NEEDLE in text_of(grep) and "1235|" in text_of(grep)
    assert NEEDLE in str(result)


def test_a_refused_read_is_an_error_result(materializer: Materializer) -> None:
    def script(messages: List[Any]) -> tuple:
        done = results(messages)
        if not done:
            return ("tool", "context_grep", "c1", {"ref": "ctx://other/tool/x.txt", "pattern": "x"})
        return ("text", f"{done[-1]['status']}: {text_of(done[-1])}")

    agent = agent_with(materializer, SMALL, ScriptedModel(script))
    result = agent("read")
    assert str(result).startswith("error: ") and "other" in str(result)


PAGES = {f"call_{i}": f"result {i}\n" + ("x" * 60 + "\n") * 50 for i in range(6)}
"""Six medium results, each inline (under the limits): the budget clears the oldest."""


def fetch_all(messages: List[Any]) -> tuple:
    done = len([r for r in results(messages) if r["toolUseId"] in PAGES])
    return ("tool", "fetch", f"call_{done}", {"n": done}) if done < len(PAGES) else ("text", "done")


def cleared_in(messages: List[Any]) -> dict[str, str]:
    return {r["toolUseId"]: text_of(r) for r in results(messages) if text_of(r) != PAGES.get(r["toolUseId"])}


def test_budget_clears_old_results_in_agent_messages(materializer: Materializer, tmp_path: Path) -> None:
    @tool
    def fetch(n: int) -> str:
        """Fetch page n."""
        return PAGES[f"call_{n}"]

    model = ScriptedModel(fetch_all)
    plugins = [
        MaterializePlugin(materializer, read_tools=False),
        BudgetPlugin(materializer, trigger_tokens=2000, keep_last=2),
    ]
    agent = Agent(model=model, tools=[fetch], plugins=plugins, callback_handler=None)
    agent("fetch them all")
    cleared = cleared_in(agent.messages)
    assert cleared and "call_5" not in cleared and "call_4" not in cleared
    assert cleared_in(model.seen[-1]) == cleared
    for i, seen in enumerate(model.seen):
        for later in model.seen[i + 1 :]:
            assert cleared_in(seen).items() <= cleared_in(later).items()
    for call_id, pointer in cleared.items():
        assert ref_in(pointer) == f"ctx://conv-1/tool/{call_id}.txt"
        assert (tmp_path / "context" / "conv-1" / "artifacts" / "tool" / f"{call_id}.txt").read_text() == PAGES[call_id]
    (status,) = {r["status"] for r in results(agent.messages)}
    assert status == "success"


def test_budget_never_clears_a_result_with_an_image(materializer: Materializer, tmp_path: Path) -> None:
    image = {"image": {"format": "png", "source": {"bytes": b"\x89PNG" + b"x" * 100}}}

    @tool
    def shot() -> dict:
        """A screenshot and its caption."""
        return {"status": "success", "content": [{"text": "caption " + "y" * 3000}, image]}

    @tool
    def fetch(n: int) -> str:
        """Fetch page n."""
        return PAGES[f"call_{n}"]

    def script(messages: List[Any]) -> tuple:
        done = results(messages)
        if not done:
            return ("tool", "shot", "call_shot", {})
        return fetch_all(
            [
                m
                for m in messages
                if not any("toolResult" in b and b["toolResult"]["toolUseId"] == "call_shot" for b in m["content"])
            ]
        )

    model = ScriptedModel(script)
    plugins = [
        MaterializePlugin(materializer, read_tools=False),
        BudgetPlugin(materializer, trigger_tokens=2000, keep_last=2),
    ]
    agent = Agent(model=model, tools=[shot, fetch], plugins=plugins, callback_handler=None)
    agent("go")
    (shot_result,) = [r for r in results(agent.messages) if r["toolUseId"] == "call_shot"]
    assert "image" in shot_result["content"][1] and shot_result["content"][0]["text"].startswith("caption ")
    assert "call_0" in cleared_in(agent.messages), "the pages after it were cleared"
    stored = sorted(p.name for p in (tmp_path / "context" / "conv-1" / "artifacts" / "tool").iterdir())
    assert not any("call_shot" in name for name in stored)
