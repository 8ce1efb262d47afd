"""tool-offload for Google ADK (``pip install tool-offload[adk]``): two runner plugins.

- :class:`MaterializePlugin` (``after_tool_callback``): each tool result over the
  materializer's limits is written to an artifact (named after the function call's id)
  and the call is answered with ``{"result": <summary>}``.
- :class:`BudgetPlugin` (``before_model_callback``): ``Materializer.budget`` on the
  request's contents; what it clears is kept in the session state (``STATE_KEY``: call id
  → pointer) and handed back on every later request.
- :func:`context_tools`: ``context_read``, ``context_tail``, ``context_grep`` as ADK
  tools, to give the agent (plugins cannot add tools); a refused call answers
  ``{"error": …}``.

Example::

    from google.adk.agents import LlmAgent
    from google.adk.apps import App
    from google.adk.runners import InMemoryRunner
    from tool_offload import Materializer
    from tool_offload.adk import BudgetPlugin, MaterializePlugin, context_tools

    materializer = Materializer(".agent", "session-1")
    agent = LlmAgent(name="builder", model="gemini-2.5-flash", tools=[bash, *context_tools(materializer)])
    plugins = [MaterializePlugin(materializer), BudgetPlugin(materializer, trigger_tokens=100_000)]
    runner = InMemoryRunner(app=App(name="builder", root_agent=agent, plugins=plugins))
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence

try:
    from google.adk.agents.callback_context import CallbackContext
    from google.adk.models.llm_request import LlmRequest
    from google.adk.models.llm_response import LlmResponse
    from google.adk.plugins.base_plugin import BasePlugin
    from google.adk.tools.base_tool import BaseTool
    from google.adk.tools.tool_context import ToolContext
    from google.genai import types
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError("tool_offload.adk needs Google ADK: pip install 'tool-offload[adk]'") from e

from . import Materializer
from ._adapter import ReadBack, read_tool_names
from ._handle import CountTokens

__all__ = ["MaterializePlugin", "BudgetPlugin", "context_tools", "ContextTool", "STATE_KEY"]

STATE_KEY = "tool_offload_cleared"
"""The session-state key where the budget keeps what it cleared: call id → pointer."""


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


class MaterializePlugin(BasePlugin):
    """Materializes tool results over the materializer's limits, for every agent of the
    app. A ``str`` result (or ``{"result": value}``'s value) is stored as it is, any other
    JSON value (a dict the tool returned, say) as its JSON; results holding media (parts,
    blobs), calls without an id and the read-back tools' own pages pass unchanged."""

    def __init__(self, materializer: Materializer, name: str = "tool_offload_materialize") -> None:
        super().__init__(name=name)
        self.materializer = materializer
        self._read_names: FrozenSet[str] = read_tool_names(materializer)

    async def after_tool_callback(
        self, *, tool: BaseTool, tool_args: Dict[str, Any], tool_context: ToolContext, result: Any
    ) -> Optional[Dict[str, Any]]:
        call_id = tool_context.function_call_id
        if tool.name in self._read_names or call_id is None or not _plain_json(result):
            return None
        # ``{"result": value}`` (ADK's own wrapping of a plain value) is stored as the value.
        output = result["result"] if isinstance(result, dict) and set(result) == {"result"} else result
        done = await self.materializer.materialize(tool_name=tool.name, tool_call_id=call_id, output=output)
        return None if done.inline else {"result": done.content}


class BudgetPlugin(BasePlugin):
    """Before each model call, past ``trigger_tokens``, old function responses become
    one-line pointers to their artifacts (:meth:`Materializer.budget`: oldest first, the
    last ``keep_last`` and those of ``exclude_tools`` kept). ADK rebuilds every request
    from the session's events, so the decisions live in the session state (``STATE_KEY``:
    call id → pointer, persisted with the session) and every later request and invocation
    gets the same pointers. Use it beside :class:`MaterializePlugin` and the read tools."""

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
        self.options: Dict[str, Any] = {
            "trigger_tokens": trigger_tokens,
            "keep_last": keep_last,
            "clear_at_least_tokens": clear_at_least_tokens,
            "exclude_tools": exclude_tools,
            "count_tokens": count_tokens,
        }
        self.cleared: Dict[str, str] = {}
        """The pointer sent for each response this plugin cleared, in any session (what a
        session keeps and hands back is its own state's ``STATE_KEY``)."""

    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> Optional[LlmResponse]:
        kept: Dict[str, str] = dict(callback_context.state.get(STATE_KEY) or {})
        contents = [_recalled(c, kept) for c in llm_request.contents]
        projected = [_projected(c) for c in contents]
        done = await self.materializer.budget(projected, **self.options)
        cleared: Dict[str, str] = {}
        for i, (before, after) in enumerate(zip(projected, done.messages)):
            if after is not before:
                contents[i] = _rewritten(contents[i], before, after, cleared)
        llm_request.contents = contents
        if cleared:
            callback_context.state[STATE_KEY] = {**kept, **cleared}
            self.cleared.update(cleared)
        return None


# The budget reads the contents as Anthropic-style messages, one content block per part,
# so a changed ``tool_result`` block names the function response it stands for.


def _projected(content: types.Content) -> Dict[str, Any]:
    parts = list(content.parts or ())
    blocks = [_block(p) for p in parts]
    # Each response's tool name, as a call after the part blocks (their indexes stay the
    # parts'): for Gemini, ADK strips its own `adk-` call ids from the request, so the
    # calls of the model's turn name no id a response could be paired with.
    for p in parts:
        if p.function_response is not None:
            r = p.function_response
            blocks.append({"type": "tool_use", "id": _response_id(r), "name": r.name or "tool", "input": {}})
    return {"role": "assistant" if content.role == "model" else "user", "content": blocks}


def _block(part: types.Part) -> Dict[str, Any]:
    if part.function_response is not None:
        r = part.function_response
        return {"type": "tool_result", "tool_use_id": _response_id(r), "content": _response_text(r.response)}
    if part.function_call is not None and part.function_call.id:
        c = part.function_call
        return {"type": "tool_use", "id": c.id, "name": c.name, "input": c.args or {}}
    return {"type": "text", "text": part.text or ""}


def _response_id(response: types.FunctionResponse) -> str:
    """A function response's id; one without (stripped from a Gemini request) is named
    after its tool and content, the same on every request."""
    if response.id:
        return response.id
    key = json.dumps([response.name, response.response], sort_keys=True, ensure_ascii=False, default=str)
    return "fr-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]


def _response_text(response: Any) -> str:
    """A function response as the budget reads it: ``{"result": <str>}`` (ADK's wrapping of
    a tool's non-dict result, and of a pointer) as that str, so a pointer is known as one;
    any other response as its JSON."""
    if isinstance(response, dict) and len(response) == 1 and isinstance(response.get("result"), str):
        return str(response["result"])
    return json.dumps(response, ensure_ascii=False, default=str)


def _pointer(response: types.FunctionResponse, pointer: str) -> types.Part:
    return types.Part(
        function_response=types.FunctionResponse(id=response.id, name=response.name, response={"result": pointer})
    )


def _recalled(content: types.Content, kept: Mapping[str, str]) -> types.Content:
    """``content`` with the function responses cleared before as their pointers."""
    parts = list(content.parts or ())
    changed = False
    for i, part in enumerate(parts):
        r = part.function_response
        if r is not None and _response_id(r) in kept:
            parts[i], changed = _pointer(r, kept[_response_id(r)]), True
    return content.model_copy(update={"parts": parts}) if changed else content


def _rewritten(
    content: types.Content, before: Mapping[str, Any], after: Mapping[str, Any], cleared: Dict[str, str]
) -> types.Content:
    parts = list(content.parts or ())
    for i, (old, new) in enumerate(zip(before["content"], after.get("content") or ())):
        if i >= len(parts):
            break  # the tool names appended after the parts
        r = parts[i].function_response
        if r is None or not isinstance(new, dict) or new.get("content") == old.get("content"):
            continue
        cleared[_response_id(r)] = str(new["content"])
        parts[i] = _pointer(r, cleared[_response_id(r)])
    return content.model_copy(update={"parts": parts})


def _plain_json(value: Any) -> bool:
    """Whether ``value`` is JSON as it is (no media parts, no objects ADK converts)."""
    if value is None:
        return False
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True
