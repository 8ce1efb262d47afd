"""Running the extension's blocking calls: in a worker thread for the async API, in the
caller's thread for the ``_sync`` twins (never inside a running event loop)."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from typing import Any, Awaitable, Callable, List, Optional, Sequence, TypeVar

from .errors import InvalidArgumentError, RunningEventLoopError

T = TypeVar("T")

_local = threading.local()


async def in_thread(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in the loop's default executor: the extension releases the
    GIL while it works, so the loop keeps running. Cancelling the await does not stop a
    call already started; files it writes still appear only whole. A coroutine a
    callback (a registry handler) returns runs on this loop."""
    loop = asyncio.get_running_loop()

    def call() -> T:
        _local.loop = loop
        try:
            return fn(*args, **kwargs)
        finally:
            _local.loop = None

    return await loop.run_in_executor(None, call)


def resolve(value: Any) -> Any:
    """``value``, awaited when it is awaitable: on the loop of the ``await`` that started
    the call (from its worker thread), else in a new loop (a ``_sync`` call)."""
    if not hasattr(value, "__await__"):
        return value
    loop: Optional[asyncio.AbstractEventLoop] = getattr(_local, "loop", None)

    async def wait(awaitable: Awaitable[Any]) -> Any:
        return await awaitable

    if loop is not None:
        return asyncio.run_coroutine_threadsafe(wait(value), loop).result()
    return asyncio.run(wait(value))


def refuse_in_loop(name: str) -> None:
    """Raise ``RunningEventLoopError`` when called from a thread running an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise RunningEventLoopError(
        f"{name}_sync() was called inside a running event loop, where it would block the "
        f"loop: use `await {name}(...)` instead"
    )


def dumps(value: Any, what: str) -> str:
    """``value`` as JSON text for the extension; ``INVALID_ARGUMENT`` when it is not JSON.
    Lone UTF-16 surrogates (a ``str`` may hold them, UTF-8 cannot) cross escaped
    (``"\\ud83d"``), which the extension marks as the CLI does."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(f"invalid argument: {what} is not JSON-serializable: {e}") from e
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return text


def messages_list(messages: Any, what: str = "messages") -> List[Any]:
    """``messages`` as a list; ``INVALID_ARGUMENT`` for a str, bytes or a non-sequence."""
    if isinstance(messages, (str, bytes, dict)) or not isinstance(messages, Sequence):
        raise InvalidArgumentError(f"invalid argument: {what} must be a list of messages")
    return list(messages)


def merged(given: List[Any], out: Sequence[Optional[str]]) -> List[Any]:
    """The messages after a call: the input's own objects where unchanged (``None``), new
    ones parsed from JSON text where changed (a call may add one at the end)."""
    return [given[i] if new is None else json.loads(new) for i, new in enumerate(out)]


MAX_COUNT = 2**53 - 1
"""The largest count accepted: JavaScript's largest safe integer, as the npm package."""


def count(value: Optional[int], name: str) -> Optional[int]:
    """``value`` checked as an integer from 0 to :data:`MAX_COUNT` (``None`` passes)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise InvalidArgumentError(f"invalid argument: {name} must be an integer >= 0, got {value!r}")
    return value


def text(value: Any, name: str) -> str:
    """``value`` checked as a ``str``."""
    if not isinstance(value, str):
        raise InvalidArgumentError(f"invalid argument: {name} must be a str, got {type(value).__name__}")
    return value


def opt_text(value: Any, name: str) -> Optional[str]:
    """``value`` checked as a ``str`` or ``None``."""
    return None if value is None else text(value, name)


def path(value: Any, name: str) -> str:
    """A ``str`` or ``os.PathLike[str]`` as a ``str``."""
    try:
        got = os.fspath(value)
    except TypeError:
        got = None
    if not isinstance(got, str):
        raise InvalidArgumentError(f"invalid argument: {name} must be a str or a path, got {type(value).__name__}")
    return got


def names(value: Any, name: str) -> Optional[List[str]]:
    """A list of names (not a bare ``str``), or ``None``."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidArgumentError(f"invalid argument: {name} must be a list of names, got {value!r}")
    return [text(v, name) for v in value]


def whole(value: int, name: str) -> int:
    """``value`` checked as an integer >= 0."""
    checked = count(value, name)
    if checked is None:
        raise InvalidArgumentError(f"invalid argument: {name} must be an integer >= 0, got None")
    return checked


def camel(name: str) -> str:
    """``max_inline_chars`` → ``maxInlineChars``: the npm package's option names."""
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def options_json(options: dict[str, Any]) -> str:
    """Keyword options (``None`` left out) as the extension's JSON object, camelCase."""
    return dumps({camel(k): v for k, v in options.items() if v is not None}, "options")
