"""tool-offload for Pydantic AI (``pip install tool-offload[pydantic-ai]``): the
:class:`ToolOffload` capability.

- ``after_tool_execute``: each tool's result over the materializer's limits is written
  to an artifact (named after the call's id) and the model gets the summary.
- ``get_toolset``: ``context_read``, ``context_tail``, ``context_grep``; a refused call
  is a ``ToolFailed`` the model sees (no retry spent).
- ``before_model_request`` (with ``budget=``): ``Materializer.budget`` on the history
  before each model request; the tool returns it clears are rewritten in the run's
  persistent history (``RunContext.messages``), so they stay cleared on later requests
  and runs.

Example::

    from pydantic_ai import Agent
    from tool_offload import Materializer
    from tool_offload.pydantic_ai import ToolOffload

    materializer = Materializer(".agent", "conv-1")
    agent = Agent(
        "anthropic:claude-sonnet-4-5", tools=[bash],
        capabilities=[ToolOffload(materializer, budget={"trigger_tokens": 100_000})],
    )
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Tuple

try:
    from pydantic_ai import RunContext, Tool, ToolFailed
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.messages import (
        ModelMessage,
        ModelRequest,
        ModelResponse,
        ToolCallPart,
        ToolReturn,
        ToolReturnPart,
        is_multi_modal_content,
    )
    from pydantic_ai.models import ModelRequestContext
    from pydantic_ai.tools import ToolDefinition
    from pydantic_ai.toolsets import FunctionToolset
    from pydantic_core import to_jsonable_python
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError("tool_offload.pydantic_ai needs Pydantic AI: pip install 'tool-offload[pydantic-ai]'") from e

from . import Materializer
from ._adapter import ReadBack, budget_options, read_tool_names

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
    budget: Optional[Mapping[str, Any]] = None
    """Keyword arguments of ``Materializer.budget`` (``trigger_tokens``, ``keep_last``…):
    when given, the history is budgeted before every model request."""
    _read_names: FrozenSet[str] = field(default=frozenset(), init=False, repr=False)

    def __post_init__(self) -> None:
        self._read_names = read_tool_names(self.materializer)
        budget_options(self.materializer, self.budget)  # checked now, not at the first request

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

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        if self.budget is None:
            return request_context
        messages = list(request_context.messages)
        done = await self.materializer.budget(_projected(messages), **dict(self.budget))
        rewritten = _rewritten(messages, done.messages)
        if rewritten:
            # Kept in the persistent history too, as a history processor does: later
            # requests (and runs given result.all_messages()) start from the cleared one.
            request_context.messages = [rewritten.get(id(m), m) for m in messages]
            ctx.messages[:] = [rewritten.get(id(m), m) for m in ctx.messages]
        return request_context


# The budget reads the history as Anthropic-style messages, one content block per part,
# so a changed ``tool_result`` block names the ``ToolReturnPart`` it stands for.


def _projected(messages: List[ModelMessage]) -> List[Dict[str, Any]]:
    return [
        {
            "role": "assistant" if isinstance(m, ModelResponse) else "user",
            "content": [_block(p) for p in m.parts],
        }
        for m in messages
    ]


def _block(part: Any) -> Dict[str, Any]:
    if isinstance(part, ToolReturnPart):
        # Unwrapped: a pointer written into a failed return must read as a pointer next time.
        text = part.model_response_str(wrap_if_error=False)
        return {"type": "tool_result", "tool_use_id": part.tool_call_id, "content": text}
    if isinstance(part, ToolCallPart):
        return {"type": "tool_use", "id": part.tool_call_id, "name": part.tool_name, "input": part.args_as_dict()}
    content = getattr(part, "content", "")
    return {"type": "text", "text": content if isinstance(content, str) else str(content)}


def _rewritten(messages: List[ModelMessage], after: List[Any]) -> Dict[int, ModelMessage]:
    """The messages whose tool returns the budget rewrote, by the id of the original."""
    out: Dict[int, ModelMessage] = {}
    for message, new in zip(messages, after):
        if not isinstance(message, ModelRequest) or not isinstance(new, dict):
            continue
        parts: List[Any] = list(message.parts)
        changes: List[Tuple[int, Any]] = [
            (i, block.get("content"))
            for i, (part, block) in enumerate(zip(parts, new.get("content") or ()))
            if isinstance(part, ToolReturnPart)
            and isinstance(block, dict)
            and block.get("content") != part.model_response_str(wrap_if_error=False)
        ]
        for i, content in changes:
            parts[i] = replace(parts[i], content=content)
        if changes:
            out[id(message)] = replace(message, parts=parts)
    return out


def _storable(result: Any) -> bool:
    if result is None or isinstance(result, ToolReturn) or is_multi_modal_content(result):
        return False
    if isinstance(result, (list, tuple)):
        return not any(is_multi_modal_content(item) or isinstance(item, ToolReturn) for item in result)
    return True
