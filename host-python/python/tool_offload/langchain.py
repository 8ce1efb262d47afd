"""tool-offload for LangChain v1 agents and LangGraph (``pip install tool-offload[langchain]``);
the npm package's ``tool-offload/langchain``, in Python.

- :class:`MaterializeMiddleware` (``wrap_tool_call``/``awrap_tool_call``): each tool
  result over the materializer's limits is written to an artifact and the ``ToolMessage``
  the model and the state get holds its summary; it gives the agent the read-back tools.
- :class:`BudgetMiddleware` (``wrap_model_call``/``awrap_model_call``):
  ``Materializer.budget`` on the history before each model call, its decisions kept in the
  agent state (each cleared ``ToolMessage`` replaces its original, by id), so later turns
  neither send nor reconsider them.
- :func:`context_tools`: ``context_read``, ``context_tail``, ``context_grep`` as
  LangChain tools.
- :func:`tool_node`: a LangGraph ``ToolNode`` with the same tool-result wrapper and the
  read-back tools, for graphs built by hand.

Example::

    from langchain.agents import create_agent
    from tool_offload import Materializer
    from tool_offload.langchain import BudgetMiddleware, MaterializeMiddleware

    materializer = Materializer(".agent", "thread-1")
    agent = create_agent(model, tools=[bash], middleware=[
        MaterializeMiddleware(materializer), BudgetMiddleware(materializer, trigger_tokens=100_000),
    ])
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Awaitable, Callable, Dict, FrozenSet, List, Mapping, Optional, Sequence

try:
    from langchain.agents.middleware.types import (
        AgentMiddleware,
        ExtendedModelResponse,
        ModelRequest,
        ModelResponse,
    )
    from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, ToolMessage
    from langchain_core.tools import BaseTool, StructuredTool, ToolException
    from langgraph.prebuilt import ToolNode
    from langgraph.prebuilt.tool_node import ToolCallRequest
    from langgraph.types import Command
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError("tool_offload.langchain needs LangChain v1: pip install 'tool-offload[langchain]'") from e

from . import BudgetResult, Materialized, Materializer, ToolCallResult
from ._adapter import ReadBack, read_tool_names
from ._handle import CountTokens

__all__ = ["MaterializeMiddleware", "BudgetMiddleware", "context_tools", "tool_node"]

ToolResult = Any  # ToolMessage | Command


def context_tools(materializer: Materializer) -> List[BaseTool]:
    """``context_read``, ``context_tail`` and ``context_grep`` over ``materializer``'s
    artifacts, as LangChain tools (definitions, argument checks and pages from the
    extension). A refused call (another conversation's ref, a bad pattern) comes back as
    an error ``ToolMessage`` (``status="error"``) the model can read."""
    return _tools(ReadBack(materializer))


def _tools(read_back: ReadBack) -> List[BaseTool]:
    return [_tool(read_back, definition) for definition in read_back.definitions]


def _tool(read_back: ReadBack, definition: Mapping[str, Any]) -> BaseTool:
    name = str(definition["name"])

    def page(result: ToolCallResult) -> str:
        if result.is_error:
            raise ToolException(result.content)
        return result.content

    def run(**input: Any) -> str:
        return page(read_back.run_sync(name, input))

    async def arun(**input: Any) -> str:
        return page(await read_back.run(name, input))

    return StructuredTool(
        name=name,
        description=str(definition.get("description", "")),
        args_schema=dict(definition["input_schema"]),
        func=run,
        coroutine=arun,
        handle_tool_error=True,
    )


class MaterializeMiddleware(AgentMiddleware):
    """Every tool's result over the materializer's limits is written to an artifact named
    after the tool call's id, and the ``ToolMessage`` the model and the state get holds
    its summary; its ``artifact`` (never sent to the model) keeps ``{"ref", "path"}``
    unless the tool set one. A tool answering with a ``Command`` (deepagents' ``task``)
    gets the ``ToolMessage`` for its call inside it materialized the same way. Text
    content blocks are stored as their text.

    With ``read_tools`` (default) the agent also gets ``context_read``, ``context_tail``
    and ``context_grep`` (``self.tools``), whose own pages are never materialized again.
    """

    def __init__(self, materializer: Materializer, *, read_tools: bool = True) -> None:
        super().__init__()
        self.materializer = materializer
        read_back = ReadBack(materializer) if read_tools else None
        self.tools: List[BaseTool] = _tools(read_back) if read_back else []
        # A page the model asked for, replaced by its summary, would be read again and again.
        self._read_names: FrozenSet[str] = read_back.names if read_back else read_tool_names(materializer)

    @property
    def name(self) -> str:
        return "ToolOffloadMaterialize"

    def _target(self, request: ToolCallRequest, result: ToolResult) -> Optional[ToolMessage]:
        """The call's own ``ToolMessage``: the result, or the one a ``Command`` result
        carries in ``update["messages"]``; ``None`` for the read-back tools and anything
        else."""
        if request.tool_call.get("name") in self._read_names:
            return None
        if isinstance(result, ToolMessage):
            return result
        if isinstance(result, Command) and isinstance(result.update, dict):
            for message in result.update.get("messages") or ():
                if isinstance(message, ToolMessage) and message.tool_call_id == request.tool_call.get("id"):
                    return message
        return None

    def _tool_name(self, request: ToolCallRequest, message: ToolMessage) -> str:
        return str(request.tool_call.get("name") or message.name or "tool")

    @staticmethod
    def _replace(result: ToolResult, message: ToolMessage, done: Materialized) -> ToolResult:
        """``result`` with ``message`` holding the summary (when not inline)."""
        if done.inline:
            return result
        artifact = message.artifact
        if artifact is None and done.ref is not None:
            artifact = {"ref": done.ref.id, "path": done.path}
        summary = message.model_copy(update={"content": done.content, "artifact": artifact})
        if result is message:
            return summary
        update = dict(result.update)
        update["messages"] = [summary if m is message else m for m in update["messages"]]
        return replace(result, update=update)

    def wrap_tool_call(self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], ToolResult]) -> ToolResult:
        result = handler(request)
        message = self._target(request, result)
        if message is None:
            return result
        done = self.materializer.materialize_sync(
            tool_name=self._tool_name(request, message), tool_call_id=message.tool_call_id, output=message.content
        )
        return self._replace(result, message, done)

    async def awrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[[ToolCallRequest], Awaitable[ToolResult]]
    ) -> ToolResult:
        result = await handler(request)
        message = self._target(request, result)
        if message is None:
            return result
        done = await self.materializer.materialize(
            tool_name=self._tool_name(request, message), tool_call_id=message.tool_call_id, output=message.content
        )
        return self._replace(result, message, done)


class BudgetMiddleware(AgentMiddleware):
    """When the conversation holds more than ``trigger_tokens`` tokens, old tool results
    become one-line pointers to their artifacts (:meth:`Materializer.budget`: oldest
    first, the last ``keep_last`` and those of ``exclude_tools`` kept; each message
    counted by ``count_tokens``, else the materializer's, else core's estimate), in the
    request the model gets and in the agent's state: each cleared ``ToolMessage``
    replaces its original there, by id, so the next turn neither sends nor reconsiders
    it and the cached prefix is rewritten only where a decision was made. Every cleared
    result reads back byte for byte (give the agent the read tools)."""

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
        options = {
            "trigger_tokens": trigger_tokens,
            "keep_last": keep_last,
            "clear_at_least_tokens": clear_at_least_tokens,
            "exclude_tools": exclude_tools,
            "count_tokens": count_tokens,
        }
        self.options: Dict[str, Any] = options
        self.tools: List[BaseTool] = []

    @property
    def name(self) -> str:
        return "ToolOffloadBudget"

    def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], Any]) -> Any:
        view = _view(request.messages)
        messages = _budgeted(request.messages, view, self.materializer.budget_sync(view, **self.options))
        if messages is None:
            return handler(request)
        return _kept(request, messages, handler(request.override(messages=messages)))

    async def awrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[Any]]) -> Any:
        view = _view(request.messages)
        messages = _budgeted(request.messages, view, await self.materializer.budget(view, **self.options))
        if messages is None:
            return await handler(request)
        return _kept(request, messages, await handler(request.override(messages=messages)))


def _view(messages: Sequence[BaseMessage]) -> List[Dict[str, Any]]:
    """LangChain messages as the message dicts core reads (``{type: "tool",
    tool_call_id, name, content, …}``), each counted as what it holds; a tool's
    ``artifact`` (never sent to the model) left out, an assistant's tool calls in the
    OpenAI form core takes their tool names from."""
    out = []
    for message in messages:
        view = message.model_dump(mode="json", exclude={"artifact"})
        if isinstance(message, AIMessage) and message.tool_calls:
            view["tool_calls"] = [
                {
                    "id": c.get("id"),
                    "type": "function",
                    "function": {"name": c["name"], "arguments": json.dumps(c.get("args") or {}, ensure_ascii=False)},
                }
                for c in message.tool_calls
            ]
        out.append(view)
    return out


def _budgeted(
    messages: Sequence[AnyMessage], view: List[Dict[str, Any]], done: BudgetResult
) -> Optional[List[AnyMessage]]:
    """``messages`` with the budget's rewrites applied (only the fields it rewrote; ids
    and the rest stay), or ``None`` when it changed none."""
    out: List[AnyMessage] = []
    changed = False
    for message, before, after in zip(messages, view, done.messages):
        update = {} if after is before else {k: v for k, v in after.items() if before.get(k, _MISSING) != v}
        out.append(message.model_copy(update=update) if update else message)
        changed = changed or bool(update)
    return out if changed else None


def _kept(request: ModelRequest, messages: List[AnyMessage], response: Any) -> Any:
    """The model's response, with the rewritten messages as a state update: LangGraph's
    ``add_messages`` replaces each original (same id), so the decisions are kept."""
    rewritten = [m for m, old in zip(messages, request.messages) if m is not old and m.id is not None]
    if not rewritten:
        return response
    if isinstance(response, AIMessage):
        response = ModelResponse(result=[response])
    return ExtendedModelResponse(model_response=response, command=Command(update={"messages": rewritten}))


_MISSING = object()


def tool_node(tools: Sequence[Any], materializer: Materializer, *, read_tools: bool = True, **kwargs: Any) -> ToolNode:
    """A LangGraph ``ToolNode`` running ``tools`` (plus the read-back tools unless
    ``read_tools=False``), each result materialized as :class:`MaterializeMiddleware`
    does (``ToolNode(wrap_tool_call=…, awrap_tool_call=…)``). ``kwargs`` go to
    ``ToolNode``."""
    middleware = MaterializeMiddleware(materializer, read_tools=read_tools)
    return ToolNode(
        [*tools, *middleware.tools],
        wrap_tool_call=middleware.wrap_tool_call,
        awrap_tool_call=middleware.awrap_tool_call,
        **kwargs,
    )
