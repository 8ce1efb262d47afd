"""tool_offload: move oversized agent tool results out of the conversation into files.

The same Rust core as the npm package ``tool-offload`` and the Rust crate, byte for byte.
Messages are plain dicts and lists (Anthropic, OpenAI Chat/Responses, LangChain message
dicts). Every async function and method has a ``_sync`` twin for synchronous code.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence, Union

from . import _native
from ._run import dumps, in_thread, refuse_in_loop
from .errors import *  # noqa: F401,F403  (the error classes are part of the API)
from .errors import OffloadError, InvalidArgumentError
from .errors import __all__ as _errors_all

__all__ = [
    "BatchOffload",
    "ContextRef",
    "RefHint",
    "Materialized",
    "Materializer",
    "offload_tool_results",
    "offload_tool_results_sync",
    "DEFAULT_THRESHOLD",
    "ERROR_CODES",
    *_errors_all,
]

DEFAULT_THRESHOLD: int = _native.DEFAULT_THRESHOLD
"""Batch offload's default threshold, in UTF-16 code units (100)."""

ERROR_CODES: tuple[str, ...] = tuple(_native.ERROR_CODES)
"""Every ``OffloadError.code``, as the npm package publishes them."""

PathLike = Union[str, "os.PathLike[str]"]


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


def _batch(messages: Sequence[Any], output_dir: PathLike, threshold: int) -> BatchOffload:
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise InvalidArgumentError("invalid argument: messages must be a list of messages")
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
        raise InvalidArgumentError(f"invalid argument: threshold must be an integer >= 0, got {threshold!r}")
    messages = list(messages)
    text = dumps(messages, "messages")
    out, count, freed, files, unrecognized = _native.offload_tool_results(text, os.fspath(output_dir), threshold)
    after = [message if new is None else json.loads(new) for message, new in zip(messages, out)]
    return BatchOffload(after, count, freed, files, unrecognized)


async def offload_tool_results(
    messages: Sequence[Any], *, output_dir: PathLike, threshold: int = DEFAULT_THRESHOLD
) -> BatchOffload:
    """Offload every tool result of at least ``threshold`` UTF-16 code units to
    ``<output_dir>/tool-result-<id>.md``, its content replaced by
    ``[Content offloaded to: ./tool-result-<id>.md]`` (a relative ``output_dir`` resolves
    against the working directory). The input list is left untouched.

    Raises :class:`OffloadError` (``INVALID_ID``, ``INVALID_MESSAGE``, ``WRITE_FAILED``…)
    before anything is written for input errors."""
    return await in_thread(_batch, messages, output_dir, threshold)


def offload_tool_results_sync(
    messages: Sequence[Any], *, output_dir: PathLike, threshold: int = DEFAULT_THRESHOLD
) -> BatchOffload:
    """:func:`offload_tool_results` in the caller's thread. Raises
    :class:`RunningEventLoopError` inside a running event loop."""
    refuse_in_loop("offload_tool_results")
    return _batch(messages, output_dir, threshold)


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
    def _from_json(text: str) -> "ContextRef":
        raw = json.loads(text)
        h = raw["hint"]
        hint = RefHint(
            tool_name=h["toolName"],
            tool_call_id=h["toolCallId"],
            bytes=h["bytes"],
            chars=h["chars"],
            lines=h["lines"],
            is_json=h["isJson"],
            server_name=h.get("serverName"),
        )
        return ContextRef(id=raw["id"], hint=hint, kind=raw["kind"])


@dataclass(frozen=True)
class Materialized:
    """The outcome of :meth:`Materializer.materialize`: inline (``content`` is the output
    given, or its redacted text) or written to an artifact (``content`` is its summary,
    ``ref`` and ``path`` name it)."""

    inline: bool
    content: Any
    ref: Optional[ContextRef] = None
    path: Optional[str] = None


RefArg = Union[str, ContextRef]


def _ref(ref: RefArg) -> str:
    if isinstance(ref, ContextRef):
        return ref.id
    if isinstance(ref, str):
        return ref
    raise InvalidArgumentError(f"invalid argument: ref must be a str or ContextRef, got {type(ref).__name__}")


def _count(value: Optional[int], name: str) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidArgumentError(f"invalid argument: {name} must be an integer >= 0, got {value!r}")
    return value


class Materializer:
    """Moves tool outputs over the inline limits into artifacts of one conversation
    (``<user_data>/context/<conversation_id>/artifacts/``) and reads them back for the
    model. Methods may be called concurrently, from threads or tasks."""

    def __init__(
        self,
        user_data: PathLike,
        conversation_id: str,
        *,
        max_inline_chars: Optional[int] = None,
        max_inline_bytes: Optional[int] = None,
        snippet_lines: Optional[int] = None,
        snippet_bytes: Optional[int] = None,
        offload_dir: Optional[PathLike] = None,
    ) -> None:
        self._native = _native.NativeMaterializer(
            os.fspath(user_data),
            conversation_id,
            _count(max_inline_chars, "max_inline_chars"),
            _count(max_inline_bytes, "max_inline_bytes"),
            _count(snippet_lines, "snippet_lines"),
            _count(snippet_bytes, "snippet_bytes"),
            None if offload_dir is None else os.fspath(offload_dir),
        )

    @property
    def conversation_id(self) -> str:
        """The conversation whose artifacts this materializer writes and may read."""
        return str(self._native.conversation_id)

    def _materialize(self, tool_name: str, tool_call_id: str, output: Any, server_name: Optional[str]) -> Materialized:
        done = self._native.materialize(tool_name, tool_call_id, dumps(output, "output"), server_name)
        if done is None:
            return Materialized(inline=True, content=output)
        content, ref, path = done
        if ref is None:
            return Materialized(inline=True, content=content)
        return Materialized(inline=False, content=content, ref=ContextRef._from_json(ref), path=path)

    async def materialize(
        self, *, tool_name: str, tool_call_id: str, output: Any, server_name: Optional[str] = None
    ) -> Materialized:
        """Leave ``output`` (a str, or any JSON value) inline when within both limits;
        otherwise write it to an artifact first and give its summary and ref."""
        return await in_thread(self._materialize, tool_name, tool_call_id, output, server_name)

    def materialize_sync(
        self, *, tool_name: str, tool_call_id: str, output: Any, server_name: Optional[str] = None
    ) -> Materialized:
        """:meth:`materialize` in the caller's thread."""
        refuse_in_loop("materialize")
        return self._materialize(tool_name, tool_call_id, output, server_name)

    async def read(self, ref: RefArg, offset: int = 0, limit: Optional[int] = None) -> str:
        """Lines ``offset .. offset + limit`` (default 200) of an artifact, numbered."""
        return await in_thread(self._native.read, _ref(ref), _count(offset, "offset"), _count(limit, "limit"))

    def read_sync(self, ref: RefArg, offset: int = 0, limit: Optional[int] = None) -> str:
        """:meth:`read` in the caller's thread."""
        refuse_in_loop("read")
        return str(self._native.read(_ref(ref), _count(offset, "offset"), _count(limit, "limit")))

    async def tail(self, ref: RefArg, lines: Optional[int] = None) -> str:
        """The last ``lines`` (default 200) rows of an artifact."""
        return await in_thread(self._native.tail, _ref(ref), _count(lines, "lines"))

    def tail_sync(self, ref: RefArg, lines: Optional[int] = None) -> str:
        """:meth:`tail` in the caller's thread."""
        refuse_in_loop("tail")
        return str(self._native.tail(_ref(ref), _count(lines, "lines")))

    async def grep(
        self,
        ref: RefArg,
        pattern: str,
        ignore_case: bool = False,
        *,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str:
        """Rows of an artifact matching the regular expression ``pattern``, with
        ``context`` (default 2) rows around each, at most ``max_matches`` (default 50)."""
        return await in_thread(
            self._native.grep,
            _ref(ref),
            pattern,
            bool(ignore_case),
            _count(context, "context"),
            _count(max_matches, "max_matches"),
        )

    def grep_sync(
        self,
        ref: RefArg,
        pattern: str,
        ignore_case: bool = False,
        *,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str:
        """:meth:`grep` in the caller's thread."""
        refuse_in_loop("grep")
        return str(
            self._native.grep(
                _ref(ref), pattern, bool(ignore_case), _count(context, "context"), _count(max_matches, "max_matches")
            )
        )
