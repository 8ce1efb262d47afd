"""tool_offload.openai_agents with the real OpenAI Agents SDK runner and its own
ScriptedModel (no network, tracing off)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, List, Sequence

import pytest

from adapters import require  # noqa: E402

require("agents")

from agents import Agent, RunConfig, Runner, function_tool, set_tracing_disabled  # noqa: E402
from pydantic import BaseModel  # noqa: E402
from agents.testing import ModelCall, ModelStep, ScriptedModel, assistant_message, function_call  # noqa: E402

from tool_offload import Materializer  # noqa: E402
from tool_offload.openai_agents import BudgetFilter, context_tools, materialize_tools  # noqa: E402

from adapters import LOG, NEEDLE, PATTERN, SMALL, assert_summary, ref_in  # noqa: E402

set_tracing_disabled(True)


def outputs(call: ModelCall) -> List[dict[str, Any]]:
    return [i for i in call.input if isinstance(i, dict) and i.get("type") == "function_call_output"]


def grep_the_needle(call: ModelCall) -> Sequence[Any]:
    """Build; read the summary and grep its ref; answer with what came back."""
    done = outputs(call)
    if not done:
        return [function_call("build", {"target": "all"}, call_id="call_build")]
    last = done[-1]
    if last["call_id"] == "call_build":
        ref = ref_in(str(last["output"]))
        if ref is None:
            return [assistant_message(f"inline: {last['output']}")]
        return [function_call("context_grep", {"ref": ref, "pattern": PATTERN}, call_id="call_grep")]
    return [assistant_message(str(last["output"]))]


def scripted(responder: Callable[[ModelCall], Sequence[Any]], turns: int) -> ScriptedModel:
    return ScriptedModel([ModelStep.respond(responder) for _ in range(turns)])


def build_tool(output: str) -> Any:
    @function_tool
    def build(target: str) -> str:
        """Build a target and return its log."""
        return output

    return build


@pytest.fixture
def materializer(tmp_path: Path) -> Materializer:
    return Materializer(tmp_path, "conv-1")


@pytest.mark.asyncio
async def test_model_sees_the_summary(materializer: Materializer) -> None:
    model = scripted(lambda call: [assistant_message("ok")] if outputs(call) else grep_the_needle(call), 2)
    agent = Agent(name="builder", model=model, tools=materialize_tools([build_tool(LOG)], materializer))
    result = await Runner.run(agent, "why does the build fail?")
    assert result.final_output == "ok"
    (seen,) = outputs(model.calls[1])
    ref = assert_summary(seen["output"], "build")
    assert ref == "ctx://conv-1/tool/call_build.txt"
    # The run's history holds the summary too; the artifact holds the log.
    history = [i for i in result.to_input_list() if isinstance(i, dict) and i.get("type") == "function_call_output"]
    assert history[0]["output"] == seen["output"]
    assert (await materializer.grep(ref, PATTERN)).count(NEEDLE) == 1


@pytest.mark.asyncio
async def test_streamed_run(materializer: Materializer) -> None:
    model = scripted(grep_the_needle, 3)
    tools = [*materialize_tools([build_tool(LOG)], materializer), *context_tools(materializer)]
    config = RunConfig(call_model_input_filter=BudgetFilter(materializer, trigger_tokens=100_000))
    result = Runner.run_streamed(Agent(name="builder", model=model, tools=tools), "build", run_config=config)
    async for _ in result.stream_events():
        pass
    assert_summary(outputs(model.calls[1])[-1]["output"], "build")
    assert NEEDLE in str(result.final_output)


@pytest.mark.asyncio
async def test_small_and_structured_outputs_are_left_alone(materializer: Materializer) -> None:
    @function_tool
    def rows() -> dict:
        """Rows as a dict."""
        return {"rows": list(range(3))}

    model = scripted(
        lambda call: (
            [assistant_message("ok")]
            if outputs(call)
            else [function_call("build", {"target": "x"}, call_id="c1"), function_call("rows", {}, call_id="c2")]
        ),
        2,
    )
    agent = Agent(name="a", model=model, tools=materialize_tools([build_tool(SMALL), rows], materializer))
    await Runner.run(agent, "go")
    assert [o["output"] for o in outputs(model.calls[1])] == [SMALL, str({"rows": [0, 1, 2]})]


@pytest.mark.asyncio
async def test_dict_outputs_are_stored_as_json(materializer: Materializer, tmp_path: Path) -> None:
    big = {"rows": [{"id": i, "name": f"row {i}"} for i in range(2000)]}

    @function_tool
    def rows() -> dict:
        """Rows as a dict."""
        return big

    model = scripted(
        lambda call: [assistant_message("ok")] if outputs(call) else [function_call("rows", {}, call_id="c1")], 2
    )
    agent = Agent(name="a", model=model, tools=materialize_tools([rows], materializer))
    await Runner.run(agent, "go")
    (seen,) = outputs(model.calls[1])
    assert seen["output"].startswith("[Output of rows ") and "ctx://conv-1/tool/c1.json" in seen["output"]
    path = tmp_path / "context" / "conv-1" / "artifacts" / "tool" / "c1.json"
    assert json.loads(path.read_text()) == big


@pytest.mark.asyncio
async def test_model_greps_the_needle_back(materializer: Materializer) -> None:
    model = scripted(grep_the_needle, 3)
    tools = [*materialize_tools([build_tool(LOG)], materializer), *context_tools(materializer)]
    assert [t.name for t in tools] == ["build", "context_read", "context_tail", "context_grep"]
    agent = Agent(name="builder", model=model, tools=tools)
    result = await Runner.run(agent, "why does the build fail?")
    assert_summary(outputs(model.calls[1])[-1]["output"], "build")
    assert NEEDLE in result.final_output and "1235|" in result.final_output


@pytest.mark.asyncio
async def test_a_refused_read_reaches_the_model(materializer: Materializer) -> None:
    model = scripted(
        lambda call: (
            [assistant_message(str(outputs(call)[-1]["output"]))]
            if outputs(call)
            else [function_call("context_grep", {"ref": "ctx://other/tool/x.txt", "pattern": "x"}, call_id="c1")]
        ),
        2,
    )
    agent = Agent(name="a", model=model, tools=context_tools(materializer))
    result = await Runner.run(agent, "read")
    assert "other" in result.final_output


@pytest.mark.asyncio
async def test_budget_filter_clears_and_keeps_its_decisions(materializer: Materializer, tmp_path: Path) -> None:
    pages = {f"call_{i}": f"result {i}\n" + ("x" * 60 + "\n") * 50 for i in range(6)}

    @function_tool
    def fetch(n: int) -> str:
        """Fetch page n."""
        return pages[f"call_{n}"]

    def script(call: ModelCall) -> Sequence[Any]:
        n = len(outputs(call))
        return (
            [function_call("fetch", {"n": n}, call_id=f"call_{n}")] if n < len(pages) else [assistant_message("done")]
        )

    model = scripted(script, len(pages) + 1)
    agent = Agent(name="a", model=model, tools=[fetch])
    config = RunConfig(call_model_input_filter=BudgetFilter(materializer, trigger_tokens=2000, keep_last=2))
    await Runner.run(agent, "fetch them all", run_config=config)
    last = outputs(model.calls[-1])
    cleared = [o for o in last if o["output"] != pages[o["call_id"]]]
    assert cleared and last[-1]["output"] == pages["call_5"]
    # Once cleared, an output reaches every later call as the same bytes.
    for earlier in model.calls[1:-1]:
        for item in outputs(earlier):
            if item["output"] != pages[item["call_id"]]:
                assert item in last
    # Each cleared output is a pointer to its artifact, which holds it byte for byte.
    for item in cleared:
        assert ref_in(item["output"]) == f"ctx://conv-1/tool/{item['call_id']}.txt"
        stored = tmp_path / "context" / "conv-1" / "artifacts" / "tool" / f"{item['call_id']}.txt"
        assert stored.read_text() == pages[item["call_id"]]


class Rows(BaseModel):
    rows: List[int]


def test_read_tools_and_typed_tools_are_not_wrapped(materializer: Materializer) -> None:
    @function_tool(output_type=Rows)
    def typed() -> Rows:
        """Rows, typed."""
        return Rows(rows=[1])

    reads = context_tools(materializer)
    wrapped = materialize_tools([*reads, typed], materializer)
    assert all(a is b for a, b in zip(wrapped, [*reads, typed]))


@pytest.mark.asyncio
async def test_budget_cleared_map_resumes_a_conversation(materializer: Materializer) -> None:
    pages = {f"call_{i}": f"result {i}\n" + ("x" * 60 + "\n") * 50 for i in range(6)}

    @function_tool
    def fetch(n: int) -> str:
        """Fetch page n."""
        return pages[f"call_{n}"]

    def script(call: ModelCall) -> Sequence[Any]:
        n = len(outputs(call))
        return (
            [function_call("fetch", {"n": n}, call_id=f"call_{n}")] if n < len(pages) else [assistant_message("done")]
        )

    cleared: dict[str, Any] = {}
    model = scripted(script, len(pages) + 1)
    first = BudgetFilter(materializer, cleared=cleared, trigger_tokens=2000, keep_last=2)
    result = await Runner.run(
        Agent(name="a", model=model, tools=[fetch]), "go", run_config=RunConfig(call_model_input_filter=first)
    )
    sent = outputs(model.calls[-1])
    assert cleared and all(o["output"] == cleared[o["call_id"]] for o in sent if o["call_id"] in cleared)
    # Another process: a new filter over the same map sends the same bytes, even where
    # a fresh budget (under its trigger here) would clear nothing; without it, it does not.
    history = [*result.to_input_list(), {"role": "user", "content": "and now?"}]

    async def resumed(kept: Any) -> List[dict[str, Any]]:
        again = scripted(lambda call: [assistant_message("ok")], 1)
        config = RunConfig(call_model_input_filter=BudgetFilter(materializer, cleared=kept, trigger_tokens=100_000))
        await Runner.run(Agent(name="a", model=again, tools=[fetch]), history, run_config=config)
        return outputs(again.calls[0])

    assert (await resumed(json.loads(json.dumps(cleared))))[: len(sent)] == sent
    assert [o["output"] for o in await resumed(None)] == list(pages.values())
