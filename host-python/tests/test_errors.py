"""OffloadError: every code the core publishes has its subclass."""

from __future__ import annotations

import tool_offload
from tool_offload import _native, errors


def test_every_core_code_has_a_subclass() -> None:
    assert tuple(_native.ERROR_CODES) == tool_offload.ERROR_CODES
    assert "WRITE_FAILED" in tool_offload.ERROR_CODES
    for code in tool_offload.ERROR_CODES:
        cls = errors._BY_CODE[code]
        assert issubclass(cls, tool_offload.OffloadError) and cls.code == code
    assert set(errors._BY_CODE) == set(tool_offload.ERROR_CODES)


def test_from_native() -> None:
    err = errors._from_native("READ_FAILED", "failed to read /x: gone", "/x")
    assert isinstance(err, tool_offload.ReadFailedError) and isinstance(err, OSError)
    assert (err.code, err.path, str(err)) == ("READ_FAILED", "/x", "failed to read /x: gone")
    unknown = errors._from_native("SOMETHING_NEW", "m", None)
    assert type(unknown) is tool_offload.OffloadError and unknown.code == "SOMETHING_NEW"


def test_py_typed_shipped() -> None:
    from pathlib import Path

    assert (Path(tool_offload.__file__).parent / "py.typed").exists()
