"""tool_offload.adk with the real google-adk (pinned in requirements-adk.txt, its own venv:
make test-python-adk) and a scripted model, no network: a tool returns a 150 KB log, the
model sees its summary, calls context_grep with the ref and gets the planted line."""

from __future__ import annotations

from pathlib import Path
from typing import Any, AsyncGenerator, List

import pytest

from adapters import require  # noqa: E402

require("google.adk")

from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.apps import App  # noqa: E402
from google.adk.models.base_llm import BaseLlm  # noqa: E402
from google.adk.models.llm_request import LlmRequest  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.adk.runners import InMemoryRunner  # noqa: E402
from google.genai import types  # noqa: E402

import tool_offload as to  # noqa: E402
from tool_offload.adk import MaterializePlugin, context_tools  # noqa: E402

LOG = "".join(f"step {i}: compiling module {i}\n" for i in range(6000)).replace(
    "step 4321: compiling module 4321", "step 4321: error: NEEDLE-7 undefined symbol"
)
REF = "ctx://thread-1/tool/call_build.txt"
SEEN: List[List[types.Content]] = []
SCRIPT: List[Any] = []


class Scripted(BaseLlm):
    """Replies from SCRIPT: (name, args, id) as a function call, or a final text."""

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False) -> AsyncGenerator[LlmResponse, None]:
        SEEN.append([c.model_copy(deep=True) for c in llm_request.contents])
        step = SCRIPT.pop(0)
        if isinstance(step, str):
            part = types.Part(text=step)
        else:
            name, args, call = step
            part = types.Part(function_call=types.FunctionCall(name=name, args=args, id=call))
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


def build() -> str:
    """Run the build."""
    return LOG


def responses(requests: List[List[types.Content]]) -> dict[str, str]:
    return {
        str(p.function_response.id): str(p.function_response.response)
        for c in requests[-1]
        for p in (c.parts or [])
        if p.function_response is not None
    }


@pytest.mark.asyncio
async def test_the_model_sees_the_summary_and_greps_the_artifact(tmp_path: Path) -> None:
    SEEN.clear()
    SCRIPT[:] = [
        ("build", {}, "call_build"),
        ("context_grep", {"ref": REF, "pattern": "NEEDLE-7"}, "call_grep"),
        ("context_read", {"ref": "ctx://other/tool/x.txt"}, "call_bad"),
        "The build fails on an undefined symbol.",
    ]
    m = to.Materializer(tmp_path, "thread-1")
    agent = LlmAgent(name="builder", model=Scripted(model="scripted"), tools=[build, *context_tools(m)])
    runner = InMemoryRunner(app=App(name="app", root_agent=agent, plugins=[MaterializePlugin(m)]))
    session = await runner.session_service.create_session(app_name="app", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="Why does the build fail?")])
    async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
        pass
    sent = responses(SEEN)
    assert REF in sent["call_build"] and len(sent["call_build"]) < 4000 and LOG not in sent["call_build"]
    assert "NEEDLE-7 undefined symbol" in sent["call_grep"]
    assert "outside this conversation" in sent["call_bad"]
    assert Path(tmp_path, "context/thread-1/artifacts/tool/call_build.txt").read_text() == LOG


def test_the_tools_on_their_own(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "thread-1")
    tools = context_tools(m)
    assert [t.name for t in tools] == ["context_read", "context_tail", "context_grep"]
    assert tools[2]._get_declaration().name == "context_grep"


def listing() -> str:
    """List the files."""
    return "".join(f"file_{i:04d}.txt\n" for i in range(200))


@pytest.mark.asyncio
async def test_the_budget_clears_old_responses_and_keeps_its_decisions(tmp_path: Path) -> None:
    from tool_offload.adk import BudgetPlugin

    SEEN.clear()
    SCRIPT[:] = [*(("listing", {}, f"call_{i}") for i in range(4)), "Done."]
    m = to.Materializer(tmp_path, "thread-1")
    budget = BudgetPlugin(m, trigger_tokens=1500, keep_last=1)
    agent = LlmAgent(name="lister", model=Scripted(model="scripted"), tools=[listing, *context_tools(m)])
    runner = InMemoryRunner(app=App(name="app", root_agent=agent, plugins=[MaterializePlugin(m), budget]))
    session = await runner.session_service.create_session(app_name="app", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="List the files four times.")])
    async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
        pass
    last = responses(SEEN)
    cleared = sorted(k for k, v in last.items() if "cleared from the conversation" in v)
    assert cleared == ["call_0", "call_1", "call_2"] and "file_0199.txt" in last["call_3"]
    seen: dict[str, str] = {}
    for request in SEEN:
        for k, v in responses([request]).items():
            if k in seen:
                assert v == seen[k], f"{k} was cleared, then sent otherwise"
            elif "cleared from the conversation" in v:
                seen[k] = v
    assert sorted(seen) == cleared and sorted(budget.cleared) == cleared
    assert (await m.read("ctx://thread-1/tool/call_0.txt", 199, 1)).endswith("200| file_0199.txt")
