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

from typing import Any, Awaitable, Callable, List, Union

from langchain.agents.middleware import AgentMiddleware
from langchain.agents.middleware.types import ToolCallRequest
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.types import Command

from ._materializer import Materializer
from ._types import Materialized

__all__ = ["MaterializeMiddleware", "context_tools"]

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


