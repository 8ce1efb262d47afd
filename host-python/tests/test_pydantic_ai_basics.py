"""tool_offload.pydantic_ai with the real Pydantic AI (pinned) and a FunctionModel script,
no network: a tool returns a 150 KB log, the model sees its summary, calls context_grep
with the ref and gets the planted line."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List

import pytest

from adapters import require  # noqa: E402

require("pydantic_ai")

from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart  # noqa: E402
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

import tool_offload as to  # noqa: E402
from tool_offload.pydantic_ai import Materialize, context_tools  # noqa: E402

LOG = "".join(f"step {i}: compiling module {i}\n" for i in range(6000)).replace(
    "step 4321: compiling module 4321", "step 4321: error: NEEDLE-7 undefined symbol"
)
REF = "ctx://thread-1/tool/call_build.txt"


def returns(messages: List[ModelMessage]) -> dict[str, str]:
    return {
        p.tool_call_id: str(p.content)
        for m in messages
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart)
    }


def scripted(seen: List[List[ModelMessage]]) -> FunctionModel:
    def model(messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        turn = len(seen)
        if turn == 1:
            return ModelResponse(parts=[ToolCallPart("build", {}, tool_call_id="call_build")])
        if turn == 2:
            return ModelResponse(parts=[ToolCallPart("context_grep", {"ref": REF, "pattern": "NEEDLE-7"}, tool_call_id="call_grep")])
        if turn == 3:
            return ModelResponse(parts=[ToolCallPart("context_read", {"ref": "ctx://other/tool/x.txt"}, tool_call_id="call_bad")])
        return ModelResponse(parts=[TextPart("The build fails on an undefined symbol.")])

    return FunctionModel(model)


def make(tmp_path: Path, seen: List[List[ModelMessage]]) -> "Agent[None, str]":
    m = to.Materializer(tmp_path, "thread-1")
    agent: Agent[None, str] = Agent(scripted(seen), capabilities=[Materialize(m)])

    @agent.tool_plain
    def build() -> str:
        """Run the build."""
        return LOG

    return agent


def check(tmp_path: Path, seen: List[List[ModelMessage]], output: Any) -> None:
    assert output == "The build fails on an undefined symbol."
    sent = returns(seen[-1])
    assert REF in sent["call_build"] and len(sent["call_build"]) < 4000
    assert all(LOG not in str(m) for m in seen[1])
    assert "NEEDLE-7 undefined symbol" in sent["call_grep"]
    assert "outside this conversation" in sent["call_bad"]
    assert Path(tmp_path, "context/thread-1/artifacts/tool/call_build.txt").read_text() == LOG


def test_the_model_sees_the_summary_and_greps_the_artifact(tmp_path: Path) -> None:
    seen: List[List[ModelMessage]] = []
    check(tmp_path, seen, make(tmp_path, seen).run_sync("Why does the build fail?").output)


@pytest.mark.asyncio
async def test_async_runs_too(tmp_path: Path) -> None:
    seen: List[List[ModelMessage]] = []
    check(tmp_path, seen, (await make(tmp_path, seen).run("Why does the build fail?")).output)


def test_the_tools_on_their_own(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "thread-1")
    assert [t.name for t in context_tools(m)] == ["context_read", "context_tail", "context_grep"]
    assert list(Materialize(m, read_tools=False).tools) == []


def test_the_budget_clears_old_returns_and_keeps_its_decisions(tmp_path: Path) -> None:
    from tool_offload.pydantic_ai import Budget

    m = to.Materializer(tmp_path, "thread-1")
    seen: List[List[ModelMessage]] = []

    def model(messages: List[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        if len(seen) <= 4:
            return ModelResponse(parts=[ToolCallPart("listing", {}, tool_call_id=f"call_{len(seen) - 1}")])
        return ModelResponse(parts=[TextPart("Done.")])

    agent: Agent[None, str] = Agent(FunctionModel(model), capabilities=[Budget(m, trigger_tokens=1500, keep_last=1)])

    @agent.tool_plain
    def listing() -> str:
        """List the files."""
        return "".join(f"file_{i:04d}.txt\n" for i in range(200))

    result = agent.run_sync("List the files four times.")
    last = returns(seen[-1])
    cleared = sorted(k for k, v in last.items() if "cleared from the conversation" in v)
    assert cleared == ["call_0", "call_1", "call_2"] and "file_0199.txt" in last["call_3"]
    # The run's own history holds the decisions, not only what was sent.
    kept = returns(result.all_messages())
    assert all("cleared from the conversation" in kept[k] for k in cleared)
    assert m.read_sync("ctx://thread-1/tool/call_0.txt", 199, 1).endswith("200| file_0199.txt")
