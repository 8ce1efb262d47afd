"""tool-offload for Pydantic AI (``pip install tool-offload[pydantic-ai]``): two
capabilities.

- :class:`Materialize` (``after_tool_execute``): each tool's result over the
  materializer's limits is written to an artifact (named after the call's id) and the
  model gets the summary; its tools are ``context_read``, ``context_tail``,
  ``context_grep`` (a refused call is a ``ToolFailed`` the model sees, no retry spent).
- :class:`Budget` (``before_model_request``): ``Materializer.budget`` on the history
  before each model request; the tool returns it clears are rewritten in the run's
  persistent history (``RunContext.messages``), so they stay cleared on later requests
  and runs.

Example::

    from pydantic_ai import Agent
    from tool_offload import Materializer
    from tool_offload.pydantic_ai import Budget, Materialize

    materializer = Materializer(".agent", "conv-1")
    agent = Agent("anthropic:claude-sonnet-4-5", tools=[bash], capabilities=[
        Materialize(materializer), Budget(materializer, trigger_tokens=100_000),
    ])

A long single-line JSON result is paged by ``context_read`` (``path=`` selects inside it),
which a plain truncation cannot do.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple

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
from ._adapter import ReadBack, read_tool_names
from ._handle import CountTokens

__all__ = ["Materialize", "Budget", "context_tools"]


def context_tools(materializer: Materializer) -> List[Tool[Any]]:
    """``context_read``, ``context_tail`` and ``context_grep`` over ``materializer``'s
    artifacts as Pydantic AI tools (definitions, argument checks and pages from the
    extension); a refused call (another conversation's ref, a bad pattern) raises
    ``ToolFailed``, a failed result the model reads."""
    read_back = ReadBack(materializer)
    return [_tool(read_back, d) for d in read_back.definitions]


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
class Materialize(AbstractCapability[Any]):
    """Materializes tool results over the materializer's limits and gives the model the
    read-back tools (``read_tools=False`` leaves them out).

    Results the model must get as they are — multimodal content, ``ToolReturn`` — pass
    unchanged; a ``str`` is stored as it is, any other value (a pydantic model…) as the
    JSON the model would have been sent; the read-back tools' own pages are never
    materialized again."""

    materializer: Materializer
    read_tools: bool = True
    _read_names: FrozenSet[str] = field(default=frozenset(), init=False, repr=False)
    _tools: List[Tool[Any]] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        self._read_names = read_tool_names(self.materializer)
        self._tools = context_tools(self.materializer) if self.read_tools else []
        if self.description is None:
            self.description = "Large tool results are stored and summarised; read them back with context_* tools."

    @property
    def tools(self) -> List[Tool[Any]]:
        """The read-back tools this capability gives the agent."""
        return list(self._tools)

    @classmethod
    def get_serialization_name(cls) -> Optional[str]:
        return None  # holds a live Materializer: not spec-serializable

    def get_toolset(self) -> Optional[FunctionToolset[Any]]:
        return FunctionToolset(self._tools) if self._tools else None

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


@dataclass
class Budget(AbstractCapability[Any]):
    """Past ``trigger_tokens``, old tool returns become one-line pointers to their
    artifacts (:meth:`Materializer.budget`: oldest first, the last ``keep_last`` and those
    of ``exclude_tools`` kept), in the request and in the run's persistent history, as
    ``ProcessHistory`` does: later requests (and runs given ``result.all_messages()``)
    start from the cleared returns, the same bytes, never reconsidered."""

    materializer: Materializer
    trigger_tokens: int
    keep_last: Optional[int] = None
    clear_at_least_tokens: Optional[int] = None
    exclude_tools: Optional[Sequence[str]] = None
    count_tokens: Optional[CountTokens] = None

    @classmethod
    def get_serialization_name(cls) -> Optional[str]:
        return None  # holds a live Materializer: not spec-serializable

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        messages = list(request_context.messages)
        done = await self.materializer.budget(
            _projected(messages),
            trigger_tokens=self.trigger_tokens,
            keep_last=self.keep_last,
            clear_at_least_tokens=self.clear_at_least_tokens,
            exclude_tools=self.exclude_tools,
            count_tokens=self.count_tokens,
        )
        rewritten = _rewritten(messages, done.messages)
        if rewritten:
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
