"""The errors of tool_offload: ``OffloadError`` with a stable ``code``, the same codes as
the npm package's ``ErrorCode`` (core/src/error.rs), and a subclass per code."""

from __future__ import annotations

from typing import Optional

__all__ = [
    "OffloadError",
    "NoToolResultError",
    "AlreadyOffloadedError",
    "InvalidIdError",
    "InvalidMessageError",
    "InvalidArgumentError",
    "WriteFailedError",
    "InvalidToolNameError",
    "DuplicateToolError",
    "InvalidToolDefinitionError",
    "RefOutOfScopeError",
    "RefNotFoundError",
    "ReadFailedError",
    "InvalidPatternError",
    "InvalidBundleError",
    "ArtifactExistsError",
    "AbortedError",
    "RunningEventLoopError",
]


class OffloadError(Exception):
    """Every error tool_offload raises. ``code`` is stable (e.g. ``"INVALID_ID"``);
    ``path`` names the file for ``WRITE_FAILED`` and ``READ_FAILED``, else ``None``."""

    code: str = "INVALID_ARGUMENT"

    def __init__(self, message: str, code: Optional[str] = None, path: Optional[str] = None):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.path = path

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, code={self.code!r})"



class NoToolResultError(OffloadError):
    """The message holds no tool result."""

    code = "NO_TOOL_RESULT"


class AlreadyOffloadedError(OffloadError):
    """Every tool result of the message already is a placeholder."""

    code = "ALREADY_OFFLOADED"


class InvalidIdError(OffloadError):
    """A tool-call id or session id is missing, not a string, or not a safe file name."""

    code = "INVALID_ID"


class InvalidMessageError(OffloadError):
    """The message is not shaped like a message of a supported format."""

    code = "INVALID_MESSAGE"


class InvalidArgumentError(OffloadError, ValueError):
    """Another argument (output directory, working directory, an option) is unusable."""

    code = "INVALID_ARGUMENT"


class WriteFailedError(OffloadError, OSError):
    """Writing a file failed; ``path`` names it."""

    code = "WRITE_FAILED"


class InvalidToolNameError(OffloadError):
    """A tool name the model APIs refuse."""

    code = "INVALID_TOOL_NAME"


class DuplicateToolError(OffloadError):
    """A tool with this name is already registered."""

    code = "DUPLICATE_TOOL"


class InvalidToolDefinitionError(OffloadError):
    """A tool definition is not ``{name, description, input_schema}``."""

    code = "INVALID_TOOL_DEFINITION"


class RefOutOfScopeError(OffloadError):
    """A ref names another conversation, a path outside its artifacts, or is malformed."""

    code = "REF_OUT_OF_SCOPE"


class RefNotFoundError(OffloadError):
    """A ref is in scope but no artifact exists there."""

    code = "REF_NOT_FOUND"


class ReadFailedError(OffloadError, OSError):
    """Reading a file failed; ``path`` names it."""

    code = "READ_FAILED"


class InvalidPatternError(OffloadError, ValueError):
    """A search pattern is not a valid (supported) regular expression."""

    code = "INVALID_PATTERN"


class InvalidBundleError(OffloadError):
    """A conversation bundle is malformed or fails its check."""

    code = "INVALID_BUNDLE"


class ArtifactExistsError(OffloadError):
    """Importing would overwrite a different artifact already on disk."""

    code = "ARTIFACT_EXISTS"


class AbortedError(OffloadError):
    """The operation was cancelled; nothing is reported as done."""

    code = "ABORTED"


class RunningEventLoopError(OffloadError, RuntimeError):
    """A ``_sync`` method was called inside a running event loop: await its async twin.
    Its code is ``INVALID_ARGUMENT`` (the npm package has no such case)."""

    code = "INVALID_ARGUMENT"


_BY_CODE: dict[str, type[OffloadError]] = {
    cls.code: cls
    for cls in (
        NoToolResultError,
        AlreadyOffloadedError,
        InvalidIdError,
        InvalidMessageError,
        InvalidArgumentError,
        WriteFailedError,
        InvalidToolNameError,
        DuplicateToolError,
        InvalidToolDefinitionError,
        RefOutOfScopeError,
        RefNotFoundError,
        ReadFailedError,
        InvalidPatternError,
        InvalidBundleError,
        ArtifactExistsError,
        AbortedError,
    )
}


def _from_native(code: str, message: str, path: Optional[str]) -> OffloadError:
    """The exception the extension raises for ``code`` (called from Rust)."""
    cls = _BY_CODE.get(code, OffloadError)
    return cls(message, code, path)
