"""tool_offload for Google's Agent Development Kit (``google-adk``, an optional
dependency): a plugin that materializes tool results over a
:class:`~tool_offload.Materializer`'s limits (``after_tool_callback``), and the read-back
tools (``context_read``, ``context_tail``, ``context_grep``) as ADK tools::

    from google.adk.agents import LlmAgent
    from google.adk.apps import App
    from google.adk.runners import InMemoryRunner
    from tool_offload import Materializer
    from tool_offload.adk import MaterializePlugin, context_tools

    materializer = Materializer(".agent", "thread-1")
    agent = LlmAgent(name="builder", model=model, tools=[bash, *context_tools(materializer)])
    app = App(name="builder", root_agent=agent, plugins=[MaterializePlugin(materializer)])
    runner = InMemoryRunner(app=app)"""

from __future__ import annotations

import json
from typing import Any, List, Optional

from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

from ._materializer import Materializer

__all__ = ["MaterializePlugin", "context_tools"]

READ_TOOLS = ("context_read", "context_tail", "context_grep")


class MaterializePlugin(BasePlugin):
    """Every tool result over the materializer's limits is written to an artifact named
    after the function call's id, and the model gets ``{"result": summary}`` instead. A
    function's return value is stored as it is (a str as its text, other JSON as JSON,
    anything else as ``str()``); a result ``{"result": value}`` as ``value``."""

    def __init__(self, materializer: Materializer, name: str = "tool_offload_materialize") -> None:
        super().__init__(name=name)
        self.materializer = materializer

    async def after_tool_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext, result: dict[str, Any]
    ) -> Optional[dict[str, Any]]:
        if tool.name in READ_TOOLS:
            return None
        output: Any = result
        if isinstance(result, dict) and set(result) == {"result"}:
            output = result["result"]
        try:
            json.dumps(output, allow_nan=False)
        except (TypeError, ValueError):
            output = str(output)
        call_id = tool_context.function_call_id or f"{tool.name}-call"
        done = await self.materializer.materialize(tool_name=tool.name, tool_call_id=call_id, output=output)
        return None if done.inline else {"result": done.content}


class _ReadTool(BaseTool):
    """One read-back tool, its declaration from core's definition."""

    def __init__(self, materializer: Materializer, definition: dict[str, Any]) -> None:
        super().__init__(name=str(definition["name"]), description=str(definition["description"]))
        self.materializer = materializer
        self.schema = definition["input_schema"]

    def _get_declaration(self) -> types.FunctionDeclaration:
        return types.FunctionDeclaration(
            name=self.name, description=self.description, parameters_json_schema=self.schema
        )

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        r = await self.materializer.handle_tool_call(self.name, args)
        return {"result": r.content} if not r.is_error else {"error": r.content}


def context_tools(materializer: Materializer) -> List[BaseTool]:
    """``context_read``, ``context_tail`` and ``context_grep`` as ADK tools over the
    materializer's artifacts; a refused call gives ``{"error": message}`` for the model."""
    return [_ReadTool(materializer, d) for d in materializer.tool_definitions("anthropic")]
