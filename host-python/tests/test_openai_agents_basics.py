"""tool_offload.openai_agents with the real OpenAI Agents SDK (pinned) and its
ScriptedModel, no network: a tool returns a 150 KB log, the model sees its summary, calls
context_grep with the ref and gets the planted line; the budget filter clears old outputs
and keeps its decisions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adapters import require  # noqa: E402

require("agents")

from agents import Agent, RunConfig, Runner, function_tool, set_tracing_disabled  # noqa: E402
from agents.testing import ScriptedModel, assistant_message, function_call  # noqa: E402

import tool_offload as to  # noqa: E402
from tool_offload.openai_agents import BudgetFilter, context_tools, materialize_tools  # noqa: E402

# No trace export (it would reach for the network).
set_tracing_disabled(True)

LOG = "".join(f"step {i}: compiling module {i}\n" for i in range(6000)).replace(
    "step 4321: compiling module 4321", "step 4321: error: NEEDLE-7 undefined symbol"
)


@function_tool
def build() -> str:
    """Run the build."""
    return LOG


@function_tool
def listing() -> str:
    """List the files."""
    return "".join(f"file_{i:04d}.txt\n" for i in range(200))


def outputs(items: Any) -> dict[str, str]:
    """Each function_call_output the model was sent, by call id."""
    return {
        i["call_id"]: str(i["output"])
        for i in items
        if isinstance(i, dict) and i.get("type") == "function_call_output"
    }


@pytest.mark.asyncio
async def test_the_model_sees_the_summary_and_greps_the_artifact(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "thread-1")
    ref = "ctx://thread-1/tool/call_build.txt"
    model = ScriptedModel(
        [
            [function_call("build", {}, call_id="call_build")],
            [function_call("context_grep", {"ref": ref, "pattern": "NEEDLE-7"}, call_id="call_grep")],
            [function_call("context_read", {"ref": "ctx://other/tool/x.txt"}, call_id="call_bad")],
            [assistant_message("The build fails on an undefined symbol.")],
        ]
    )
    agent = Agent(name="builder", model=model, tools=[*materialize_tools([build], m), *context_tools(m)])
    result = await Runner.run(agent, "Why does the build fail?")
    assert result.final_output == "The build fails on an undefined symbol."
    sent = outputs(model.calls[-1].input)
    assert ref in sent["call_build"] and len(sent["call_build"]) < 4000 and LOG not in json.dumps(sent)
    assert "NEEDLE-7 undefined symbol" in sent["call_grep"]
    assert "outside this conversation" in sent["call_bad"]
    assert Path(tmp_path, "context/thread-1/artifacts/tool/call_build.txt").read_text() == LOG
    model.assert_complete()


@pytest.mark.asyncio
async def test_the_budget_filter_clears_and_keeps_its_decisions(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "thread-1")
    model = ScriptedModel(
        [*([function_call("listing", {}, call_id=f"call_{i}")] for i in range(4)), [assistant_message("Done.")]]
    )
    budget = BudgetFilter(m, trigger_tokens=1500, keep_last=1)
    agent = Agent(name="lister", model=model, tools=[listing])
    await Runner.run(agent, "List the files four times.", run_config=RunConfig(call_model_input_filter=budget))
    last = outputs(model.calls[-1].input)
    cleared = sorted(k for k, v in last.items() if "cleared from the conversation" in v)
    assert cleared == ["call_0", "call_1", "call_2"] and "file_0199.txt" in last["call_3"]
    assert sorted(budget.cleared) == cleared
    # Cleared once, sent the same way on every later call.
    seen: dict[str, str] = {}
    for call in model.calls:
        for k, v in outputs(call.input).items():
            if k in seen:
                assert v == seen[k], f"{k} was cleared, then sent otherwise"
            elif "cleared from the conversation" in v:
                seen[k] = v
    assert sorted(seen) == cleared
    assert (await m.read("ctx://thread-1/tool/call_0.txt", 199, 1)).endswith("200| file_0199.txt")


def test_other_tools_pass_through(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "thread-1")
    marker = object()
    assert materialize_tools([marker], m)[0] is marker  # type: ignore[list-item]
    assert [t.name for t in context_tools(m)] == ["context_read", "context_tail", "context_grep"]
