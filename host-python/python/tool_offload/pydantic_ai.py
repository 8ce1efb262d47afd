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

import dataclasses
import json
from typing import Any, List, Optional, Sequence, Tuple

from pydantic_ai import RunContext
from pydantic_ai.capabilities import Capability
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import ModelRequestContext
from pydantic_ai.tools import Tool, ToolDefinition

from ._materializer import CountTokens, Materializer

__all__ = ["Materialize", "Budget", "context_tools"]


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


class Budget(Capability[Any]):
    """Before each model request, past ``trigger_tokens``, old tool returns become one-line
    pointers to their artifacts (:meth:`Materializer.budget`: oldest first, the last
    ``keep_last`` and those of ``exclude_tools`` kept). The run's history is rewritten as
    a history processor's is, so the decisions are kept: later requests neither send nor
    reconsider them. Every cleared return reads back byte for byte (use it beside
    :class:`Materialize`, which gives the read tools)."""

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
        super().__init__(description="Old tool results are cleared into pointers past a token budget.")
        self.materializer = materializer
        self.options: dict[str, Any] = {
            "trigger_tokens": trigger_tokens,
            "keep_last": keep_last,
            "clear_at_least_tokens": clear_at_least_tokens,
            "exclude_tools": exclude_tools,
            "count_tokens": count_tokens,
        }

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        messages = list(request_context.messages)
        view, places = _openai(messages)
        done = await self.materializer.budget(view, **self.options)
        cleared = {
            places[i]: after["content"]
            for i, after in enumerate(done.messages[: len(view)])
            if after is not view[i] and places[i] is not None
        }
        if not cleared:
            return request_context
        out = [_with_cleared(message, m, cleared) for m, message in enumerate(messages)]
        request_context.messages = out.copy()
        ctx.messages[:] = out
        return request_context


def _openai(messages: List[ModelMessage]) -> Tuple[List[dict[str, Any]], List[Optional[Tuple[int, int]]]]:
    """The history as OpenAI Chat messages for the budget (which reads tool names from
    the assistant's ``tool_calls``), and where each tool return lives (message, part)."""
    view: List[dict[str, Any]] = []
    places: List[Optional[Tuple[int, int]]] = []
    for m, message in enumerate(messages):
        if isinstance(message, ModelResponse):
            text = "".join(p.content for p in message.parts if isinstance(p, TextPart))
            calls = [
                {"id": p.tool_call_id, "type": "function", "function": {"name": p.tool_name, "arguments": "{}"}}
                for p in message.parts
                if isinstance(p, ToolCallPart)
            ]
            view.append({"role": "assistant", "content": text, **({"tool_calls": calls} if calls else {})})
            places.append(None)
            continue
        for p, part in enumerate(message.parts):
            if isinstance(part, ToolReturnPart):
                view.append({"role": "tool", "tool_call_id": part.tool_call_id, "content": part.model_response_str()})
                places.append((m, p))
            elif isinstance(part, UserPromptPart):
                view.append({"role": "user", "content": str(part.content)})
                places.append(None)
            else:
                view.append({"role": "system", "content": str(getattr(part, "content", ""))})
                places.append(None)
    return view, places


def _with_cleared(message: ModelMessage, m: int, cleared: dict[Any, Any]) -> ModelMessage:
    if not isinstance(message, ModelRequest) or not any(key[0] == m for key in cleared):
        return message
    parts = [
        dataclasses.replace(part, content=cleared[(m, p)]) if (m, p) in cleared else part
        for p, part in enumerate(message.parts)
    ]
    return dataclasses.replace(message, parts=parts)


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
