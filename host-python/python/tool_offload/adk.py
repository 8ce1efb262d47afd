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
from typing import Any, List, Optional, Sequence, Tuple

from google.adk.agents.callback_context import CallbackContext
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

from ._materializer import CountTokens, Materializer

__all__ = ["MaterializePlugin", "BudgetPlugin", "context_tools"]

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


class BudgetPlugin(BasePlugin):
    """Before each model request, past ``trigger_tokens``, old function responses become
    one-line pointers to their artifacts (:meth:`Materializer.budget`: oldest first, the
    last ``keep_last`` and those of ``exclude_tools`` kept). ADK rebuilds each request from
    the session, so the plugin keeps its decisions: a response cleared once is sent the same
    way on every later request, and only new ones are considered."""

    def __init__(
        self,
        materializer: Materializer,
        *,
        trigger_tokens: int,
        keep_last: Optional[int] = None,
        clear_at_least_tokens: Optional[int] = None,
        exclude_tools: Optional[Sequence[str]] = None,
        count_tokens: Optional[CountTokens] = None,
        name: str = "tool_offload_budget",
    ) -> None:
        super().__init__(name=name)
        self.materializer = materializer
        self.options: dict[str, Any] = {
            "trigger_tokens": trigger_tokens,
            "keep_last": keep_last,
            "clear_at_least_tokens": clear_at_least_tokens,
            "exclude_tools": exclude_tools,
            "count_tokens": count_tokens,
        }
        self.cleared: dict[str, str] = {}
        """The pointer sent for each function call id cleared so far."""

    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> Optional[LlmResponse]:
        contents = llm_request.contents
        for content in contents:
            for part in content.parts or []:
                response = part.function_response
                if response is not None and response.id in self.cleared:
                    response.response = {"result": self.cleared[str(response.id)]}
        view, places = _openai(contents)
        done = await self.materializer.budget(view, **self.options)
        for i, after in enumerate(done.messages[: len(view)]):
            place = places[i]
            if after is view[i] or place is None:
                continue
            c, p = place
            response = (contents[c].parts or [])[p].function_response
            assert response is not None
            response.response = {"result": after["content"]}
            self.cleared[str(response.id)] = after["content"]
        return None


def _openai(contents: List[types.Content]) -> Tuple[List[dict[str, Any]], List[Optional[Tuple[int, int]]]]:
    """The request's contents as OpenAI Chat messages for the budget (tool names from the
    function calls), and where each function response lives (content, part)."""
    view: List[dict[str, Any]] = []
    places: List[Optional[Tuple[int, int]]] = []
    for c, content in enumerate(contents):
        parts = content.parts or []
        if content.role == "model":
            calls = [
                {"id": p.function_call.id, "type": "function", "function": {"name": p.function_call.name, "arguments": "{}"}}
                for p in parts
                if p.function_call is not None
            ]
            text = "".join(p.text or "" for p in parts)
            view.append({"role": "assistant", "content": text, **({"tool_calls": calls} if calls else {})})
            places.append(None)
            continue
        for i, part in enumerate(parts):
            response = part.function_response
            if response is not None:
                value = response.response or {}
                shown = value["result"] if set(value) == {"result"} and isinstance(value["result"], str) else json.dumps(value)
                view.append({"role": "tool", "tool_call_id": response.id, "content": shown})
                places.append((c, i))
            else:
                view.append({"role": "user", "content": part.text or ""})
                places.append(None)
    return view, places


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
