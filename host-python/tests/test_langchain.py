"""tool_offload.langchain with the real LangChain v1 agent and LangGraph ToolNode, and a
scripted chat model (no network)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, List, Optional

import pytest

from adapters import require  # noqa: E402

require("langchain.agents")

from typing_extensions import Annotated, NotRequired  # noqa: E402

from langchain.agents import AgentState, create_agent  # noqa: E402
from langchain_core.tools import InjectedToolCallId  # noqa: E402
from langgraph.types import Command  # noqa: E402
from langchain_core.callbacks import CallbackManagerForLLMRun  # noqa: E402
from langchain_core.language_models.chat_models import BaseChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage  # noqa: E402
from langchain_core.outputs import ChatGeneration, ChatResult  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from langgraph.graph import END, START, MessagesState, StateGraph  # noqa: E402
from langgraph.prebuilt import tools_condition  # noqa: E402
from pydantic import ConfigDict, Field  # noqa: E402

from tool_offload import InvalidIdError, Materializer  # noqa: E402
from tool_offload.langchain import BudgetMiddleware, MaterializeMiddleware, context_tools, tool_node  # noqa: E402

from adapters import LOG, NEEDLE, PATTERN, SMALL, assert_summary, ref_in  # noqa: E402


class ScriptedModel(BaseChatModel):
    """A chat model whose next message is ``script(messages)``; records what it saw."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    script: Callable[[List[BaseMessage]], AIMessage]
    seen: List[List[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(
        self,
        messages: List[BaseMessage],
        stop: Optional[List[str]] = None,
        run_manager: Optional[CallbackManagerForLLMRun] = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.seen.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=self.script(list(messages)))])

    def bind_tools(self, tools: Any, **kwargs: Any) -> "ScriptedModel":
        return self


def call(name: str, call_id: str, **args: Any) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id, "type": "tool_call"}])


def grep_the_needle(messages: List[BaseMessage]) -> AIMessage:
    """Build; read the summary and grep its ref for the needle; answer with what came back."""
    last = messages[-1]
    if isinstance(last, HumanMessage):
        return call("build", "call_build", target="all")
    assert isinstance(last, ToolMessage)
    if last.name == "build":
        ref = ref_in(str(last.content))
        if ref is None:  # inline: nothing to read back
            return AIMessage(content=f"inline: {last.content}")
        return call("context_grep", "call_grep", ref=ref, pattern=PATTERN)
    return AIMessage(content=f"{last.status}: {last.content}")


def build_tool(output: str) -> Any:
    @tool
    def build(target: str) -> str:
        """Build a target and return its log."""
        return output

    return build


@pytest.fixture
def materializer(tmp_path: Path) -> Materializer:
    return Materializer(tmp_path, "thread-1")


def tool_messages(state: dict[str, Any]) -> List[ToolMessage]:
    return [m for m in state["messages"] if isinstance(m, ToolMessage)]


# -- create_agent + MaterializeMiddleware ---------------------------------------------


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.asyncio
async def test_model_sees_the_summary_and_the_state_keeps_it(materializer: Materializer, mode: str) -> None:
    model = ScriptedModel(script=grep_the_needle)
    agent = create_agent(
        model, tools=[build_tool(LOG)], middleware=[MaterializeMiddleware(materializer, read_tools=False)]
    )
    state = {"messages": [HumanMessage("why does the build fail?")]}
    if mode == "sync":
        out = await _in_thread(agent.invoke, state)
    else:
        out = await agent.ainvoke(state)
    # The model's second turn saw the summary, never the log.
    seen = model.seen[1][-1]
    assert isinstance(seen, ToolMessage) and seen.tool_call_id == "call_build"
    ref = assert_summary(seen.content, "build")
    assert ref == "ctx://thread-1/tool/call_build.txt"
    # The state holds the summary; the artifact field (never sent) names the file.
    (message, *_) = tool_messages(out)
    assert message.content == seen.content and message.name == "build" and message.status == "success"
    assert message.artifact["ref"] == ref
    assert Path(message.artifact["path"]).read_text() == LOG
    assert (await materializer.grep(ref, PATTERN)).count(NEEDLE) == 1


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.asyncio
async def test_a_command_result_carries_the_summary(materializer: Materializer, mode: str) -> None:
    # Tools that answer with a Command (deepagents' `task`) carry their ToolMessage in it.
    @tool
    def build(target: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
        """Build a target and return its log."""
        return Command(update={"messages": [ToolMessage(LOG, tool_call_id=tool_call_id)], "built": target})

    model = ScriptedModel(
        script=lambda ms: call("build", "call_build", target="all") if len(ms) == 1 else AIMessage("ok")
    )
    agent = create_agent(
        model, tools=[build], middleware=[MaterializeMiddleware(materializer, read_tools=False)], state_schema=Built
    )
    state = {"messages": [HumanMessage("build")]}
    out = await (_in_thread(agent.invoke, state) if mode == "sync" else agent.ainvoke(state))
    assert_summary(model.seen[1][-1].content, "build")
    (message,) = tool_messages(out)
    assert message.artifact["ref"] == "ctx://thread-1/tool/call_build.txt" and out["built"] == "all"


class Built(AgentState):  # type: ignore[type-arg]
    built: NotRequired[str]


@pytest.mark.asyncio
async def test_parallel_calls_each_get_their_artifact(materializer: Materializer) -> None:
    def script(messages: List[BaseMessage]) -> AIMessage:
        if len(messages) > 1:
            return AIMessage("ok")
        calls = [{"name": "build", "args": {"target": t}, "id": f"call_{t}", "type": "tool_call"} for t in ("a", "b")]
        return AIMessage(content="", tool_calls=calls)

    model = ScriptedModel(script=script)
    agent = create_agent(
        model, tools=[build_tool(LOG)], middleware=[MaterializeMiddleware(materializer, read_tools=False)]
    )
    out = await agent.ainvoke({"messages": [HumanMessage("build both")]})
    refs = sorted(assert_summary(m.content, "build") for m in tool_messages(out))
    assert refs == ["ctx://thread-1/tool/call_a.txt", "ctx://thread-1/tool/call_b.txt"]


@pytest.mark.asyncio
async def test_small_output_stays_inline(materializer: Materializer) -> None:
    model = ScriptedModel(script=grep_the_needle)
    agent = create_agent(
        model, tools=[build_tool(SMALL)], middleware=[MaterializeMiddleware(materializer, read_tools=False)]
    )
    out = await agent.ainvoke({"messages": [HumanMessage("build")]})
    (message,) = tool_messages(out)
    assert message.content == SMALL and message.artifact is None
    assert out["messages"][-1].content == f"inline: {SMALL}"


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.asyncio
async def test_model_greps_the_needle_back(materializer: Materializer, mode: str) -> None:
    model = ScriptedModel(script=grep_the_needle)
    middleware = MaterializeMiddleware(materializer)
    assert [t.name for t in middleware.tools] == ["context_read", "context_tail", "context_grep"]
    assert MaterializeMiddleware(materializer, read_tools=False).tools == []
    agent = create_agent(model, tools=[build_tool(LOG)], middleware=[middleware])
    state = {"messages": [HumanMessage("why does the build fail?")]}
    out = await (_in_thread(agent.invoke, state) if mode == "sync" else agent.ainvoke(state))
    build, grep = tool_messages(out)
    assert_summary(build.content, "build")
    assert grep.name == "context_grep" and grep.status == "success"
    assert NEEDLE in grep.content and "1235|" in grep.content
    assert out["messages"][-1].content.startswith("success: ") and NEEDLE in out["messages"][-1].content


@pytest.mark.asyncio
async def test_a_refused_read_is_an_error_message(materializer: Materializer) -> None:
    def script(messages: List[BaseMessage]) -> AIMessage:
        last = messages[-1]
        if isinstance(last, HumanMessage):
            return call("context_grep", "call_x", ref="ctx://other-thread/tool/call_1.txt", pattern="x")
        return AIMessage(content=f"{last.status}: {last.content}")

    agent = create_agent(ScriptedModel(script=script), tools=[], middleware=[MaterializeMiddleware(materializer)])
    out = await agent.ainvoke({"messages": [HumanMessage("read")]})
    (message,) = tool_messages(out)
    assert message.status == "error" and "other-thread" in message.content


@pytest.mark.asyncio
async def test_read_pages_are_never_materialized_again(tmp_path: Path) -> None:
    # Limits small enough that a 200-line page is over them: the page still reaches the model.
    materializer = Materializer(tmp_path, "thread-1", max_inline_chars=500)

    def script(messages: List[BaseMessage]) -> AIMessage:
        last = messages[-1]
        if isinstance(last, HumanMessage):
            return call("build", "call_build", target="all")
        if last.name == "build":
            return call("context_read", "call_read", ref=ref_in(str(last.content)), offset=1230, limit=10)
        return AIMessage(content="done")

    agent = create_agent(
        ScriptedModel(script=script), tools=[build_tool(LOG)], middleware=[MaterializeMiddleware(materializer)]
    )
    out = await agent.ainvoke({"messages": [HumanMessage("build")]})
    _, page = tool_messages(out)
    assert NEEDLE in page.content and not page.content.startswith("[Output of")


def test_context_tools_are_the_extensions_definitions(materializer: Materializer) -> None:
    tools = context_tools(materializer)
    definitions = materializer.tool_definitions(format="anthropic")
    assert [(t.name, t.description, t.args_schema) for t in tools] == [
        (d["name"], d["description"], d["input_schema"]) for d in definitions
    ]


# -- the budget, its decisions kept in the state --------------------------------------


PAGES = {f"call_{i}": f"result {i}\n" + ("x" * 60 + "\n") * 50 for i in range(6)}
"""Six medium results, each inline (under the limits): the budget clears the oldest."""


def fetch_all(messages: List[BaseMessage]) -> AIMessage:
    done = sum(isinstance(m, ToolMessage) and m.tool_call_id in PAGES for m in messages)
    if done < len(PAGES):
        return call("fetch", f"call_{done}", n=done)
    return AIMessage(content="done")


@tool
def fetch(n: int) -> str:
    """Fetch page n."""
    return PAGES[f"call_{n}"]


def budget_agent(materializer: Materializer, model: ScriptedModel, **kwargs: Any) -> Any:
    middleware = [
        MaterializeMiddleware(materializer, read_tools=False),
        BudgetMiddleware(materializer, trigger_tokens=2000, keep_last=2),
    ]
    return create_agent(model, tools=[fetch], middleware=middleware, **kwargs)


def cleared_in(messages: List[BaseMessage]) -> dict[str, Any]:
    return {
        m.tool_call_id: m.content for m in messages if isinstance(m, ToolMessage) and m.content != PAGES[m.tool_call_id]
    }


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.asyncio
async def test_budget_clears_old_results_and_the_state_keeps_it(
    materializer: Materializer, tmp_path: Path, mode: str
) -> None:
    model = ScriptedModel(script=fetch_all)
    agent = budget_agent(materializer, model)
    state = {"messages": [HumanMessage("fetch them all")]}
    out = await (_in_thread(agent.invoke, state) if mode == "sync" else agent.ainvoke(state))
    kept = tool_messages(out)
    cleared = cleared_in(kept)
    assert cleared and "call_5" not in cleared and "call_4" not in cleared
    # What the model last saw is what the state holds.
    last_seen = [m for m in model.seen[-1] if isinstance(m, ToolMessage)]
    assert [m.content for m in last_seen] == [m.content for m in kept]
    # Once cleared, a result reaches every later model call as the same bytes (the
    # budget never runs its decisions again, the prompt cache keeps its prefix).
    for i, seen in enumerate(model.seen):
        for later in model.seen[i + 1 :]:
            assert cleared_in(seen).items() <= cleared_in(later).items()
    # Each cleared result is a pointer to its artifact, which holds it byte for byte.
    for call_id, pointer in cleared.items():
        assert ref_in(str(pointer)) == f"ctx://thread-1/tool/{call_id}.txt"
        assert (tmp_path / "context" / "thread-1" / "artifacts" / "tool" / f"{call_id}.txt").read_text() == PAGES[
            call_id
        ]


@pytest.mark.asyncio
async def test_budget_decisions_outlive_the_run(materializer: Materializer) -> None:
    # With a checkpointer, the next run on the thread starts from the budgeted history.
    model = ScriptedModel(
        script=lambda ms: fetch_all(ms) if isinstance(ms[-1], ToolMessage) or len(ms) == 1 else AIMessage("again")
    )
    agent = budget_agent(materializer, model, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "thread-1"}}
    first = await agent.ainvoke({"messages": [HumanMessage("fetch them all")]}, config)
    before = cleared_in(first["messages"])
    calls = len(model.seen)
    await agent.ainvoke({"messages": [HumanMessage("and now?")]}, config)
    assert len(model.seen) == calls + 1
    assert before.items() <= cleared_in(model.seen[-1]).items()


# -- LangGraph: ToolNode(wrap_tool_call=…) ---------------------------------------------


def graph(model: ScriptedModel, node: Any) -> Any:
    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", node)
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "agent")
    return builder.compile()


@pytest.mark.asyncio
async def test_tool_node_materializes(materializer: Materializer) -> None:
    model = ScriptedModel(
        script=lambda ms: call("build", "call_build", target="all") if len(ms) == 1 else AIMessage("ok")
    )
    app = graph(model, tool_node([build_tool(LOG)], materializer, read_tools=False))
    out = await app.ainvoke({"messages": [HumanMessage("build")]})
    (message,) = tool_messages(out)
    assert_summary(model.seen[1][-1].content, "build")
    assert message.artifact["ref"] == "ctx://thread-1/tool/call_build.txt"


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.asyncio
async def test_tool_node_greps_the_needle_back(materializer: Materializer, mode: str) -> None:
    model = ScriptedModel(script=grep_the_needle)
    app = graph(model, tool_node([build_tool(LOG)], materializer))
    state = {"messages": [HumanMessage("build")]}
    out = await (_in_thread(app.invoke, state) if mode == "sync" else app.ainvoke(state))
    build, grep = tool_messages(out)
    assert_summary(build.content, "build")
    assert NEEDLE in grep.content


async def _in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """A sync ``invoke`` run as an application would: in a thread with no event loop."""
    import asyncio

    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


@pytest.mark.asyncio
async def test_an_unsafe_call_id_is_a_typed_error(materializer: Materializer) -> None:
    # The model's id names the artifact: one that is no safe file name is refused, loudly.
    model = ScriptedModel(
        script=lambda ms: call("build", "../../etc/x", target="all") if len(ms) == 1 else AIMessage("ok")
    )
    agent = create_agent(
        model, tools=[build_tool(LOG)], middleware=[MaterializeMiddleware(materializer, read_tools=False)]
    )
    with pytest.raises(InvalidIdError):
        await agent.ainvoke({"messages": [HumanMessage("build")]})
