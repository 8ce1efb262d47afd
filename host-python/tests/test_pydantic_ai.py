"""tool_offload.pydantic_ai with the real Pydantic AI agent and a FunctionModel (no
network)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List

import pytest

from adapters import require  # noqa: E402

require("pydantic_ai")

from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

from tool_offload import Materializer  # noqa: E402
from tool_offload.pydantic_ai import Budget, Materialize  # noqa: E402

from adapters import LOG, NEEDLE, PATTERN, SMALL, assert_summary, ref_in  # noqa: E402


def returns(messages: List[ModelMessage]) -> List[ToolReturnPart]:
    return [p for m in messages if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, ToolReturnPart)]


def grep_the_needle(messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Build; read the summary and grep its ref; answer with what came back."""
    done = returns(messages)
    if not done:
        return ModelResponse(parts=[ToolCallPart("build", {"target": "all"}, tool_call_id="call_build")])
    last = done[-1]
    if last.tool_call_id == "call_build":
        ref = ref_in(last.model_response_str())
        if ref is None:
            return ModelResponse(parts=[TextPart(f"inline: {last.model_response_str()}")])
        return ModelResponse(
            parts=[ToolCallPart("context_grep", {"ref": ref, "pattern": PATTERN}, tool_call_id="call_grep")]
        )
    return ModelResponse(parts=[TextPart(f"{last.outcome}: {last.model_response_str()}")])


class Recorder:
    """The FunctionModel's function, recording every history it was sent."""

    def __init__(self, script: Any) -> None:
        self.script = script
        self.seen: List[List[ModelMessage]] = []
        self.tools: List[str] = []

    def __call__(self, messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen.append(list(messages))
        self.tools = [t.name for t in info.function_tools]
        return self.script(messages, info)


def agent_with(materializer: Materializer, output: Any, recorder: Recorder, **options: Any) -> Agent[None, str]:
    agent: Agent[None, str] = Agent(FunctionModel(recorder), capabilities=[Materialize(materializer, **options)])

    @agent.tool_plain
    def build(target: str) -> Any:
        """Build a target and return its log."""
        return output

    return agent


@pytest.fixture
def materializer(tmp_path: Path) -> Materializer:
    return Materializer(tmp_path, "conv-1")


@pytest.mark.asyncio
async def test_model_sees_the_summary(materializer: Materializer) -> None:
    recorder = Recorder(
        lambda ms, info: ModelResponse(parts=[TextPart("ok")]) if returns(ms) else grep_the_needle(ms, info)
    )
    agent = agent_with(materializer, LOG, recorder, read_tools=False)
    result = await agent.run("why does the build fail?")
    (seen,) = returns(recorder.seen[1])
    ref = assert_summary(seen.content, "build")
    assert ref == "ctx://conv-1/tool/call_build.txt"
    (kept,) = returns(result.all_messages())
    assert kept.content == seen.content
    assert (await materializer.grep(ref, PATTERN)).count(NEEDLE) == 1


@pytest.mark.asyncio
async def test_small_output_stays_inline(materializer: Materializer) -> None:
    recorder = Recorder(grep_the_needle)
    result = await agent_with(materializer, SMALL, recorder, read_tools=False).run("build")
    assert result.output == f"inline: {SMALL}"


@pytest.mark.asyncio
async def test_structured_results_are_stored_as_their_json(materializer: Materializer, tmp_path: Path) -> None:
    rows = {"rows": [{"id": i, "name": f"row {i}"} for i in range(2000)]}
    recorder = Recorder(
        lambda ms, info: ModelResponse(parts=[TextPart("ok")]) if returns(ms) else grep_the_needle(ms, info)
    )
    await agent_with(materializer, rows, recorder, read_tools=False).run("build")
    (seen,) = returns(recorder.seen[1])
    assert seen.content.startswith("[Output of build ") and "call_build.json" in seen.content
    stored = tmp_path / "context" / "conv-1" / "artifacts" / "tool" / "call_build.json"
    assert json.loads(stored.read_text()) == rows


def test_sync_run(materializer: Materializer) -> None:
    recorder = Recorder(
        lambda ms, info: ModelResponse(parts=[TextPart("ok")]) if returns(ms) else grep_the_needle(ms, info)
    )
    agent_with(materializer, LOG, recorder, read_tools=False).run_sync("build")
    assert_summary(returns(recorder.seen[1])[0].content, "build")


@pytest.mark.asyncio
async def test_model_greps_the_needle_back(materializer: Materializer) -> None:
    recorder = Recorder(grep_the_needle)
    agent = agent_with(materializer, LOG, recorder)
    result = await agent.run("why does the build fail?")
    assert sorted(recorder.tools) == ["build", "context_grep", "context_read", "context_tail"]
    build, grep = returns(result.all_messages())
    assert_summary(build.content, "build")
    assert grep.tool_name == "context_grep" and NEEDLE in grep.content and "1235|" in grep.content
    assert result.output.startswith("success: ") and NEEDLE in result.output


@pytest.mark.asyncio
async def test_a_refused_read_is_a_failed_result(materializer: Materializer) -> None:
    def script(messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
        done = returns(messages)
        if not done:
            call = ToolCallPart("context_grep", {"ref": "ctx://other/tool/x.txt", "pattern": "x"}, tool_call_id="c1")
            return ModelResponse(parts=[call])
        return ModelResponse(parts=[TextPart(f"{done[-1].outcome}: {done[-1].model_response_str()}")])

    result = await agent_with(materializer, SMALL, Recorder(script)).run("read")
    assert result.output.startswith("failed: ") and "other" in result.output


PAGES = {f"call_{i}": f"result {i}\n" + ("x" * 60 + "\n") * 50 for i in range(6)}
"""Six medium results, each inline (under the limits): the budget clears the oldest."""


def fetch_all(messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
    done = len([r for r in returns(messages) if r.tool_call_id in PAGES])
    if done < len(PAGES):
        return ModelResponse(parts=[ToolCallPart("fetch", {"n": done}, tool_call_id=f"call_{done}")])
    return ModelResponse(parts=[TextPart("done")])


def cleared_in(messages: List[ModelMessage]) -> dict[str, Any]:
    return {r.tool_call_id: r.content for r in returns(messages) if r.content != PAGES.get(r.tool_call_id)}


@pytest.mark.asyncio
async def test_budget_clears_old_returns_and_the_history_keeps_it(materializer: Materializer, tmp_path: Path) -> None:
    recorder = Recorder(fetch_all)
    agent: Agent[None, str] = Agent(
        FunctionModel(recorder),
        capabilities=[
            Materialize(materializer, read_tools=False),
            Budget(materializer, trigger_tokens=2000, keep_last=2),
        ],
    )

    @agent.tool_plain
    def fetch(n: int) -> str:
        """Fetch page n."""
        return PAGES[f"call_{n}"]

    result = await agent.run("fetch them all")
    cleared = cleared_in(result.all_messages())
    assert cleared and "call_5" not in cleared and "call_4" not in cleared
    # What the model last saw is what the history holds, and once cleared a return
    # reaches every later request as the same bytes.
    assert cleared_in(recorder.seen[-1]) == cleared
    for i, seen in enumerate(recorder.seen):
        for later in recorder.seen[i + 1 :]:
            assert cleared_in(seen).items() <= cleared_in(later).items()
    for call_id, pointer in cleared.items():
        assert ref_in(str(pointer)) == f"ctx://conv-1/tool/{call_id}.txt"
        assert (tmp_path / "context" / "conv-1" / "artifacts" / "tool" / f"{call_id}.txt").read_text() == PAGES[call_id]
    # A next run given the history starts from the cleared returns.
    calls = len(recorder.seen)
    await agent.run("and now?", message_history=result.all_messages())
    assert cleared.items() <= cleared_in(recorder.seen[calls]).items()
