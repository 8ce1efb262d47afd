"""The read-back tools every adapter gives the model (``context_read``, ``context_tail``,
``context_grep``), as the framework-neutral pieces an adapter wraps: their definitions
and a way to run one, both from the extension (definitions, argument checks and pages
are core's). An adapter is only its framework's glue around these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, FrozenSet, List, Mapping

if TYPE_CHECKING:  # pragma: no cover
    from . import Materializer


@dataclass(frozen=True)
class ReadResult:
    """One read-back call's outcome: the page, or (``is_error``) the refusal the model
    reads (another conversation's ref, a bad pattern…)."""

    content: str
    is_error: bool = False


def _result(raw: Any) -> ReadResult:
    """The extension's tool result (an object with ``content``/``is_error``, or such a
    dict) as a :class:`ReadResult`."""
    if isinstance(raw, ReadResult):
        return raw
    if isinstance(raw, Mapping):
        content, is_error = raw.get("content", ""), raw.get("is_error", False)
    else:
        content, is_error = getattr(raw, "content", raw), getattr(raw, "is_error", False)
    if not isinstance(content, str):
        content = str(content)
    return ReadResult(content=content, is_error=bool(is_error))


class ReadBack:
    """The read-back tools over one materializer's artifacts."""

    def __init__(self, materializer: "Materializer") -> None:
        self.materializer = materializer
        self.definitions: List[Dict[str, Any]] = list(materializer.tool_definitions(format="anthropic"))  # type: ignore[attr-defined]
        """``{name, description, input_schema}`` of each, Anthropic-style."""
        self.names: FrozenSet[str] = frozenset(d["name"] for d in self.definitions)

    async def run(self, name: str, input: Any) -> ReadResult:
        """Run one with the model's input as it came (core checks it); a refused call is
        an ``is_error`` result, never a raise."""
        return _result(await self.materializer.handle_tool_call(name, input))  # type: ignore[attr-defined]

    def run_sync(self, name: str, input: Any) -> ReadResult:
        """:meth:`run` in the caller's thread (never inside a running event loop)."""
        return _result(self.materializer.handle_tool_call_sync(name, input))  # type: ignore[attr-defined]


def read_tool_names(materializer: "Materializer") -> FrozenSet[str]:
    """The read-back tools' names, whose pages an adapter never materializes again."""
    definitions = getattr(materializer, "tool_definitions", None)
    if definitions is None:  # TODO(issue 51): until Materializer.tool_definitions lands
        return frozenset()
    return frozenset(d["name"] for d in definitions(format="anthropic"))
