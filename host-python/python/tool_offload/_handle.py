"""What a :class:`Materializer` and a :class:`Workspace` share: a handle on a native
object that copies, deep-copies and pickles as itself, grep across everything it holds,
and its read tools' definitions; the options both take (``count_tokens``, ``tools``,
``redact``). Each keeps its own ``grep`` (a ref or an id). Neither product imports the
other."""

from __future__ import annotations

import json
from typing import Any, Callable, List, Optional

from ._offload import Redact, redact_json
from ._run import count, in_thread, refuse_in_loop, text
from .errors import InvalidArgumentError

CountTokens = Callable[[str], int]
"""A token counter: a text's tokens (a tokenizer's ``len(encode(text))``)."""

_TOOL_KEYS = ("max_inline_chars", "max_inline_bytes", "max_inline_tokens", "materialize")


class NativeHandle:
    """A handle on files, an object store or a database, and the callables it was given:
    a copy would share them anyway, so it copies as itself and pickles as its arguments."""

    _native: Any
    _given: "tuple[tuple[Any, ...], dict[str, Any]]"
    # Each product's own `grep_sync(ref_or_id, pattern, ignore_case, *, context, max_matches)`.
    grep_sync: Callable[..., str]

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        """The same object. Frameworks deep-copy their configuration (ADK's tools,
        LangGraph's checkpoints); this keeps that from failing on the extension's objects."""
        return self

    def __reduce__(self) -> Any:
        """Pickled as its arguments: a process of a pool makes its own, over the same files
        or namespace; a callable given (``count_tokens``, ``now``) must then be picklable
        itself (a module-level function)."""
        args, kwargs = self._given
        return (_rebuild, (type(self), args, kwargs))

    def _grep(
        self,
        key: Optional[str],
        pattern: str,
        ignore_case: bool,
        context: Optional[int],
        max_matches: Optional[int],
    ) -> str:
        """The extension's grep of the artifact ``key`` (a ref or an id; every one when
        ``None``), the other arguments checked."""
        return str(
            self._native.grep(
                key,
                text(pattern, "pattern"),
                bool(ignore_case),
                count(context, "context"),
                count(max_matches, "max_matches"),
            )
        )

    def grep_all_sync(
        self,
        pattern: str,
        ignore_case: bool = False,
        *,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str:
        """:meth:`grep_all` in the caller's thread."""
        refuse_in_loop("grep_all")
        return self.grep_sync(None, pattern, ignore_case, context=context, max_matches=max_matches)

    async def grep_all(
        self,
        pattern: str,
        ignore_case: bool = False,
        *,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str:
        """Rows matching ``pattern`` in every artifact held (the conversation's, or the
        namespace's knowledge), newest first, as much as fits in one page (``grep(None, …)``,
        npm's ``grepAll``)."""
        return await in_thread(self.grep_all_sync, pattern, ignore_case, context=context, max_matches=max_matches)

    def tool_definitions(self, format: str = "anthropic") -> List[dict[str, Any]]:
        """The model's read tools (a Materializer's ``context_read``, ``context_tail`` and
        ``context_grep``; a Workspace's knowledge tools) as the ``tools`` array of ``format``:
        ``"anthropic"``, ``"openai-chat"``, ``"openai-responses"`` or ``"mcp"``."""
        definitions: List[dict[str, Any]] = json.loads(self._native.tool_definitions(text(format, "format")))
        return definitions


def _rebuild(cls: Any, args: Any, kwargs: Any) -> Any:
    """``cls(*args, **kwargs)``: how a pickled Materializer or Workspace is made again."""
    return cls(*args, **kwargs)


def tools_value(tools: Optional[dict[str, Any]]) -> Optional[dict[str, Any]]:
    """``tools={"bash": {"max_inline_chars": 8000}}`` in the npm package's names."""
    if tools is None:
        return None
    if not isinstance(tools, dict):
        raise InvalidArgumentError(f"invalid argument: tools must be a dict of tool names, got {tools!r}")
    out = {}
    for name, limits in tools.items():
        if not isinstance(limits, dict):
            raise InvalidArgumentError(f"invalid argument: tools[{name!r}] must be a dict, got {limits!r}")
        for key in limits:
            if key not in _TOOL_KEYS:
                raise InvalidArgumentError(f"invalid argument: tools[{name!r}].{key} is not an option of a tool")
        out[name] = {
            "maxInlineChars": limits.get("max_inline_chars"),
            "maxInlineBytes": limits.get("max_inline_bytes"),
            "maxInlineTokens": limits.get("max_inline_tokens"),
            "materialize": limits.get("materialize"),
        }
    return out


def callable_option(value: Any, name: str) -> Any:
    """``value`` when it is ``None`` or callable (a ``count_tokens``, a ``now``)."""
    if value is not None and not callable(value):
        raise InvalidArgumentError(f"invalid argument: {name} must be callable, got {value!r}")
    return value


def redact_value(redact: Redact) -> Any:
    """``redact=`` as the JSON value the extension reads."""
    text = redact_json(redact)
    return None if text is None else json.loads(text)
