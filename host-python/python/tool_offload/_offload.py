"""Direct (seed 000) and batch (seed 001) offload."""

from __future__ import annotations

import json
import os
from typing import Any, Optional, Sequence, Union

from . import _native
from ._run import dumps, in_thread, merged, messages_list, opt_text, path, refuse_in_loop, text
from ._types import BatchOffload, DirectOffload
from .errors import InvalidArgumentError

PathLike = Union[str, "os.PathLike[str]"]
Redact = Union[bool, dict[str, Any], None]

DEFAULT_THRESHOLD: int = _native.DEFAULT_THRESHOLD
"""Batch offload's default threshold, in UTF-16 code units (100)."""


def redact_json(redact: Redact) -> Optional[str]:
    """``redact=`` (``True``, or ``{"patterns": [...], "replace": ...}``) as the
    extension's JSON, ``ignore_case`` as ``ignoreCase``."""
    if redact is None or redact is False:
        return None
    if redact is True:
        return "true"
    if not isinstance(redact, dict):
        raise InvalidArgumentError(f"invalid argument: redact must be a bool or a dict, got {redact!r}")
    unknown = set(redact) - {"patterns", "replace"}
    if unknown:
        raise InvalidArgumentError(f"invalid argument: redact has no option {sorted(unknown)[0]!r} (patterns, replace)")
    out = dict(redact)
    patterns = out.get("patterns")
    for p in patterns if isinstance(patterns, list) else []:
        if isinstance(p, dict) and set(p) - {"pattern", "kind", "ignore_case", "ignoreCase"}:
            extra = sorted(set(p) - {"pattern", "kind", "ignore_case", "ignoreCase"})[0]
            raise InvalidArgumentError(f"invalid argument: a redact pattern has no option {extra!r}")
    if isinstance(patterns, list):
        out["patterns"] = [
            {("ignoreCase" if k == "ignore_case" else k): v for k, v in p.items()} if isinstance(p, dict) else p
            for p in patterns
        ]
    return dumps(out, "redact")


def _path(value: Optional[PathLike]) -> Optional[str]:
    return None if value is None else path(value, "cwd")


def _batch(
    messages: Sequence[Any],
    output_dir: PathLike,
    threshold: int,
    cwd: Optional[PathLike] = None,
    redact: Redact = None,
    _fail_on: Optional[str] = None,
    _root: Optional[str] = None,
    storage: Optional[str] = None,
) -> BatchOffload:
    given = messages_list(messages)
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
        raise InvalidArgumentError(f"invalid argument: threshold must be an integer >= 0, got {threshold!r}")
    out, count, freed, files, unrecognized = _native.offload_tool_results(
        dumps(given, "messages"), path(output_dir, "output_dir"), threshold, _path(cwd), redact_json(redact),
        opt_text(storage, "storage"), _fail_on, _root,
    )
    return BatchOffload(merged(given, out), count, freed, files, unrecognized)


async def offload_tool_results(
    messages: Sequence[Any],
    *,
    output_dir: PathLike,
    threshold: int = DEFAULT_THRESHOLD,
    cwd: Optional[PathLike] = None,
    redact: Redact = None,
    storage: Optional[str] = None,
) -> BatchOffload:
    """Offload every tool result of at least ``threshold`` UTF-16 code units to
    ``<output_dir>/tool-result-<id>.md``, its content replaced by
    ``[Content offloaded to: ./tool-result-<id>.md]`` (a relative ``output_dir`` resolves
    against ``cwd``, default the working directory, or a store's root). The input list is
    left untouched. ``redact=True`` replaces well-known secrets in the files written. ``output_dir`` may
    be an object store's URL, ``s3://bucket/prefix`` (or give ``storage=`` that URL and
    ``output_dir`` a path inside it): see :class:`Materializer`.

    Raises :class:`OffloadError` (``INVALID_ID``, ``INVALID_MESSAGE``, ``WRITE_FAILED``…)
    before anything is written for input errors."""
    return await in_thread(_batch, messages, output_dir, threshold, cwd, redact, None, None, storage)


def offload_tool_results_sync(
    messages: Sequence[Any],
    *,
    output_dir: PathLike,
    threshold: int = DEFAULT_THRESHOLD,
    cwd: Optional[PathLike] = None,
    redact: Redact = None,
    storage: Optional[str] = None,
) -> BatchOffload:
    """:func:`offload_tool_results` in the caller's thread. Raises
    :class:`RunningEventLoopError` inside a running event loop."""
    refuse_in_loop("offload_tool_results")
    return _batch(messages, output_dir, threshold, cwd, redact, storage=storage)


def _direct(
    message: Any,
    session_id: str,
    output_dir: PathLike,
    cwd: Optional[PathLike] = None,
    redact: Redact = None,
    _fail_on: Optional[str] = None,
    _root: Optional[str] = None,
    storage: Optional[str] = None,
) -> DirectOffload:
    text(session_id, "session_id")
    after, freed, file, files = _native.offload_tool_result(
        dumps(message, "message"),
        session_id,
        path(output_dir, "output_dir"),
        _path(cwd),
        redact_json(redact),
        opt_text(storage, "storage"),
        _fail_on,
        _root,
    )
    return DirectOffload(json.loads(after), freed, file, files)


async def offload_tool_result(
    message: Any,
    *,
    session_id: str,
    output_dir: PathLike,
    cwd: Optional[PathLike] = None,
    redact: Redact = None,
    storage: Optional[str] = None,
) -> DirectOffload:
    """Offload every tool result of one message to ``<output_dir>/<session_id>/<id>.md``
    (a repeated id overwrites its file), each replaced by
    ``[Tool result offloaded to file: <path>]``. The message given is left untouched.

    Raises :class:`OffloadError`: ``NO_TOOL_RESULT``, ``ALREADY_OFFLOADED``,
    ``INVALID_ID``, ``INVALID_MESSAGE``, ``WRITE_FAILED``… ``output_dir`` may be an
    object store's URL (``storage=``: as :func:`offload_tool_results`)."""
    return await in_thread(_direct, message, session_id, output_dir, cwd, redact, None, None, storage)


def offload_tool_result_sync(
    message: Any,
    *,
    session_id: str,
    output_dir: PathLike,
    cwd: Optional[PathLike] = None,
    redact: Redact = None,
    storage: Optional[str] = None,
) -> DirectOffload:
    """:func:`offload_tool_result` in the caller's thread."""
    refuse_in_loop("offload_tool_result")
    return _direct(message, session_id, output_dir, cwd, redact, storage=storage)
