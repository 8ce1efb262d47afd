"""tool-offload for the OpenAI Agents SDK (``pip install tool-offload[openai-agents]``).

- :func:`materialize_tools`: function tools whose outputs over the materializer's limits
  reach the model (and the run's history) as the summary; the artifact holds the output.
- :func:`context_tools`: ``context_read``, ``context_tail``, ``context_grep`` as function
  tools.
- :class:`BudgetFilter`: a ``RunConfig.call_model_input_filter`` running
  ``Materializer.budget`` before each model call, its decisions kept across the run's
  turns (the SDK hands every filter call the history as the tools produced it).

Example::

    from agents import Agent, RunConfig, Runner
    from tool_offload import Materializer
    from tool_offload.openai_agents import BudgetFilter, context_tools, materialize_tools

    materializer = Materializer(".agent", "conv-1")
    agent = Agent(name="builder", tools=[*materialize_tools([bash], materializer), *context_tools(materializer)])
    config = RunConfig(call_model_input_filter=BudgetFilter(materializer, trigger_tokens=100_000))
    await Runner.run(agent, "Why does the build fail?", run_config=config)
"""

from __future__ import annotations

import copy
import json
from typing import Any, Dict, List, Mapping, MutableMapping, Optional, Sequence, TypeVar, cast

try:
    from agents import FunctionTool
    from agents.items import ItemHelpers
    from agents.run_config import CallModelData, ModelInputData
    from agents.tool_context import ToolContext
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError(
        "tool_offload.openai_agents needs the OpenAI Agents SDK: pip install 'tool-offload[openai-agents]'"
    ) from e

from . import Materializer
from ._adapter import ReadBack, read_tool_names
from ._handle import CountTokens

__all__ = ["materialize_tools", "context_tools", "BudgetFilter"]

T = TypeVar("T")


def materialize_tools(tools: Sequence[T], materializer: Materializer) -> List[T]:
    """``tools``, each function tool's output materialized when over the limits: the
    model gets the summary, the artifact (named after the call's id) the output. The
    read-back tools, tools with a declared output schema (a summary would not match it),
    hosted and other non-function tools are returned as they are."""
    skip = read_tool_names(materializer)
    return [
        cast(T, _materializing(t, materializer))
        if isinstance(t, FunctionTool) and t.name not in skip and not _typed(t)
        else t
        for t in tools
    ]


def _typed(tool: FunctionTool) -> bool:
    return tool.output_json_schema is not None or getattr(tool, "_output_type_adapter", None) is not None


def _materializing(tool: FunctionTool, materializer: Materializer) -> FunctionTool:
    invoke = tool.on_invoke_tool

    async def on_invoke_tool(ctx: ToolContext[Any], arguments: str) -> Any:
        output = await invoke(ctx, arguments)
        if not isinstance(output, str):
            # Structured outputs (text/image/file parts) go to the model as they are;
            # other values the SDK would send as their str(): keep that text.
            if output is None or ItemHelpers._convert_tool_output_as_structured(output) is not None:
                return output
            text: Any = _json_or_text(output)
        else:
            text = output
        done = await materializer.materialize(
            tool_name=ctx.tool_name or tool.name, tool_call_id=ctx.tool_call_id, output=text
        )
        return output if done.inline else done.content

    wrapped = copy.copy(tool)
    wrapped.on_invoke_tool = on_invoke_tool
    return wrapped


def _json_or_text(output: Any) -> Any:
    """A dict or list that is JSON as itself (its artifact then is JSON); else its str()."""
    if isinstance(output, (dict, list)):
        try:
            json.dumps(output, allow_nan=False)
            return output
        except (TypeError, ValueError):
            pass
    return str(output)


def context_tools(materializer: Materializer) -> List[FunctionTool]:
    """``context_read``, ``context_tail`` and ``context_grep`` over ``materializer``'s
    artifacts as function tools (not strict: their inputs have optional fields). A
    refused call reaches the model as its error text."""
    read_back = ReadBack(materializer)
    return [_tool(read_back, d) for d in read_back.definitions]


def _tool(read_back: ReadBack, definition: Mapping[str, Any]) -> FunctionTool:
    name = str(definition["name"])

    async def on_invoke_tool(ctx: ToolContext[Any], arguments: str) -> str:
        try:
            input = json.loads(arguments) if arguments else {}
        except ValueError:
            input = arguments  # core refuses it, as an error result the model reads
        return (await read_back.run(name, input)).content

    return FunctionTool(
        name=name,
        description=str(definition.get("description", "")),
        params_json_schema=dict(definition["input_schema"]),
        on_invoke_tool=on_invoke_tool,
        strict_json_schema=False,
    )


class BudgetFilter:
    """A ``RunConfig(call_model_input_filter=…)``: past ``trigger_tokens``, old
    ``function_call_output`` items become one-line pointers to their artifacts
    (:meth:`Materializer.budget`: oldest first, the last ``keep_last`` and those of
    ``exclude_tools`` kept; ``count_tokens`` counts, else the materializer's). The SDK
    keeps its own history and hands every call the outputs as the tools produced them, so
    the filter keeps its decisions: ``cleared`` maps each call id cleared to the output
    sent for it, handed back on every later call — the same bytes, never reconsidered, the
    prompt cache rewritten only where the budget clears more.

    One filter per conversation (as its materializer). ``cleared`` is a dict by default;
    give a mapping persisted beside the conversation's ``Session`` (it holds strings) and a
    conversation resumed in another process sends the same bytes."""

    def __init__(
        self,
        materializer: Materializer,
        *,
        trigger_tokens: int,
        keep_last: Optional[int] = None,
        clear_at_least_tokens: Optional[int] = None,
        exclude_tools: Optional[Sequence[str]] = None,
        count_tokens: Optional[CountTokens] = None,
        cleared: Optional[MutableMapping[str, Any]] = None,
    ) -> None:
        self.materializer = materializer
        self.options: Dict[str, Any] = {
            "trigger_tokens": trigger_tokens,
            "keep_last": keep_last,
            "clear_at_least_tokens": clear_at_least_tokens,
            "exclude_tools": exclude_tools,
            "count_tokens": count_tokens,
        }
        self.cleared: MutableMapping[str, Any] = {} if cleared is None else cleared
        """The output sent for each call id cleared so far."""

    def _as_decided(self, item: Dict[str, Any]) -> Dict[str, Any]:
        call_id = _output_id(item)
        if call_id is not None and call_id in self.cleared:
            return {**item, "output": self.cleared[call_id]}
        return item

    async def __call__(self, data: CallModelData[Any]) -> ModelInputData:
        items = [self._as_decided(_item(i)) for i in data.model_data.input]
        done = await self.materializer.budget(items, **self.options)
        for before, after in zip(items, done.messages):
            call_id = _output_id(after)
            if after is not before and call_id is not None:
                self.cleared[call_id] = after.get("output")
        return ModelInputData(input=list(done.messages), instructions=data.model_data.instructions)


def _item(item: Any) -> Dict[str, Any]:
    """An input item as the dict core reads (the SDK may hand over pydantic items)."""
    if isinstance(item, dict):
        return item
    dumped: Dict[str, Any] = item.model_dump(exclude_none=True)
    return dumped


def _output_id(item: Any) -> Optional[str]:
    """A tool output item's call id (``function_call_output``), else ``None``."""
    if isinstance(item, Mapping) and item.get("type") == "function_call_output":
        call_id = item.get("call_id")
        return call_id if isinstance(call_id, str) else None
    return None
