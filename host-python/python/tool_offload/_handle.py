"""What a :class:`Materializer` and a :class:`Workspace` share: a handle on a native
object that copies, deep-copies and pickles as itself, grep across everything it holds,
and its read tools' definitions. Each keeps its own ``grep`` (a ref or an id)."""

from __future__ import annotations

import json
from typing import Any, Callable, List, Optional

from ._run import in_thread, refuse_in_loop, text


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
