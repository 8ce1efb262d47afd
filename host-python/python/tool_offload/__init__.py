"""tool_offload: move oversized agent tool results out of the conversation into files.

The same Rust core as the npm package ``tool-offload`` and the Rust crate, byte for byte.
Messages are plain dicts and lists (Anthropic, OpenAI Chat/Responses, LangChain message
dicts). Every async function and method has a ``_sync`` twin for synchronous code.
"""

from __future__ import annotations

from . import _native
from ._handle import CountTokens
from ._materializer import Materializer, import_conversation, import_conversation_sync
from ._offload import (
    DEFAULT_THRESHOLD,
    offload_tool_result,
    offload_tool_result_sync,
    offload_tool_results,
    offload_tool_results_sync,
)
from ._registry import Handler, HandlerResult, ToolRegistry, register_todo_tools
from ._types import (
    BatchOffload,
    BudgetResult,
    Cleared,
    ContextRef,
    DirectOffload,
    GcReport,
    ImportedConversation,
    Materialized,
    MaterializedMessages,
    MaterializeStats,
    OffloadedMessages,
    ReadStat,
    RefHint,
    ToolCallResult,
    ToolResultOffload,
)
from ._workspace import Workspace
from .errors import *  # noqa: F401,F403  (the error classes are part of the API)
from .errors import __all__ as _errors_all

__all__ = [
    "offload_tool_result",
    "offload_tool_result_sync",
    "offload_tool_results",
    "offload_tool_results_sync",
    "Materializer",
    "import_conversation",
    "import_conversation_sync",
    "ToolRegistry",
    "register_todo_tools",
    "Workspace",
    "estimate_tokens",
    "BatchOffload",
    "BudgetResult",
    "Cleared",
    "ContextRef",
    "CountTokens",
    "DirectOffload",
    "GcReport",
    "Handler",
    "HandlerResult",
    "ImportedConversation",
    "Materialized",
    "MaterializedMessages",
    "MaterializeStats",
    "OffloadedMessages",
    "ReadStat",
    "RefHint",
    "ToolCallResult",
    "ToolResultOffload",
    "DEFAULT_THRESHOLD",
    "ERROR_CODES",
    *_errors_all,
]

ERROR_CODES: tuple[str, ...] = tuple(_native.ERROR_CODES)
"""Every ``OffloadError.code``, as the npm package publishes them."""


def estimate_tokens(text: str) -> int:
    """Core's calibrated token estimate of ``text`` (docs/tokens.md)."""
    return int(_native.estimate_tokens(text))
