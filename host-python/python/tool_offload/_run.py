"""Running the extension's blocking calls: in a worker thread for the async API, in the
caller's thread for the ``_sync`` twins (never inside a running event loop)."""

from __future__ import annotations

import asyncio
import functools
import json
from typing import Any, Callable, TypeVar

from .errors import InvalidArgumentError, RunningEventLoopError

T = TypeVar("T")


async def in_thread(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in the loop's default executor: the extension releases the
    GIL while it works, so the loop keeps running. Cancelling the await does not stop a
    call already started; files it writes still appear only whole."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, functools.partial(fn, *args, **kwargs))


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
    """``value`` as JSON text for the extension; ``INVALID_ARGUMENT`` when it is not JSON."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(f"invalid argument: {what} is not JSON-serializable: {e}") from e
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            # TODO(issue 51): cross as escapes and mark them as the CLI does (LoneSurrogates).
            raise InvalidArgumentError(
                f"invalid argument: {what} holds a lone UTF-16 surrogate, not supported yet: {e}"
            ) from e
    return text
