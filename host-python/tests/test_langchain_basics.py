"""tool_offload.langchain with the real LangChain v1 (pinned in requirements-dev.txt) and
LangChain's own GenericFakeChatModel scripted, no network (the python branch's first tests
of the adapter, kept beside test_langchain.py): a tool returns a 150 KB log, the model sees
its summary, calls context_grep with the ref, and gets the planted line; a refused read is
an error ToolMessage."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, List

import pytest

from adapters import require  # noqa: E402

require("langchain.agents")

from langchain.agents import create_agent  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage  # noqa: E402
from langchain_core.tools import tool  # noqa: E402

import tool_offload as to  # noqa: E402
from tool_offload.langchain import MaterializeMiddleware, context_tools  # noqa: E402

LOG = "".join(f"step {i}: compiling module {i}\n" for i in range(6000)).replace(
    "step 4321: compiling module 4321", "step 4321: error: NEEDLE-7 undefined symbol"
)


class Scripted(GenericFakeChatModel):
    """Answers from a script and keeps what it was sent."""

    seen: List[List[BaseMessage]] = []

    def bind_tools(self, tools: Any, **kwargs: Any) -> "Scripted":
        return self

    def _generate(self, messages: List[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


@tool
def build() -> str:
    """Run the build."""
    return LOG


def script(ref: str) -> Iterator[AIMessage]:
    yield AIMessage(content="", tool_calls=[{"name": "build", "args": {}, "id": "call_build"}])
    yield AIMessage(content="", tool_calls=[{"name": "context_grep", "args": {"ref": ref, "pattern": "NEEDLE-7"}, "id": "call_grep"}])
    yield AIMessage(
        content="", tool_calls=[{"name": "context_read", "args": {"ref": "ctx://other/tool/x.txt"}, "id": "call_bad"}]
    )
    yield AIMessage(content="The build fails on an undefined symbol.")


def check(messages: List[BaseMessage], model: Scripted) -> None:
    tool_messages = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
    built = tool_messages["call_build"]
    assert isinstance(built.content, str) and len(built.content) < 4000 and "ctx://thread-1/tool/call_build.txt" in built.content
    assert built.artifact["ref"] == "ctx://thread-1/tool/call_build.txt" and Path(built.artifact["path"]).read_text() == LOG
    assert "NEEDLE-7 undefined symbol" in str(tool_messages["call_grep"].content)
    bad = tool_messages["call_bad"]
    assert bad.status == "error" and "outside this conversation" in str(bad.content)
    # What the model was sent on its second turn: the summary, never the 150 KB log.
    second = model.seen[1]
    assert all(LOG not in str(m.content) for m in second)
    assert any("ctx://thread-1/tool/call_build.txt" in str(m.content) for m in second)


def test_the_model_sees_the_summary_and_greps_the_artifact(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "thread-1")
    model = Scripted(messages=script("ctx://thread-1/tool/call_build.txt"), seen=[])
    agent = create_agent(model, tools=[build], middleware=[MaterializeMiddleware(m)])
    out = agent.invoke({"messages": [{"role": "user", "content": "Why does the build fail?"}]})
    check(out["messages"], model)


@pytest.mark.asyncio
async def test_async_agents_too(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "thread-1")
    model = Scripted(messages=script("ctx://thread-1/tool/call_build.txt"), seen=[])
    agent = create_agent(model, tools=[build], middleware=[MaterializeMiddleware(m)])
    out = await agent.ainvoke({"messages": [{"role": "user", "content": "Why does the build fail?"}]})
    check(out["messages"], model)


def test_small_results_and_the_tools_on_their_own(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "thread-1")
    assert [t.name for t in context_tools(m)] == ["context_read", "context_tail", "context_grep"]
    assert MaterializeMiddleware(m, read_tools=False).tools == []
    done = m.materialize_sync(tool_name="build", tool_call_id="c1", output=LOG)
    assert done.ref is not None
    tail = context_tools(m)[1]
    assert tail.invoke({"ref": done.ref.id, "lines": 1}).endswith("6000| step 5999: compiling module 5999")


def budget_script() -> Iterator[AIMessage]:
    for i in range(4):
        yield AIMessage(content="", tool_calls=[{"name": "listing", "args": {}, "id": f"call_{i}"}])
    yield AIMessage(content="Done.")


@tool
def listing() -> str:
    """List the files."""
    return "".join(f"file_{i:04d}.txt\n" for i in range(200))


def budget_agent(tmp_path: Path) -> tuple[Any, Scripted, to.Materializer]:
    from tool_offload.langchain import BudgetMiddleware

    m = to.Materializer(tmp_path, "thread-1")
    model = Scripted(messages=budget_script(), seen=[])
    budget = BudgetMiddleware(m, trigger_tokens=1500, keep_last=1)
    return create_agent(model, tools=[listing], middleware=[MaterializeMiddleware(m), budget]), model, m


GIVEN = {"messages": [{"role": "user", "content": "List the files four times."}]}


def check_budget(out: dict[str, Any], model: Scripted) -> None:
    results = [x for x in out["messages"] if isinstance(x, ToolMessage) and x.tool_call_id.startswith("call_")]
    assert [x.tool_call_id for x in results] == ["call_0", "call_1", "call_2", "call_3"], "replaced, not appended"
    cleared = [x for x in results if "cleared from the conversation" in str(x.content)]
    assert [x.tool_call_id for x in cleared] == ["call_0", "call_1", "call_2"]
    assert "file_0199.txt" in str(results[3].content), "the last result is kept"
    # The model's last turn was sent the pointers.
    assert sum("cleared from the conversation" in str(x.content) for x in model.seen[-1]) == 3


def test_the_budget_clears_old_results_and_keeps_its_decisions_in_state(tmp_path: Path) -> None:
    agent, model, m = budget_agent(tmp_path)
    check_budget(agent.invoke(GIVEN), model)
    assert m.read_sync("ctx://thread-1/tool/call_0.txt", 199, 1).endswith("200| file_0199.txt")


@pytest.mark.asyncio
async def test_the_budget_in_async_agents(tmp_path: Path) -> None:
    import asyncio

    agent, model, m = budget_agent(tmp_path)
    check_budget(await asyncio.wait_for(agent.ainvoke(GIVEN), 60), model)
    assert (await m.read("ctx://thread-1/tool/call_1.txt", 199, 1)).endswith("200| file_0199.txt")


def test_the_budget_knows_tool_names(tmp_path: Path) -> None:
    from tool_offload.langchain import BudgetMiddleware

    m = to.Materializer(tmp_path, "thread-1")
    model = Scripted(messages=budget_script(), seen=[])
    budget = BudgetMiddleware(m, trigger_tokens=1500, keep_last=1, exclude_tools=["listing"])
    out = create_agent(model, tools=[listing], middleware=[budget]).invoke(GIVEN)
    assert not any("cleared from the conversation" in str(x.content) for x in out["messages"])


@pytest.mark.asyncio
async def test_langgraph_tool_node_takes_the_middleware_hooks(tmp_path: Path) -> None:
    import asyncio

    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    m = to.Materializer(tmp_path, "thread-1")
    middleware = MaterializeMiddleware(m)
    node = ToolNode([build], wrap_tool_call=middleware.wrap_tool_call, awrap_tool_call=middleware.awrap_tool_call)
    graph = StateGraph(MessagesState)
    graph.add_node("tools", node)
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    app = graph.compile()

    def called(call_id: str) -> Any:
        return {"messages": [AIMessage(content="", tool_calls=[{"name": "build", "args": {}, "id": call_id}])]}

    sync = (await asyncio.to_thread(app.invoke, called("call_node")))["messages"][-1]
    assert "ctx://thread-1/tool/call_node.txt" in str(sync.content) and len(str(sync.content)) < 4000
    done = (await app.ainvoke(called("call_node_async")))["messages"][-1]
    assert done.artifact["ref"] == "ctx://thread-1/tool/call_node_async.txt"
