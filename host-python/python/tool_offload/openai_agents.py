"""tool_offload for the OpenAI Agents SDK (``openai-agents``, an optional dependency):
function tools whose large outputs are materialized before the model sees them, the
read-back tools (``context_read``, ``context_tail``, ``context_grep``) as function tools,
and a ``call_model_input_filter`` that keeps the history within a token budget. The npm
package's ``tool-offload/openai-agents``, in Python::

    from agents import Agent, RunConfig, Runner
    from tool_offload import Materializer
    from tool_offload.openai_agents import BudgetFilter, context_tools, materialize_tools

    materializer = Materializer(".agent", "thread-1")
    agent = Agent(name="builder", tools=[*materialize_tools([bash], materializer), *context_tools(materializer)])
    config = RunConfig(call_model_input_filter=BudgetFilter(materializer, trigger_tokens=100_000))
    result = await Runner.run(agent, "Why does the build fail?", run_config=config)"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, List, Optional, Sequence

from agents import FunctionTool, Tool
from agents.run_config import CallModelData, ModelInputData
from agents.tool_context import ToolContext

from ._materializer import CountTokens, Materializer

__all__ = ["materialize_tools", "context_tools", "BudgetFilter"]


def _jsonable(value: Any) -> Any:
    """A tool's output as ``materialize`` takes it: itself when it is JSON, else ``str()``
    of it (what the SDK sends the model)."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return str(value)
    return value


def materialize_tools(tools: Sequence[Tool], materializer: Materializer) -> List[Tool]:
    """``tools`` with every function tool's output over the materializer's limits written
    to an artifact (named after the tool call's id) and the model given its summary; other
    tools as they are."""
    return [_materialized(t, materializer) if isinstance(t, FunctionTool) else t for t in tools]


def _materialized(original: FunctionTool, materializer: Materializer) -> FunctionTool:
    invoke = original.on_invoke_tool

    async def on_invoke_tool(context: ToolContext[Any], arguments: str) -> Any:
        output = await invoke(context, arguments)
        done = await materializer.materialize(
            tool_name=original.name, tool_call_id=context.tool_call_id, output=_jsonable(output)
        )
        return output if done.inline else done.content

    return dataclasses.replace(original, on_invoke_tool=on_invoke_tool)


def context_tools(materializer: Materializer) -> List[FunctionTool]:
    """``context_read``, ``context_tail`` and ``context_grep`` as function tools over the
    materializer's artifacts (non-strict schemas: optional fields stay optional). A refused
    call (another conversation's ref, a bad pattern) is a message the model can read."""
    tools = []
    for definition in materializer.tool_definitions("anthropic"):
        name = str(definition["name"])

        async def on_invoke_tool(context: ToolContext[Any], arguments: str, _name: str = name) -> str:
            try:
                params = json.loads(arguments) if arguments else {}
            except ValueError as e:
                return f"invalid arguments: {e}"
            return (await materializer.handle_tool_call(_name, params)).content

        tools.append(
            FunctionTool(
                name=name,
                description=str(definition["description"]),
                params_json_schema={**definition["input_schema"], "additionalProperties": True},
                on_invoke_tool=on_invoke_tool,
                strict_json_schema=False,
            )
        )
    return tools


class BudgetFilter:
    """A ``RunConfig(call_model_input_filter=…)``: past ``trigger_tokens``, old
    ``function_call_output`` items become one-line pointers to their artifacts
    (:meth:`Materializer.budget`). The SDK keeps its own history, so the filter keeps its
    decisions: a result cleared once is sent cleared on every later call, identically,
    and only new results are considered."""

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
        self.materializer = materializer
        self.options: dict[str, Any] = {
            "trigger_tokens": trigger_tokens,
            "keep_last": keep_last,
            "clear_at_least_tokens": clear_at_least_tokens,
            "exclude_tools": exclude_tools,
            "count_tokens": count_tokens,
        }
        self.cleared: dict[str, Any] = {}
        """The output sent for each call id cleared so far."""

    async def __call__(self, data: CallModelData[Any]) -> ModelInputData:
        items = [self._as_decided(_item(i)) for i in data.model_data.input]
        done = await self.materializer.budget(items, **self.options)
        for before, after in zip(items, done.messages):
            if after is not before and after.get("type") == "function_call_output":
                self.cleared[str(after.get("call_id"))] = after.get("output")
        return ModelInputData(input=done.messages, instructions=data.model_data.instructions)

    def _as_decided(self, item: dict[str, Any]) -> dict[str, Any]:
        call = item.get("call_id")
        if item.get("type") == "function_call_output" and call in self.cleared:
            return {**item, "output": self.cleared[call]}
        return item


def _item(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    dumped: dict[str, Any] = item.model_dump(exclude_none=True)
    return dumped
