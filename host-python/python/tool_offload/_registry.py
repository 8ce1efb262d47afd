"""The :class:`ToolRegistry`: tools with Python handlers, their definitions in each
model API's format, and large results offloaded or materialized."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import TYPE_CHECKING, Any, Awaitable, Callable, List, Optional, Union

from . import _native
from ._offload import redact_json
from ._run import dumps, in_thread, options_json, path, refuse_in_loop, resolve, text
from .errors import InvalidArgumentError, InvalidToolDefinitionError

if TYPE_CHECKING:
    from ._materializer import Materializer

_local = threading.local()

HandlerResult = Union[str, dict[str, Any], "tuple[str, bool]"]
"""A handler gives the result's text, ``{"content": …, "is_error": bool}``, or
``(content, is_error)``; a content that is not a str is sent as its JSON."""
Handler = Callable[[Any], Union[HandlerResult, Awaitable[HandlerResult]]]


def _output(result: Any) -> "tuple[str, bool]":
    if isinstance(result, str):
        return result, False
    if isinstance(result, tuple) and len(result) == 2:
        content, is_error = result
    elif isinstance(result, dict) and "content" in result:
        content, is_error = result["content"], result.get("is_error", False)
    else:
        raise TypeError(f"a handler must return a str, a dict with content, or (content, is_error), got {result!r}")
    if not isinstance(content, str):
        content = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
    return content, bool(is_error)


def _wrap(handler: Handler) -> Callable[[str], "tuple[str, bool]"]:
    """The handler as the extension calls it: params as JSON text in, ``(content,
    is_error)`` out; a coroutine awaited on the caller's loop."""

    def call(params: str) -> "tuple[str, bool]":
        return _output(resolve(handler(json.loads(params))))

    return call


class ToolRegistry:
    """Tools by name, each a definition (``{name, description, input_schema}``) and a
    handler. ``offload={"output_dir": …, "session_id": …, "threshold_chars": …}`` writes
    results over the threshold to files; ``materializer=`` materializes them instead."""

    def __copy__(self) -> "ToolRegistry":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "ToolRegistry":
        """The same object: it is a handle on files (and callables) that a copy would
        share anyway. Frameworks deep-copy their configuration (ADK's tools, LangGraph's
        checkpoints); this keeps that from failing on the extension's objects."""
        return self

    def __init__(
        self, *, offload: Optional[dict[str, Any]] = None, materializer: "Optional[Materializer]" = None
    ) -> None:
        offload_text = None
        if offload is not None:
            if not isinstance(offload, dict):
                raise InvalidArgumentError(f"invalid argument: offload must be a dict, got {offload!r}")
            given = dict(offload)
            known = {"output_dir", "session_id", "threshold_chars", "cwd", "redact", "storage", "_fail_on", "_root"}
            if set(given) - known:
                extra = sorted(set(given) - known)[0]
                raise InvalidArgumentError(
                    f"invalid argument: offload has no option {extra!r} (output_dir, session_id, threshold_chars, cwd, redact, storage)"
                )
            redact = given.pop("redact", None)
            # The test suite's: a path the writer fails on, a directory standing for `/`.
            fail_on = given.pop("_fail_on", None)
            root = given.pop("_root", None)
            for key in ("output_dir", "cwd"):
                if given.get(key) is not None:
                    given[key] = path(given[key], f"offload.{key}")
            offload_text = options_json(
                {**given, "redact": None if redact is None else json.loads(redact_json(redact) or "false"), "fail_on": fail_on, "root": root}
            )
        self._native = _native.NativeRegistry(offload_text, None if materializer is None else materializer._native)

    def register(self, definition: dict[str, Any], handler: Handler) -> None:
        """Add a tool. Raises ``DuplicateToolError``, ``InvalidToolNameError``,
        ``InvalidToolDefinitionError``."""
        if not isinstance(definition, dict):
            raise InvalidToolDefinitionError(f"invalid tool definition: expected a dict, got {definition!r}")
        if not callable(handler):
            raise InvalidArgumentError(f"invalid argument: handler must be callable, got {handler!r}")
        self._native.register(dumps(definition, "definition"), _wrap(handler), self._may_wait())

    def register_todo_tools(self) -> None:
        """Add TodoWrite and TodoRead over one new in-memory list (seed 002)."""
        self._native.register_todo_tools(self._may_wait())

    def _may_wait(self) -> bool:
        """Whether registering may wait for running tools to finish: not from a thread
        running one of them (a handler registering on its own registry), nor from a
        thread running an event loop (an async handler, or the loop itself), where
        waiting would never end. There it is refused at once if a tool is running."""
        if id(self) in getattr(_local, "running", ()):
            return False
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return True
        return False

    def tool_definitions(self, format: str = "anthropic") -> List[dict[str, Any]]:
        """Every tool as the ``tools`` array of ``format``: ``"anthropic"``,
        ``"openai-chat"``, ``"openai-responses"`` or ``"mcp"``."""
        definitions: List[dict[str, Any]] = json.loads(self._native.tool_definitions(text(format, "format")))
        return definitions

    def execute_tool_sync(self, tool_use_id: str, name: str, params: Any = None) -> dict[str, Any]:
        """:meth:`execute_tool` in the caller's thread (an async handler runs in a loop of
        its own)."""
        refuse_in_loop("execute_tool")
        running: set[int] = _local.__dict__.setdefault("running", set())
        mine = id(self) not in running
        running.add(id(self))
        try:
            result: dict[str, Any] = json.loads(
                self._native.execute(text(tool_use_id, "tool_use_id"), text(name, "name"), dumps(params, "params"))
            )
        finally:
            if mine:
                running.discard(id(self))
        return result

    async def execute_tool(self, tool_use_id: str, name: str, params: Any = None) -> dict[str, Any]:
        """Run tool ``name``: the ``tool_result`` block (``{"type": "tool_result",
        "tool_use_id", "content", "is_error"?}``). A failing handler, an unknown tool or
        bad params give an ``is_error`` result; a large result is offloaded or
        materialized as configured."""
        return await in_thread(self.execute_tool_sync, tool_use_id, name, params)


def register_todo_tools(registry: ToolRegistry) -> None:
    """``registry.register_todo_tools()``, as the npm package spells it."""
    registry.register_todo_tools()
