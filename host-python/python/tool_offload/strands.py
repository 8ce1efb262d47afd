"""tool-offload for Strands Agents (``pip install tool-offload[strands]``): two plugins.

- :class:`MaterializePlugin` (``AfterToolCallEvent``): each tool result over the
  materializer's limits is written to an artifact (named after the ``toolUseId``) and the
  ``toolResult`` the model and ``agent.messages`` get holds the summary, as one text
  block; its tools are ``context_read``, ``context_tail``, ``context_grep`` (a refused
  call is an ``error`` tool result the model reads).
- :class:`BudgetPlugin` (``BeforeModelCallEvent``): ``Materializer.budget`` on
  ``agent.messages`` before each model call; the results it clears are rewritten in
  ``agent.messages`` itself, so they stay cleared on every later call.

Example::

    from strands import Agent
    from tool_offload import Materializer
    from tool_offload.strands import BudgetPlugin, MaterializePlugin

    materializer = Materializer(".agent", "conv-1")
    agent = Agent(tools=[bash], plugins=[
        MaterializePlugin(materializer), BudgetPlugin(materializer, trigger_tokens=100_000),
    ])

Unlike Strands' own ``ContextOffloader``, what the model reads back is paged by line with
numbers, searched with ``context_grep`` and scoped to the conversation.
"""

from __future__ import annotations

import json
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, cast

try:
    from strands.hooks import AfterToolCallEvent, BeforeModelCallEvent
    from strands.plugins import Plugin, hook
    from strands.tools.tools import PythonAgentTool
    from strands.types.content import Message
    from strands.types.tools import ToolResult, ToolUse
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError("tool_offload.strands needs Strands Agents: pip install 'tool-offload[strands]'") from e

from . import Materializer
from ._adapter import ReadBack, read_tool_names
from ._handle import CountTokens

__all__ = ["MaterializePlugin", "BudgetPlugin", "context_tools"]


def context_tools(materializer: Materializer) -> List[PythonAgentTool]:
    """``context_read``, ``context_tail`` and ``context_grep`` over ``materializer``'s
    artifacts as Strands tools (definitions, argument checks and pages from the
    extension)."""
    read_back = ReadBack(materializer)
    return [_tool(read_back, d) for d in read_back.definitions]


def _tool(read_back: ReadBack, definition: Mapping[str, Any]) -> PythonAgentTool:
    name = str(definition["name"])

    async def run(tool_use: ToolUse, **_: Any) -> ToolResult:
        result = await read_back.run(name, tool_use.get("input"))
        return {
            "toolUseId": tool_use["toolUseId"],
            "status": "error" if result.is_error else "success",
            "content": [{"text": result.content}],
        }

    spec = {
        "name": name,
        "description": str(definition.get("description", "")),
        "inputSchema": {"json": dict(definition["input_schema"])},
    }
    return PythonAgentTool(name, spec, run)  # type: ignore[arg-type]


class MaterializePlugin(Plugin):
    """Materializes tool results over the materializer's limits and gives the agent the
    read-back tools (``read_tools=False`` leaves them out).

    A result of text blocks is stored as their text, of one JSON block as that JSON, of
    text and JSON blocks mixed as the list of blocks; a result holding an image or a
    document, a cancelled or failed call and the read-back tools' own pages pass
    unchanged."""

    name = "tool-offload-materialize"

    def __init__(self, materializer: Materializer, *, read_tools: bool = True) -> None:
        super().__init__()
        self.materializer = materializer
        self._read_names: FrozenSet[str] = read_tool_names(materializer)
        if read_tools:
            self._tools = [*self._tools, *context_tools(materializer)]  # type: ignore[list-item]

    @hook  # type: ignore[call-overload]  # (strands types hooks as functions, not methods)
    async def materialize_result(self, event: AfterToolCallEvent) -> None:
        """Materialize the result of the tool call that just finished."""
        if (
            event.cancel_message is not None
            or event.exception is not None
            or event.tool_use.get("name") in self._read_names
        ):
            return
        result = event.result
        output = _output(result.get("content"))
        if output is None:
            return
        done = await self.materializer.materialize(
            tool_name=str(event.tool_use.get("name") or "tool"),
            tool_call_id=event.tool_use["toolUseId"],
            output=output,
        )
        if not done.inline:
            event.result = {
                "toolUseId": result["toolUseId"],
                "status": result["status"],
                "content": [{"text": done.content}],
            }


class BudgetPlugin(Plugin):
    """Before each model call, past ``trigger_tokens``, old tool results in the agent's
    conversation become one-line pointers to their artifacts (:meth:`Materializer.budget`:
    oldest first, the last ``keep_last`` and those of ``exclude_tools`` kept). The
    conversation itself is rewritten, so the decisions are kept: later calls and
    invocations neither send nor reconsider them. A result holding an image or a document
    is counted but never cleared (a pointer to its text would lose them). Use it beside
    :class:`MaterializePlugin` (the read tools)."""

    name = "tool-offload-budget"

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
        super().__init__()
        self.materializer = materializer
        self.options: Dict[str, Any] = {
            "trigger_tokens": trigger_tokens,
            "keep_last": keep_last,
            "clear_at_least_tokens": clear_at_least_tokens,
            "exclude_tools": exclude_tools,
            "count_tokens": count_tokens,
        }

    @hook  # type: ignore[call-overload]  # (strands types hooks as functions, not methods)
    async def clear_old_results(self, event: BeforeModelCallEvent) -> None:
        """Clear old tool results in the conversation, in place."""
        messages = event.agent.messages
        projected = [_projected(m) for m in messages]
        done = await self.materializer.budget(projected, **self.options)
        for i, (before, after) in enumerate(zip(projected, done.messages)):
            if after is not before:
                # In place: what the agent sends, and starts from next time.
                messages[i] = cast(Message, _rewritten(messages[i], before, after))


# The budget reads agent.messages as Anthropic-style messages, one content block per
# Strands block, so a changed ``tool_result`` block names the ``toolResult`` it stands for.


def _projected(message: Mapping[str, Any]) -> Dict[str, Any]:
    return {"role": message.get("role"), "content": [_block(b) for b in message.get("content") or ()]}


def _block(block: Mapping[str, Any]) -> Dict[str, Any]:
    if "toolResult" in block:
        result = block["toolResult"]
        if not _clearable(result):
            # Images or documents: counted, never cleared (a pointer to its text would lose them).
            return {"type": "text", "text": _text(result.get("content"))}
        return {"type": "tool_result", "tool_use_id": result.get("toolUseId"), "content": _text(result.get("content"))}
    if "toolUse" in block:
        use = block["toolUse"]
        return {"type": "tool_use", "id": use.get("toolUseId"), "name": use.get("name"), "input": use.get("input")}
    return {"type": "text", "text": block.get("text") if isinstance(block.get("text"), str) else ""}


def _clearable(result: Mapping[str, Any]) -> bool:
    return all(set(c) <= {"text", "json"} for c in result.get("content") or ())


def _text(content: Any) -> str:
    """A toolResult's text and JSON blocks as one text (what its artifact holds if cleared)."""
    parts = []
    for b in content or ():
        if "text" in b:
            parts.append(str(b["text"]))
        elif "json" in b:
            parts.append(json.dumps(b["json"], ensure_ascii=False))
    return "\n".join(parts)


def _rewritten(message: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any]) -> Dict[str, Any]:
    blocks = list(message.get("content") or ())
    for i, (old, new) in enumerate(zip(before["content"], after.get("content") or ())):
        if old.get("type") == "tool_result" and isinstance(new, dict) and new.get("content") != old.get("content"):
            result = blocks[i]["toolResult"]
            blocks[i] = {
                "toolResult": {
                    "toolUseId": result["toolUseId"],
                    "status": result["status"],
                    "content": [{"text": new["content"]}],
                }
            }
    return {**message, "content": blocks}


def _output(content: Any) -> Optional[Any]:
    """What of a ``toolResult``'s content is stored, or ``None`` to leave it alone."""
    if not isinstance(content, list) or not content:
        return None
    if any(not isinstance(b, Mapping) or not (set(b) <= {"text", "json"}) or len(b) != 1 for b in content):
        return None  # images, documents, unknown blocks: as they are
    if len(content) == 1:
        block = content[0]
        return block["text"] if "text" in block else block["json"]
    if all("text" in b for b in content):
        # Text blocks as the typed blocks core stores as their text.
        return [{"type": "text", "text": b["text"]} for b in content]
    return [dict(b) for b in content]
