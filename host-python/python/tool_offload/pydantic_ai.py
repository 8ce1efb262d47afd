"""tool_offload for Pydantic AI (``pydantic-ai-slim``, an optional dependency): a
capability that materializes tool results over a :class:`~tool_offload.Materializer`'s
limits before the model sees them (``after_tool_execute``) and gives the agent the
read-back tools (``context_read``, ``context_tail``, ``context_grep``)::

    from pydantic_ai import Agent
    from tool_offload import Materializer
    from tool_offload.pydantic_ai import Materialize

    materializer = Materializer(".agent", "thread-1")
    agent = Agent(model, tools=[bash], capabilities=[Materialize(materializer)])

A long single-line JSON result is paged by ``context_read`` (``path=`` selects inside it),
which a plain truncation cannot do."""

from __future__ import annotations

import json
from typing import Any, List

from pydantic_ai import RunContext
from pydantic_ai.capabilities import Capability
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.tools import Tool, ToolDefinition

from ._materializer import Materializer

__all__ = ["Materialize", "context_tools"]


def _output(result: Any) -> Any:
    """A tool's result as ``materialize`` takes it: a pydantic model as its JSON data,
    JSON as it is, anything else as ``str()`` of it."""
    if hasattr(result, "model_dump") and callable(result.model_dump):
        return result.model_dump(mode="json")
    try:
        json.dumps(result, allow_nan=False)
    except (TypeError, ValueError):
        return str(result)
    return result


class Materialize(Capability[Any]):
    """Every tool's result over the materializer's limits is written to an artifact named
    after the tool call's id, and the model gets its summary (with a ``ctx://`` ref) in its
    place. With ``read_tools`` (default), the agent also gets the read-back tools."""

    def __init__(self, materializer: Materializer, *, read_tools: bool = True) -> None:
        super().__init__(
            tools=context_tools(materializer) if read_tools else (),
            description="Large tool results are stored and summarised; read them back with context_* tools.",
        )
        self.materializer = materializer

    async def after_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: Any,
        result: Any,
    ) -> Any:
        done = await self.materializer.materialize(
            tool_name=call.tool_name, tool_call_id=call.tool_call_id, output=_output(result)
        )
        return result if done.inline else done.content


def context_tools(materializer: Materializer) -> List[Tool[Any]]:
    """``context_read``, ``context_tail`` and ``context_grep`` as Pydantic AI tools over the
    materializer's artifacts; a refused call (another conversation's ref, a bad pattern)
    returns a message the model can read."""
    tools: List[Tool[Any]] = []
    for definition in materializer.tool_definitions("anthropic"):
        name = str(definition["name"])

        async def run(_name: str = name, **params: Any) -> str:
            return (await materializer.handle_tool_call(_name, params)).content

        tools.append(Tool.from_schema(run, name, str(definition["description"]), definition["input_schema"]))
    return tools
