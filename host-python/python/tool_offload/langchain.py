"""tool_offload for LangChain v1 agents (``langchain`` >= 1, an optional dependency): a
middleware that materializes tool results over a :class:`~tool_offload.Materializer`'s
limits before the model sees them, and the read-back tools (``context_read``,
``context_tail``, ``context_grep``) as LangChain tools. The npm package's
``tool-offload/langchain``, in Python::

    from langchain.agents import create_agent
    from tool_offload import Materializer
    from tool_offload.langchain import MaterializeMiddleware

    materializer = Materializer(".agent", "thread-1")
    agent = create_agent(model, tools=[bash], middleware=[MaterializeMiddleware(materializer)])

The middleware gives the agent the read-back tools too (``read_tools=False`` leaves them
out; :func:`context_tools` makes them on their own)."""

from __future__ import annotations

from typing import Any, Awaitable, Callable, List, Optional, Sequence, Union

from langchain.agents.middleware import AgentMiddleware
from langchain.agents.middleware.types import ToolCallRequest
from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.types import Command

from ._materializer import Materializer
from ._materializer import CountTokens
from ._types import BudgetResult, Materialized

__all__ = ["MaterializeMiddleware", "BudgetMiddleware", "context_tools"]

ToolResult = Union[ToolMessage, Command[Any]]


def _replace(result: ToolMessage, done: Materialized) -> ToolMessage:
    """``result`` with the summary as content; its ``artifact`` (never sent to the model)
    keeps ``{"ref", "path"}`` unless the tool set one."""
    if done.inline:
        return result
    assert done.ref is not None
    artifact = result.artifact if result.artifact is not None else {"ref": done.ref.id, "path": done.path}
    fields: dict[str, Any] = {"name": result.name, "id": result.id}
    return ToolMessage(
        content=done.content,
        tool_call_id=result.tool_call_id,
        status=result.status or "success",
        artifact=artifact,
        **{k: v for k, v in fields.items() if v is not None},
    )


class MaterializeMiddleware(AgentMiddleware):
    """An agent middleware (``wrap_tool_call``/``awrap_tool_call``): every tool's result
    over the materializer's limits is written to an artifact named after the tool call's
    id, and the ``ToolMessage`` the model and the state get holds its summary. Text
    content blocks are stored as their text. With ``read_tools`` (default), the agent also
    gets ``context_read``, ``context_tail`` and ``context_grep`` over the artifacts."""

    def __init__(self, materializer: Materializer, *, read_tools: bool = True) -> None:
        super().__init__()
        self.materializer = materializer
        self.tools: List[BaseTool] = context_tools(materializer) if read_tools else []

    @property
    def name(self) -> str:
        return "ToolOffloadMaterialize"

    def wrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], ToolResult]
    ) -> ToolResult:
        result = handler(request)
        if not isinstance(result, ToolMessage):
            return result
        done = self.materializer.materialize_sync(
            tool_name=request.tool_call["name"], tool_call_id=result.tool_call_id, output=result.content
        )
        return _replace(result, done)

    async def awrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], Awaitable[ToolResult]]
    ) -> ToolResult:
        result = await handler(request)
        if not isinstance(result, ToolMessage):
            return result
        done = await self.materializer.materialize(
            tool_name=request.tool_call["name"], tool_call_id=result.tool_call_id, output=result.content
        )
        return _replace(result, done)


class BudgetMiddleware(AgentMiddleware):
    """An agent middleware (``before_model``): when the conversation holds more than
    ``trigger_tokens`` tokens, old tool results become one-line pointers to their
    artifacts (:meth:`Materializer.budget`: oldest first, the last ``keep_last`` and those
    of ``exclude_tools`` kept) and the cleared ``ToolMessage`` objects are replaced in the
    agent's state, by id: the decisions are kept there, so the next turn neither sends
    nor reconsiders them, and the cached prefix is rewritten only where they were made.
    Every cleared result reads back byte for byte (give the agent the read tools)."""

    def __init__(
        self,
        materializer: Materializer,
        *,
        trigger_tokens: int,
        keep_last: Optional[int] = None,
        clear_at_least_tokens: Optional[int] = None,
        exclude_tools: Optional[Sequence[str]] = None,
        count_tokens: Optional[CountTokens] = None,
    ) -> None:
        super().__init__()
        self.materializer = materializer
        self.options: dict[str, Any] = {
            "trigger_tokens": trigger_tokens,
            "keep_last": keep_last,
            "clear_at_least_tokens": clear_at_least_tokens,
            "exclude_tools": exclude_tools,
            "count_tokens": count_tokens,
        }
        self.tools: List[BaseTool] = []

    @property
    def name(self) -> str:
        return "ToolOffloadBudget"

    def before_model(self, state: Any, runtime: Any) -> Optional[dict[str, Any]]:
        messages: List[AnyMessage] = list(state["messages"])
        view = [_openai(m) for m in messages]
        return _cleared(messages, view, self.materializer.budget_sync(view, **self.options))

    async def abefore_model(self, state: Any, runtime: Any) -> Optional[dict[str, Any]]:
        messages: List[AnyMessage] = list(state["messages"])
        view = [_openai(m) for m in messages]
        return _cleared(messages, view, await self.materializer.budget(view, **self.options))


def _openai(message: AnyMessage) -> dict[str, Any]:
    """A LangChain message as an OpenAI Chat message, for the budget (which reads tool
    names from the assistant's ``tool_calls``). Only tool results ever change."""
    if isinstance(message, ToolMessage):
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    if isinstance(message, AIMessage):
        out: dict[str, Any] = {"role": "assistant", "content": message.content}
        if message.tool_calls:
            out["tool_calls"] = [
                {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": "{}"}}
                for c in message.tool_calls
            ]
        return out
    role = {"human": "user", "system": "system"}.get(message.type, message.type)
    return {"role": role, "content": message.content}


def _cleared(messages: List[AnyMessage], view: List[Any], done: BudgetResult) -> Optional[dict[str, Any]]:
    """The state update: each cleared ``ToolMessage`` again under its id, its content the
    pointer (LangGraph's ``add_messages`` replaces a message of the same id)."""
    changed = [
        messages[i].model_copy(update={"content": after["content"]})
        for i, after in enumerate(done.messages[: len(view)])
        if after is not view[i] and messages[i].id is not None
    ]
    return {"messages": changed} if changed else None


def context_tools(materializer: Materializer) -> List[BaseTool]:
    """``context_read``, ``context_tail`` and ``context_grep`` as LangChain tools over the
    materializer's artifacts, with the read-back pages of the tool registry. A refused
    call (another conversation's ref, a bad pattern) comes back as an error
    ``ToolMessage`` (``status="error"``) the model can read."""
    tools: List[BaseTool] = []
    for definition in materializer.tool_definitions("anthropic"):
        name = str(definition["name"])

        def run(_name: str = name, **params: Any) -> str:
            r = materializer.handle_tool_call_sync(_name, params)
            if r.is_error:
                raise ToolException(r.content)
            return r.content

        async def arun(_name: str = name, **params: Any) -> str:
            r = await materializer.handle_tool_call(_name, params)
            if r.is_error:
                raise ToolException(r.content)
            return r.content

        tools.append(
            StructuredTool.from_function(
                func=run,
                coroutine=arun,
                name=name,
                description=str(definition["description"]),
                args_schema=definition["input_schema"],
                handle_tool_error=True,
            )
        )
    return tools


