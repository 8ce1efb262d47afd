"""Shared helpers: the repository's conformance vectors (tests/vectors) on real files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors"


def load_vector(name: str) -> dict[str, Any]:
    """A vector by file name; its `$core` texts (blessed from core) read as plain text."""
    raw = json.loads((VECTORS / name).read_text(encoding="utf-8"))
    return unwrap_core(raw)


def unwrap_core(value: Any) -> Any:
    if isinstance(value, dict):
        if list(value) == ["$core"]:
            return value["$core"]
        return {k: unwrap_core(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unwrap_core(v) for v in value]
    return value


def compact(value: Any) -> str:
    """JSON text as JavaScript's JSON.stringify prints it (for these vectors' values)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def js(value: Any) -> str:
    """``value`` printed as JavaScript's JSON.stringify prints it (core's printer)."""
    from tool_offload import _native
    from tool_offload._run import dumps

    return _native.js_stringify(dumps(value, "value"))


@pytest.fixture(scope="session")
def moto() -> Any:
    """One moto server for the session (buckets ``artifacts`` and ``vectors``), the
    ``AWS_*`` environment pointing at it while it runs."""
    from moto import Moto, restore_env, set_env

    server = Moto("artifacts", "vectors")
    before = set_env(server.env)
    yield server
    restore_env(before)
    server.stop()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The vectors' virtual `/`: a temporary directory."""
    return tmp_path


# Lines tests want in the run's summary (test_conformance: python.json beside each host's).
SUMMARY: list[str] = []


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for line in SUMMARY:
        terminalreporter.write_line(line)
