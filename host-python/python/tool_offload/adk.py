"""tool-offload for Google ADK (``pip install tool-offload[adk]``).

- :class:`ToolOffloadPlugin`: a runner plugin whose ``after_tool_callback`` writes each
  tool result over the materializer's limits to an artifact (named after the function
  call's id) and answers the call with ``{"result": <summary>}``.
- :func:`context_tools`: ``context_read``, ``context_tail``, ``context_grep`` as ADK
  tools, to give the agent (plugins cannot add tools); a refused call answers
  ``{"error": …}``.

Example::

    from google.adk.agents import LlmAgent
    from google.adk.apps import App
    from google.adk.runners import InMemoryRunner
    from tool_offload import Materializer
    from tool_offload.adk import ToolOffloadPlugin, context_tools

    materializer = Materializer(".agent", "session-1")
    agent = LlmAgent(name="builder", model="gemini-2.5-flash", tools=[bash, *context_tools(materializer)])
    app = App(name="builder", root_agent=agent, plugins=[ToolOffloadPlugin(materializer)])
    runner = InMemoryRunner(app=app)
"""

from __future__ import annotations

import json
from typing import Any, Dict, FrozenSet, List, Mapping, Optional

try:
    from google.adk.plugins.base_plugin import BasePlugin
    from google.adk.tools.base_tool import BaseTool
    from google.adk.tools.tool_context import ToolContext
    from google.genai import types
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError("tool_offload.adk needs Google ADK: pip install 'tool-offload[adk]'") from e

from . import Materializer
from ._read_back import ReadBack, read_tool_names

__all__ = ["ToolOffloadPlugin", "context_tools", "ContextTool"]


class ContextTool(BaseTool):
    """One read-back tool over a materializer's artifacts."""

    def __init__(self, read_back: ReadBack, definition: Mapping[str, Any]) -> None:
        super().__init__(name=str(definition["name"]), description=str(definition.get("description", "")))
        self._read_back = read_back
        self._schema: Dict[str, Any] = dict(definition["input_schema"])

    def _get_declaration(self) -> Optional[types.FunctionDeclaration]:
        return types.FunctionDeclaration(
            name=self.name, description=self.description, parameters_json_schema=self._schema
        )

    async def run_async(self, *, args: Dict[str, Any], tool_context: ToolContext) -> Any:
        result = await self._read_back.run(self.name, args)
        return {"error": result.content} if result.is_error else {"result": result.content}


def context_tools(materializer: Materializer) -> List[ContextTool]:
    """``context_read``, ``context_tail`` and ``context_grep`` over ``materializer``'s
    artifacts (definitions, argument checks and pages from the extension)."""
    read_back = ReadBack(materializer)
    return [ContextTool(read_back, d) for d in read_back.definitions]


class ToolOffloadPlugin(BasePlugin):
    """Materializes tool results over the materializer's limits, for every agent of the
    runner. A ``str`` result is stored as it is, any other JSON value (a dict the tool
    returned, say) as its JSON; results holding media (parts, blobs) and the read-back
    tools' own pages pass unchanged."""

    def __init__(self, materializer: Materializer, name: str = "tool_offload") -> None:
        super().__init__(name=name)
        self.materializer = materializer
        self._read_names: FrozenSet[str] = read_tool_names(materializer)

    async def after_tool_callback(
        self, *, tool: BaseTool, tool_args: Dict[str, Any], tool_context: ToolContext, result: Any
    ) -> Optional[Dict[str, Any]]:
        call_id = tool_context.function_call_id
        if tool.name in self._read_names or call_id is None or not _plain_json(result):
            return None
        done = await self.materializer.materialize(tool_name=tool.name, tool_call_id=call_id, output=result)
        return None if done.inline else {"result": done.content}


def _plain_json(value: Any) -> bool:
    """Whether ``value`` is JSON as it is (no media parts, no objects ADK converts)."""
    if value is None:
        return False
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True
