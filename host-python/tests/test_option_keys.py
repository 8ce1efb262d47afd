"""The keyword arguments of Materializer and Workspace are the options core reads.

Core names its options once (``option_keys.rs``, the npm package's camelCase names); the
Python classes take them as snake_case keywords. An option added to core and not here, or
a keyword core would refuse, fails this test; what each side has that the other has not
is named below, with why."""

from __future__ import annotations

import inspect
from typing import Any

import tool_offload
from tool_offload import _native
from tool_offload._run import camel

# The npm package's IO and callbacks: Python writes through `storage` (or local files)
# and logs through `logging`; relative paths resolve against the process's directory.
JS_ONLY = {"cwd", "writer", "reader", "logger"}


def keywords(cls: Any) -> set[str]:
    # The extension's own renaming (`options_json`), so the test reads what core is given.
    return {camel(p) for p in list(inspect.signature(cls.__init__).parameters)[1:]}


def test_materializer_keywords_are_core_options() -> None:
    python_only = {"storage"}  # an object store's URL: the npm package's `writer: new S3Io(…)`
    assert keywords(tool_offload.Materializer) - python_only == set(_native.MATERIALIZER_KEYS) - JS_ONLY


def test_workspace_keywords_are_core_options() -> None:
    # The index (SQLite, PostgreSQL or none) is chosen by name; `sha256` is the npm
    # package's hook for a faster digest in browsers.
    python_only = {"index", "postgres", "storage"}
    assert keywords(tool_offload.Workspace) - python_only == set(_native.WORKSPACE_KEYS) - JS_ONLY - {"sha256"}
