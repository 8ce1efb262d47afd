"""What the API returns: frozen dataclasses (and plain dicts for bundles and records,
which are JSON documents of their own)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Union


@dataclass(frozen=True)
class RefHint:
    """What a ref's hint says about its artifact."""

    tool_name: str
    tool_call_id: str
    bytes: int
    """UTF-8 bytes."""
    chars: int
    """UTF-16 code units."""
    lines: int
    is_json: bool
    server_name: Optional[str] = None
    redacted: Mapping[str, int] = field(default_factory=dict, hash=False)
    """The secrets ``redact`` replaced in the artifact, by kind (empty when none)."""


@dataclass(frozen=True)
class ContextRef:
    """A reference to an artifact: pass it (or its ``id``) to ``read``, ``tail``, ``grep``."""

    id: str
    """``ctx://<conversation_id>/tool/<tool_call_id>.<ext>``."""
    hint: RefHint
    kind: str = "artifact"

    def __str__(self) -> str:
        return self.id

    @staticmethod
    def _from_value(raw: dict[str, Any]) -> "ContextRef":
        h = raw["hint"]
        hint = RefHint(
            tool_name=h["toolName"],
            tool_call_id=h["toolCallId"],
            bytes=h["bytes"],
            chars=h["chars"],
            lines=h["lines"],
            is_json=h["isJson"],
            server_name=h.get("serverName"),
            redacted=dict(h.get("redacted", {})),
        )
        return ContextRef(id=raw["id"], hint=hint, kind=raw["kind"])

    @staticmethod
    def _from_json(text: str) -> "ContextRef":
        return ContextRef._from_value(json.loads(text))

    def to_dict(self) -> dict[str, Any]:
        """The ref as the npm package gives it (camelCase hint)."""
        h = self.hint
        hint: dict[str, Any] = {"toolName": h.tool_name}
        if h.server_name is not None:
            hint["serverName"] = h.server_name
        hint.update(toolCallId=h.tool_call_id, bytes=h.bytes, chars=h.chars, lines=h.lines, isJson=h.is_json)
        if h.redacted:
            hint["redacted"] = dict(h.redacted)
        return {"kind": self.kind, "id": self.id, "hint": hint}


RefArg = Union[str, ContextRef]


@dataclass(frozen=True)
class Materialized:
    """The outcome of :meth:`Materializer.materialize`: inline (``content`` is the output
    given, or its redacted text) or written to an artifact (``content`` is its summary,
    ``ref`` and ``path`` name it)."""

    inline: bool
    content: Any
    ref: Optional[ContextRef] = None
    path: Optional[str] = None


@dataclass(frozen=True)
class BatchOffload:
    """The outcome of :func:`offload_tool_results`."""

    messages: List[Any]
    """The conversation after offloading: unchanged messages are the input's own objects,
    changed ones new dicts and lists (the input is never modified)."""
    offloaded_count: int
    """Number of tool results offloaded."""
    freed_chars: int
    """Sum of the offloaded contents' sizes, in UTF-16 code units (JavaScript's length)."""
    files: List[str]
    """Absolute paths written, in walk order."""
    unrecognized: List[str] = field(default_factory=list)
    """Paths (``messages[3]``, ``messages[2].content[1]``) of items that look like tool
    results of no shape we know (``mcp_tool_result``…): left as they are, reported here."""


@dataclass(frozen=True)
class DirectOffload:
    """The outcome of :func:`offload_tool_result`."""

    message: Any
    """A new message, each tool result's content replaced by its placeholder."""
    freed_chars: int
    """UTF-16 code units freed (negative when a placeholder is longer than its content)."""
    file: str
    """The first file written."""
    files: List[str]
    """Every file written, in order."""


@dataclass(frozen=True)
class MaterializedMessages:
    """The outcome of :meth:`Materializer.materialize_messages`."""

    messages: List[Any]
    refs: List[ContextRef]
    paths: List[str]
    unrecognized: List[str] = field(default_factory=list)


@dataclass(frozen=True)
class Cleared:
    """One tool result :meth:`Materializer.budget` cleared."""

    message: int
    tool_call_id: str
    tool_name: str
    ref: str
    chars: int
    tokens: int


@dataclass(frozen=True)
class BudgetResult:
    """The outcome of :meth:`Materializer.budget`."""

    messages: List[Any]
    cleared: List[Cleared]
    tokens_before: int
    tokens_after: int
    rewritten_from_message: Optional[int]
    """The first message rewritten (the cached prefix ends before it), if any."""
    refs: List[ContextRef]
    """Artifacts written for results that were inline."""
    paths: List[str]


@dataclass(frozen=True)
class ReadStat:
    """A ref shown in part, and how often the model read it back."""

    ref: str
    tool_call_id: str
    reads: int
    errors: bool


@dataclass(frozen=True)
class MaterializeStats:
    """Counts over a materializer's lifetime."""

    hits: int
    inlined: int
    saved_chars: int
    #: ``saved_chars / hits``, 0 without hits (core's figure).
    avg_saved_chars: float


@dataclass(frozen=True)
class ToolCallResult:
    """What a read tool gives the model."""

    content: str
    is_error: bool = False


@dataclass(frozen=True)
class GcReport:
    """What :meth:`Materializer.gc` removed (or, dry, would remove)."""

    removed: List[str]
    bytes: int
    kept: int
    kept_bytes: int


@dataclass(frozen=True)
class ImportedConversation:
    """The outcome of :func:`import_conversation`."""

    conversation_id: str
    messages: Any
    paths: List[str]


@dataclass(frozen=True)
class ToolResultOffload:
    """The outcome of :meth:`Workspace.offload_tool_result`."""

    offloaded: bool
    content: Any
    """The ``<knowledge_list>`` when offloaded, else the content given."""
    artifact_id: Optional[str] = None
    reason: Optional[str] = None


@dataclass(frozen=True)
class OffloadedMessages:
    """The outcome of :meth:`Workspace.offload_messages`."""

    messages: List[Any]
    artifact_ids: List[str]
    unrecognized: List[str] = field(default_factory=list)
