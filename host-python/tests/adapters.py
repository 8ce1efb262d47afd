"""What every adapter test shares: a big tool output with one needle line, and the
scripted model's moves (call the tool; read the summary and grep its ref; answer)."""

from __future__ import annotations

import re
from typing import Optional

import pytest


def require(module: str) -> None:
    """Skip the calling test module when its framework is not installed (Google ADK's lives
    in a venv of its own: make test-python-adk)."""
    pytest.importorskip(module)


NEEDLE = "shard 1234 checksum 7f3a9c0e"
LOG = "\n".join(NEEDLE if i == 1234 else f"shard {i} checksum pending" for i in range(3000))
"""About 80 kB: over every default inline limit; the needle, in no line a summary shows
or flags, is found only by reading back."""
PATTERN = "checksum [0-9a-f]+"
"""What the scripted models grep for."""
SMALL = "build ok"
REF = re.compile(r"ctx://[^\s\"')\]:,]+")


def ref_in(summary: str) -> Optional[str]:
    """The ref a summary names (what the model reads to call ``context_grep``)."""
    found = REF.search(summary)
    return found.group(0) if found else None


def assert_summary(content: object, tool: str = "bash") -> str:
    """``content`` is a summary of ``LOG`` (not the log), naming its ref; the ref."""
    assert isinstance(content, str), content
    assert content.startswith(f"[Output of {tool} "), content[:200]
    assert NEEDLE not in content
    assert len(content) < len(LOG) // 4
    ref = ref_in(content)
    assert ref is not None
    return ref
