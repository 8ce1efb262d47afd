"""tool-offload for Pydantic AI (``pip install tool-offload[pydantic-ai]``): the
:class:`ToolOffload` capability.

- ``after_tool_execute``: each tool's result over the materializer's limits is written
  to an artifact (named after the call's id) and the model gets the summary.
- ``get_toolset``: ``context_read``, ``context_tail``, ``context_grep``; a refused call
  is a ``ToolFailed`` the model sees (no retry spent).

Example::

    from pydantic_ai import Agent
    from tool_offload import Materializer
    from tool_offload.pydantic_ai import ToolOffload

    materializer = Materializer(".agent", "conv-1")
    agent = Agent("anthropic:claude-sonnet-4-5", tools=[bash], capabilities=[ToolOffload(materializer)])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, FrozenSet, Mapping, Optional

try:
    from pydantic_ai import RunContext, Tool, ToolFailed
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.messages import ToolCallPart, ToolReturn, is_multi_modal_content
    from pydantic_ai.tools import ToolDefinition
    from pydantic_ai.toolsets import FunctionToolset
    from pydantic_core import to_jsonable_python
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError("tool_offload.pydantic_ai needs Pydantic AI: pip install 'tool-offload[pydantic-ai]'") from e

from . import Materializer
from ._read_back import ReadBack, read_tool_names

__all__ = ["ToolOffload", "context_toolset"]


def context_toolset(materializer: Materializer) -> FunctionToolset[Any]:
    """``context_read``, ``context_tail`` and ``context_grep`` over ``materializer``'s
    artifacts as a toolset (definitions, argument checks and pages from the extension)."""
    read_back = ReadBack(materializer)
    return FunctionToolset([_tool(read_back, d) for d in read_back.definitions])


def _tool(read_back: ReadBack, definition: Mapping[str, Any]) -> Tool[Any]:
    name = str(definition["name"])

    async def run(**input: Any) -> str:
        result = await read_back.run(name, input)
        if result.is_error:
            raise ToolFailed(result.content)
        return result.content

    tool: Tool[Any] = Tool.from_schema(
        run, name=name, description=str(definition.get("description", "")), json_schema=dict(definition["input_schema"])
    )
    return tool


@dataclass
class ToolOffload(AbstractCapability[Any]):
    """Materializes tool results over the materializer's limits and gives the model the
    read-back tools (``read_tools=False`` leaves them out).

    Results the model must get as they are — multimodal content, ``ToolReturn`` — pass
    unchanged; a ``str`` is stored as it is, any other value as the JSON the model would
    have been sent."""

    materializer: Materializer
    read_tools: bool = True
    _read_names: FrozenSet[str] = field(default=frozenset(), init=False, repr=False)

    def __post_init__(self) -> None:
        self._read_names = read_tool_names(self.materializer)

    @classmethod
    def get_serialization_name(cls) -> Optional[str]:
        return None  # holds a live Materializer: not spec-serializable

    def get_toolset(self) -> Optional[FunctionToolset[Any]]:
        return context_toolset(self.materializer) if self.read_tools else None

    async def after_tool_execute(
        self, ctx: RunContext[Any], *, call: ToolCallPart, tool_def: ToolDefinition, args: Any, result: Any
    ) -> Any:
        if call.tool_name in self._read_names or not _storable(result):
            return result
        output = result if isinstance(result, str) else to_jsonable_python(result, by_alias=True)
        done = await self.materializer.materialize(
            tool_name=call.tool_name, tool_call_id=call.tool_call_id, output=output
        )
        return result if done.inline else done.content


def _storable(result: Any) -> bool:
    if result is None or isinstance(result, ToolReturn) or is_multi_modal_content(result):
        return False
    if isinstance(result, (list, tuple)):
        return not any(is_multi_modal_content(item) or isinstance(item, ToolReturn) for item in result)
    return True
