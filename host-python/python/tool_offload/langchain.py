"""tool-offload for LangChain v1 agents and LangGraph (``pip install tool-offload[langchain]``).

- :class:`ToolOffloadMiddleware`: an ``AgentMiddleware`` for ``create_agent``. Its
  ``wrap_tool_call``/``awrap_tool_call`` materialize each tool result over the
  materializer's limits (the ``ToolMessage`` the model sees holds the summary); its
  ``wrap_model_call``/``awrap_model_call`` run ``Materializer.budget`` on the history
  before each model call when given ``budget=``, and keep its decisions in the agent
  state (the cleared ``ToolMessage`` s replace the originals, by id, so later turns never
  clear them again); its ``tools`` are the read-back tools the model uses.
- :func:`context_tools`: ``context_read``, ``context_tail``, ``context_grep`` as
  LangChain tools.
- :func:`tool_node`: a LangGraph ``ToolNode`` with the same tool-result wrapper and the
  read-back tools, for graphs built by hand.

Example::

    from langchain.agents import create_agent
    from tool_offload import Materializer
    from tool_offload.langchain import ToolOffloadMiddleware

    materializer = Materializer(".agent", "thread-1")
    agent = create_agent(
        model, tools=[bash],
        middleware=[ToolOffloadMiddleware(materializer, budget={"trigger_tokens": 100_000})],
    )
"""

from __future__ import annotations

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
from ._adapter import ReadBack, budget_options, read_tool_names

__all__ = ["ToolOffloadMiddleware", "context_tools", "tool_node"]

ToolResult = Any  # ToolMessage | Command


def context_tools(materializer: Materializer) -> List[BaseTool]:
    """``context_read``, ``context_tail`` and ``context_grep`` over ``materializer``'s
    artifacts, as LangChain tools (definitions, argument checks and pages from the
    extension). A refused call (another conversation's ref, a bad pattern) comes back as
    an error ``ToolMessage`` the model can read."""
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


class ToolOffloadMiddleware(AgentMiddleware):
    """Materializes tool results, budgets the history, and gives the model the read-back
    tools.

    Args:
        materializer: Where artifacts go and are read from (one per conversation/thread).
        read_tools: Give the agent ``context_read``/``context_tail``/``context_grep``
            (``self.tools``); ``False`` when the caller adds them itself.
        budget: Keyword arguments of ``Materializer.budget`` (``trigger_tokens``,
            ``keep_last``, ``exclude_tools``…): when given, the history is budgeted
            before every model call and what it clears is written back to the state.
    """

    def __init__(
        self,
        materializer: Materializer,
        *,
        read_tools: bool = True,
        budget: Optional[Mapping[str, Any]] = None,
    ) -> None:
        super().__init__()
        self.materializer = materializer
        read_back = ReadBack(materializer) if read_tools else None
        self.tools: List[BaseTool] = _tools(read_back) if read_back else []
        # The read-back tools' own pages are never materialized again (a page the model
        # asked for, replaced by its summary, would be read again and again).
        self._read_names: FrozenSet[str] = read_back.names if read_back else read_tool_names(materializer)
        self._budget: Optional[Dict[str, Any]] = budget_options(materializer, budget)

    @property
    def name(self) -> str:
        return "ToolOffloadMiddleware"

    # -- tool results ------------------------------------------------------------------

    def _target(self, request: ToolCallRequest, result: ToolResult) -> Optional[ToolMessage]:
        """The call's own ``ToolMessage``: the result, or the one a ``Command`` result
        carries in ``update["messages"]`` (deepagents' ``task`` answers so); ``None`` for
        the read-back tools and anything else."""
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
        """The tool's ``ToolMessage`` (or the ``Command`` carrying it), its content the
        summary when over the limits: the artifact is named after the call's id, and
        ``artifact`` (never sent to the model) keeps ``{ref, path}`` unless the tool set
        one."""
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
        """:meth:`wrap_tool_call` for async agents."""
        result = await handler(request)
        message = self._target(request, result)
        if message is None:
            return result
        done = await self.materializer.materialize(
            tool_name=self._tool_name(request, message), tool_call_id=message.tool_call_id, output=message.content
        )
        return self._replace(result, message, done)

    # -- the history's budget ----------------------------------------------------------

    def _budgeted(
        self, request: ModelRequest, done: BudgetResult, dumped: List[Dict[str, Any]]
    ) -> Optional[List[AnyMessage]]:
        """The request's messages with the budget's rewrites applied, or ``None`` when it
        changed none. Only the fields it rewrote are replaced; ids and the rest stay."""
        changed = False
        out: List[AnyMessage] = []
        for message, before, after in zip(request.messages, dumped, done.messages):
            if after is before:
                out.append(message)
                continue
            update = {k: v for k, v in after.items() if before.get(k, _MISSING) != v}
            out.append(message.model_copy(update=update) if update else message)
            changed = changed or bool(update)
        return out if changed else None

    def _respond(self, request: ModelRequest, messages: List[AnyMessage], response: Any) -> Any:
        # Decisions are kept: each rewritten message replaces its original in the state
        # (add_messages matches ids), so the next turn starts from the budgeted history.
        rewritten = [m for m, old in zip(messages, request.messages) if m is not old and m.id is not None]
        if not rewritten:
            return response
        if isinstance(response, AIMessage):
            response = ModelResponse(result=[response])
        return ExtendedModelResponse(model_response=response, command=Command(update={"messages": rewritten}))

    def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], Any]) -> Any:
        """Budget the history (when ``budget=`` was given), then call the model with it."""
        if self._budget is None:
            return handler(request)
        dumped = _dump(request.messages)
        done = self.materializer.budget_sync(dumped, **self._budget)
        messages = self._budgeted(request, done, dumped)
        if messages is None:
            return handler(request)
        return self._respond(request, messages, handler(request.override(messages=messages)))

    async def awrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[Any]]) -> Any:
        """:meth:`wrap_model_call` for async agents."""
        if self._budget is None:
            return await handler(request)
        dumped = _dump(request.messages)
        done = await self.materializer.budget(dumped, **self._budget)
        messages = self._budgeted(request, done, dumped)
        if messages is None:
            return await handler(request)
        return self._respond(request, messages, await handler(request.override(messages=messages)))


_MISSING = object()


def _dump(messages: Sequence[BaseMessage]) -> List[Dict[str, Any]]:
    """LangChain messages as the message dicts core reads (``{type: "tool", tool_call_id,
    name, content, …}``); a tool's ``artifact`` (never sent to the model) is left out."""
    return [m.model_dump(mode="json", exclude={"artifact"}) for m in messages]


def tool_node(tools: Sequence[Any], materializer: Materializer, *, read_tools: bool = True, **kwargs: Any) -> ToolNode:
    """A LangGraph ``ToolNode`` running ``tools`` (plus the read-back tools unless
    ``read_tools=False``), each result materialized as :class:`ToolOffloadMiddleware`
    does (``ToolNode(wrap_tool_call=…, awrap_tool_call=…)``). ``kwargs`` go to
    ``ToolNode``."""
    middleware = ToolOffloadMiddleware(materializer, read_tools=read_tools)
    return ToolNode(
        [*tools, *middleware.tools],
        wrap_tool_call=middleware.wrap_tool_call,
        awrap_tool_call=middleware.awrap_tool_call,
        **kwargs,
    )
