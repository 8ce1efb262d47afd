"""tool_offload.adk with the real Google ADK runner and a scripted model (no network)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, AsyncGenerator, Callable, List, Optional

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
from pydantic import Field  # noqa: E402

from tool_offload import Materializer  # noqa: E402
from tool_offload.adk import STATE_KEY, BudgetPlugin, MaterializePlugin, context_tools  # noqa: E402

from adapters import LOG, NEEDLE, PATTERN, SMALL, assert_summary, ref_in  # noqa: E402

Move = tuple


class ScriptedLlm(BaseLlm):
    """A model whose next turn is ``script(contents)``: ``("text", str)`` or ``("tool",
    name, call_id, args)``; records every request's contents."""

    model: str = "scripted"
    script: Any = None
    seen: List[List[types.Content]] = Field(default_factory=list)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.seen.append([c.model_copy(deep=True) for c in llm_request.contents])
        move = self.script(llm_request.contents)
        if move[0] == "tool":
            _, name, call_id, args = move
            part = types.Part(function_call=types.FunctionCall(name=name, args=args, id=call_id))
        else:
            part = types.Part(text=move[1])
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


def responses(contents: List[types.Content]) -> List[types.FunctionResponse]:
    return [p.function_response for c in contents for p in (c.parts or []) if p.function_response is not None]


def grep_the_needle(contents: List[types.Content]) -> Move:
    done = responses(contents)
    if not done:
        return ("tool", "build", "call_build", {"target": "all"})
    last = done[-1]
    if last.id == "call_build":
        ref = ref_in(json.dumps(last.response))
        if ref is None:
            return ("text", f"inline: {last.response}")
        return ("tool", "context_grep", "call_grep", {"ref": ref, "pattern": PATTERN})
    return ("text", json.dumps(last.response))


def answer_after_one(contents: List[types.Content]) -> Move:
    return ("text", "ok") if responses(contents) else grep_the_needle(contents)


async def run(materializer: Materializer, output: Any, script: Callable[[Any], Move], read_tools: bool) -> tuple:
    def build(target: str) -> Any:
        """Build a target and return its log."""
        return output

    model = ScriptedLlm(script=script)
    tools: List[Any] = [build, *(context_tools(materializer) if read_tools else [])]
    agent = LlmAgent(name="builder", model=model, tools=tools)
    runner = InMemoryRunner(app=App(name="test", root_agent=agent, plugins=[MaterializePlugin(materializer)]))
    session = await runner.session_service.create_session(app_name="test", user_id="u")
    final: Optional[str] = None
    async for event in runner.run_async(
        user_id="u", session_id=session.id, new_message=types.Content(role="user", parts=[types.Part(text="build")])
    ):
        if event.content and event.content.parts and event.content.parts[0].text:
            final = event.content.parts[0].text
    stored = await runner.session_service.get_session(app_name="test", user_id="u", session_id=session.id)
    assert stored is not None
    return model, final, [e.content for e in stored.events if e.content]


@pytest.fixture
def materializer(tmp_path: Path) -> Materializer:
    return Materializer(tmp_path, "session-1")


@pytest.mark.asyncio
async def test_model_sees_the_summary(materializer: Materializer) -> None:
    model, final, history = await run(materializer, LOG, answer_after_one, read_tools=False)
    assert final == "ok"
    (seen,) = responses(model.seen[1])
    assert seen.id == "call_build" and set(seen.response or {}) == {"result"}
    ref = assert_summary((seen.response or {})["result"], "build")
    assert ref == "ctx://session-1/tool/call_build.txt"
    # The session's events hold the summary too.
    (kept,) = responses(history)
    assert kept.response == seen.response
    assert (await materializer.grep(ref, PATTERN)).count(NEEDLE) == 1


@pytest.mark.asyncio
async def test_small_output_stays_inline(materializer: Materializer) -> None:
    _, final, _ = await run(materializer, SMALL, grep_the_needle, read_tools=False)
    assert final == f"inline: {{'result': '{SMALL}'}}"


@pytest.mark.asyncio
async def test_dict_results_are_stored_as_json(materializer: Materializer, tmp_path: Path) -> None:
    rows = {"rows": [{"id": i, "name": f"row {i}"} for i in range(2000)]}
    model, _, _ = await run(materializer, rows, answer_after_one, read_tools=False)
    (seen,) = responses(model.seen[1])
    assert "call_build.json" in (seen.response or {})["result"]
    stored = tmp_path / "context" / "session-1" / "artifacts" / "tool" / "call_build.json"
    assert json.loads(stored.read_text()) == rows


@pytest.mark.asyncio
async def test_model_greps_the_needle_back(materializer: Materializer) -> None:
    model, final, history = await run(materializer, LOG, grep_the_needle, read_tools=True)
    build, grep = responses(history)
    assert_summary((build.response or {})["result"], "build")
    assert grep.name == "context_grep" and NEEDLE in (grep.response or {})["result"]
    assert final is not None and NEEDLE in final


@pytest.mark.asyncio
async def test_a_refused_read_answers_an_error(materializer: Materializer) -> None:
    def script(contents: List[types.Content]) -> Move:
        done = responses(contents)
        if not done:
            return ("tool", "context_grep", "c1", {"ref": "ctx://other/tool/x.txt", "pattern": "x"})
        return ("text", json.dumps(done[-1].response))

    _, final, _ = await run(materializer, SMALL, script, read_tools=True)
    assert final is not None and set(json.loads(final)) == {"error"} and "other" in final


PAGES = [f"result {i}\n" + ("x" * 60 + "\n") * 50 for i in range(6)]
"""Six medium results, each inline (under the limits): the budget clears the oldest."""


def fetch_all(with_ids: bool) -> Callable[[List[types.Content]], Move]:
    def script(contents: List[types.Content]) -> Move:
        done = len(responses(contents))
        if done < len(PAGES):
            return ("tool", "fetch", f"call_{done}" if with_ids else None, {"n": done})
        return ("text", "done")

    return script


def cleared_in(contents: List[types.Content]) -> dict[int, str]:
    """The responses the model got as pointers, by their place in the conversation."""
    got = [(r.response or {}).get("result") for r in responses(contents)]
    return {i: text for i, text in enumerate(got) if i < len(PAGES) and text != PAGES[i]}


@pytest.mark.parametrize("with_ids", [True, False], ids=["model-ids", "adk-ids"])
@pytest.mark.asyncio
async def test_budget_keeps_its_decisions_in_the_session_state(
    materializer: Materializer, tmp_path: Path, with_ids: bool
) -> None:
    # Without the model's ids ADK makes `adk-` ones and strips them from the request, as
    # for Gemini: the responses are then known by their tool and content.
    def fetch(n: int) -> str:
        """Fetch page n."""
        return PAGES[n]

    script = fetch_all(with_ids)
    model = ScriptedLlm(script=lambda cs: script(cs) if responses(cs) or len(cs) == 1 else ("text", "again"))
    plugins = [MaterializePlugin(materializer), BudgetPlugin(materializer, trigger_tokens=2000, keep_last=2)]
    runner = InMemoryRunner(
        app=App(name="test", root_agent=LlmAgent(name="a", model=model, tools=[fetch]), plugins=plugins)
    )
    session = await runner.session_service.create_session(app_name="test", user_id="u")

    async def say(text: str) -> None:
        message = types.Content(role="user", parts=[types.Part(text=text)])
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            pass

    await say("fetch them all")
    assert all((r.id is None) != with_ids for r in responses(model.seen[-1]))
    cleared = cleared_in(model.seen[-1])
    assert sorted(cleared) == [0, 1, 2, 3]
    for i, seen in enumerate(model.seen):
        for later in model.seen[i + 1 :]:
            assert cleared_in(seen).items() <= cleared_in(later).items()
    artifacts = tmp_path / "context" / "session-1" / "artifacts" / "tool"
    for i, pointer in cleared.items():
        ref = ref_in(pointer)
        assert ref is not None and pointer.startswith("[Earlier output of fetch ")
        assert (artifacts / ref.rsplit("/", 1)[1]).read_text() == PAGES[i]
    stored_session = await runner.session_service.get_session(app_name="test", user_id="u", session_id=session.id)
    assert stored_session is not None and sorted(stored_session.state[STATE_KEY].values()) == sorted(cleared.values())
    # The next invocation, rebuilt from the session's events, gets the same pointers.
    calls = len(model.seen)
    await say("and now?")
    assert cleared.items() <= cleared_in(model.seen[calls]).items()
