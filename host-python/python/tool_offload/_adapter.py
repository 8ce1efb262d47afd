"""What every framework adapter shares: the read-back tools it gives the model
(``context_read``, ``context_tail``, ``context_grep``) as their definitions and a way to
run one, both from the extension (definitions, argument checks and pages are core's). An
adapter is only its framework's glue around these."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, FrozenSet, List

if TYPE_CHECKING:  # pragma: no cover
    from . import Materializer, ToolCallResult


class ReadBack:
    """The read-back tools over one materializer's artifacts."""

    def __init__(self, materializer: "Materializer") -> None:
        self.materializer = materializer
        self.definitions: List[Dict[str, Any]] = materializer.tool_definitions(format="anthropic")
        """``{name, description, input_schema}`` of each, Anthropic-style."""
        self.names: FrozenSet[str] = frozenset(d["name"] for d in self.definitions)

    async def run(self, name: str, input: Any) -> "ToolCallResult":
        """Run one with the model's input as it came (core checks it); a refused call is
        an ``is_error`` result, never a raise."""
        return await self.materializer.handle_tool_call(name, input)

    def run_sync(self, name: str, input: Any) -> "ToolCallResult":
        """:meth:`run` in the caller's thread (never inside a running event loop)."""
        return self.materializer.handle_tool_call_sync(name, input)


def read_tool_names(materializer: "Materializer") -> FrozenSet[str]:
    """The read-back tools' names, whose pages an adapter never materializes again."""
    return frozenset(d["name"] for d in materializer.tool_definitions(format="anthropic"))
