"""tool_offload for Strands Agents (``strands-agents``, an optional dependency): a plugin
that materializes tool results over a :class:`~tool_offload.Materializer`'s limits on
``AfterToolCallEvent`` and gives the agent the read-back tools (``context_read``,
``context_tail``, ``context_grep``)::

    from strands import Agent
    from tool_offload import Materializer
    from tool_offload.strands import MaterializePlugin

    agent = Agent(model=model, tools=[bash], plugins=[MaterializePlugin(Materializer(".agent", "thread-1"))])

Unlike Strands' own ``ContextOffloader``, what the model reads back is paged by line with
numbers, searched with ``context_grep`` and scoped to the conversation."""

from __future__ import annotations

import json
from typing import Any, List, Optional, Sequence, Tuple

from strands.hooks import AfterToolCallEvent, BeforeModelCallEvent
from strands.plugins import Plugin, hook
from strands.tools.tools import PythonAgentTool
from strands.types.tools import AgentTool, ToolResult, ToolUse

from ._materializer import CountTokens, Materializer

__all__ = ["MaterializePlugin", "BudgetPlugin", "context_tools"]

READ_TOOLS = ("context_read", "context_tail", "context_grep")


def _output(content: List[Any]) -> Any:
    """A result's content as ``materialize`` takes it: text blocks as their text joined
    with newlines, one JSON block as its value; ``None`` when it holds anything else
    (images, documents), which stays as it is."""
    if all(set(block) == {"text"} for block in content):
        return "\n".join(str(block["text"]) for block in content)
    if len(content) == 1 and set(content[0]) == {"json"}:
        return content[0]["json"]
    return None


class MaterializePlugin(Plugin):
    """Every tool result over the materializer's limits is written to an artifact named
    after the tool use's id, and the model gets its summary as the result's one text block.
    With ``read_tools`` (default), the agent also gets the read-back tools."""

    def __init__(self, materializer: Materializer, *, read_tools: bool = True) -> None:
        self.materializer = materializer
        self._read_tools: List[AgentTool] = context_tools(materializer) if read_tools else []
        super().__init__()

    @property
    def name(self) -> str:
        return "tool-offload-materialize"

    @property
    def tools(self) -> List[Any]:
        return [*super().tools, *self._read_tools]

    @hook  # type: ignore[call-overload]  # (strands types hooks as functions, not methods)
    async def materialize_result(self, event: AfterToolCallEvent) -> None:
        """Materialize the result of the tool call that just finished."""
        name = str(event.tool_use.get("name", ""))
        if event.cancel_message is not None or name in READ_TOOLS or event.exception is not None:
            return
        result = event.result
        output = _output(list(result.get("content", [])))
        if output is None:
            return
        done = await self.materializer.materialize(
            tool_name=name, tool_call_id=str(event.tool_use["toolUseId"]), output=output
        )
        if not done.inline:
            event.result = ToolResult(toolUseId=result["toolUseId"], status=result["status"], content=[{"text": done.content}])


class BudgetPlugin(Plugin):
    """Before each model call, past ``trigger_tokens``, old tool results in the agent's
    conversation become one-line pointers to their artifacts (:meth:`Materializer.budget`:
    oldest first, the last ``keep_last`` and those of ``exclude_tools`` kept). The
    conversation itself is rewritten, so the decisions are kept: later calls neither send
    nor reconsider them. Use it beside :class:`MaterializePlugin` (the read tools)."""

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
        super().__init__()

    @property
    def name(self) -> str:
        return "tool-offload-budget"

    @hook  # type: ignore[call-overload]  # (strands types hooks as functions, not methods)
    async def clear_old_results(self, event: BeforeModelCallEvent) -> None:
        """Clear old tool results in the conversation, in place."""
        messages: List[Any] = event.agent.messages
        view, places = _anthropic(messages)
        done = await self.materializer.budget(view, **self.options)
        for i, after in enumerate(done.messages[: len(view)]):
            if after is view[i]:
                continue
            for (m, b), block, given in zip(places[i], after["content"], view[i]["content"]):
                if block is not given and block.get("content") != given.get("content"):
                    result = messages[m]["content"][b]["toolResult"]
                    # A result with images or documents is left whole: a pointer to its
                    # text would lose them.
                    if all(set(c) <= {"text", "json"} for c in result.get("content", [])):
                        messages[m]["content"][b]["toolResult"] = {**result, "content": [{"text": block["content"]}]}


def _anthropic(messages: List[Any]) -> Tuple[List[dict[str, Any]], List[List[Tuple[int, int]]]]:
    """The conversation as Anthropic messages for the budget (tool names from the
    ``tool_use`` blocks), and where each block lives (message, block)."""
    view: List[dict[str, Any]] = []
    places: List[List[Tuple[int, int]]] = []
    for m, message in enumerate(messages):
        blocks: List[dict[str, Any]] = []
        where: List[Tuple[int, int]] = []
        for b, block in enumerate(message.get("content", [])):
            if "toolUse" in block:
                use = block["toolUse"]
                blocks.append({"type": "tool_use", "id": use["toolUseId"], "name": use["name"], "input": {}})
            elif "toolResult" in block:
                result = block["toolResult"]
                text = "\n".join(
                    str(c["text"]) if "text" in c else json.dumps(c["json"], ensure_ascii=False)
                    for c in result.get("content", [])
                    if "text" in c or "json" in c
                )
                blocks.append({"type": "tool_result", "tool_use_id": result["toolUseId"], "content": text})
            else:
                blocks.append({"type": "text", "text": str(block.get("text", ""))})
            where.append((m, b))
        view.append({"role": message.get("role", "user"), "content": blocks})
        places.append(where)
    return view, places


def context_tools(materializer: Materializer) -> List[AgentTool]:
    """``context_read``, ``context_tail`` and ``context_grep`` as Strands tools over the
    materializer's artifacts; a refused call is an ``error`` result the model can read."""
    tools: List[AgentTool] = []
    for definition in materializer.tool_definitions("anthropic"):
        name = str(definition["name"])

        async def run(tool_use: ToolUse, _name: str = name, **_state: Any) -> ToolResult:
            r = await materializer.handle_tool_call(_name, tool_use.get("input") or {})
            if r.is_error:
                return ToolResult(toolUseId=tool_use["toolUseId"], status="error", content=[{"text": r.content}])
            return ToolResult(toolUseId=tool_use["toolUseId"], status="success", content=[{"text": r.content}])

        spec = {"name": name, "description": str(definition["description"]), "inputSchema": {"json": definition["input_schema"]}}
        tools.append(PythonAgentTool(name, spec, run))  # type: ignore[arg-type]
    return tools
