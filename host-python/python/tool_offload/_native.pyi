"""The extension module (Rust, PyO3): use the ``tool_offload`` package's API instead.
Messages, outputs and options cross as JSON text; results come back as JSON text or
tuples. Checked against the built module by ``python -m mypy.stubtest`` (make lint-python)."""

from typing import Callable, Optional, final

__all__ = [
    "offload_tool_results",
    "offload_tool_result",
    "js_stringify",
    "estimate_tokens",
    "import_conversation",
    "NativeMaterializer",
    "NativeRegistry",
    "NativeWorkspace",
    "ERROR_CODES",
    "DEFAULT_THRESHOLD",
    "MATERIALIZER_KEYS",
    "WORKSPACE_KEYS",
]

ERROR_CODES: list[str]
DEFAULT_THRESHOLD: int
MATERIALIZER_KEYS: list[str]
WORKSPACE_KEYS: list[str]

def offload_tool_results(
    messages: str,
    output_dir: str,
    threshold: int,
    cwd: Optional[str] = None,
    redact: Optional[str] = None,
    storage: Optional[str] = None,
    fail_on: Optional[str] = None,
    root: Optional[str] = None,
) -> tuple[list[Optional[str]], int, int, list[str], list[str]]: ...
def offload_tool_result(
    message: str,
    session_id: str,
    output_dir: str,
    cwd: Optional[str] = None,
    redact: Optional[str] = None,
    storage: Optional[str] = None,
    fail_on: Optional[str] = None,
    root: Optional[str] = None,
) -> tuple[str, int, str, list[str]]: ...
def js_stringify(text: str) -> str: ...
def estimate_tokens(text: str) -> int: ...
def import_conversation(bundle: str, user_data: str, storage: Optional[str] = None) -> tuple[str, str, list[str]]: ...

@final
class NativeMaterializer:
    def __new__(
        cls,
        user_data: str,
        conversation_id: str,
        options: str = "{}",
        count_tokens: Optional[Callable[[str], int]] = None,
        storage: Optional[str] = None,
    ) -> "NativeMaterializer": ...
    @property
    def conversation_id(self) -> str: ...
    def materialize(
        self, tool_name: str, tool_call_id: str, output: str, server_name: Optional[str] = None
    ) -> Optional[tuple[str, Optional[str], Optional[str]]]: ...
    def materialize_binary(
        self, tool_name: str, tool_call_id: str, output: bytes, server_name: Optional[str] = None
    ) -> Optional[tuple[str, Optional[str], Optional[str]]]: ...
    def materialize_call_tool_result(
        self, result: str, tool_name: str, call_id: str, server_name: Optional[str] = None
    ) -> Optional[str]: ...
    def materialize_terminal(self, snippet_id: str, text: str) -> Optional[tuple[str, Optional[str], Optional[str]]]: ...
    def read(
        self,
        reference: str,
        offset: int = 0,
        limit: Optional[int] = None,
        part: Optional[int] = None,
        char: Optional[int] = None,
        path: Optional[str] = None,
    ) -> str: ...
    def tail(self, reference: str, lines: Optional[int] = None) -> str: ...
    def grep(
        self,
        reference: Optional[str],
        pattern: str,
        ignore_case: bool = False,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str: ...
    def materialize_messages(
        self, messages: str, remind_unread: bool = False
    ) -> tuple[list[Optional[str]], str, list[str], list[str]]: ...
    def budget(
        self, messages: str, options: str, count_tokens: Optional[Callable[[str], int]] = None
    ) -> tuple[list[Optional[str]], str]: ...
    def read_stats(self, messages: str) -> str: ...
    def unread_refs(self, messages: str) -> list[str]: ...
    def export_conversation(self, messages: str) -> str: ...
    def stats(self) -> tuple[int, int, int, float]: ...
    def tool_definitions(self, format: str) -> str: ...
    def handle_tool_call(self, name: str, input: str) -> tuple[str, bool]: ...
    def gc(
        self,
        older_than_ms: Optional[int] = None,
        max_bytes: Optional[int] = None,
        keep: Optional[str] = None,
        dry_run: bool = False,
        now_ms: Optional[int] = None,
    ) -> str: ...

@final
class NativeRegistry:
    def __new__(
        cls, offload: Optional[str] = None, materializer: Optional[NativeMaterializer] = None
    ) -> "NativeRegistry": ...
    def register(self, definition: str, handler: Callable[[str], tuple[str, bool]], wait: bool = True) -> None: ...
    def register_todo_tools(self, wait: bool = True) -> None: ...
    def tool_definitions(self, format: str) -> str: ...
    def execute(self, tool_use_id: str, name: str, params: str) -> str: ...
    def add_read_tools(self, materializer: NativeMaterializer, wait: bool = True) -> None: ...
    def add_knowledge_tools(self, workspace: NativeWorkspace, wait: bool = True) -> None: ...

@final
class NativeWorkspace:
    def __new__(
        cls,
        root: str,
        options: str = "{}",
        count_tokens: Optional[Callable[[str], int]] = None,
        now: Optional[Callable[[], float]] = None,
        index: Optional[str] = None,
        postgres: Optional[str] = None,
        storage: Optional[str] = None,
    ) -> "NativeWorkspace": ...
    @property
    def namespace(self) -> str: ...
    def offload_tool_result(
        self,
        tool_call_id: str,
        tool_name: str,
        content: str,
        action_name: Optional[str] = None,
        metadata: Optional[str] = None,
    ) -> tuple[bool, Optional[str], Optional[str], Optional[str]]: ...
    def add(self, id: str, content: str, kind: Optional[str] = None, metadata: Optional[str] = None) -> str: ...
    def offload_messages(self, messages: str) -> tuple[list[Optional[str]], list[str], list[str]]: ...
    def query_artifacts(self, filter: Optional[str] = None, limit: Optional[int] = None, offset: int = 0) -> str: ...
    def tool_result_offload_info(self, task_id: Optional[str] = None, session_id: Optional[str] = None) -> str: ...
    def get_by_id(self, id: str) -> str: ...
    def get_by_lines(self, id: str, start: int, end: Optional[int] = None) -> str: ...
    def grep(
        self,
        id: Optional[str],
        pattern: str,
        ignore_case: bool = False,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str: ...
    def export_namespace(self) -> str: ...
    def import_namespace(self, bundle: str) -> list[str]: ...
    def skipped_records(self) -> list[tuple[str, str]]: ...
    def rebuild_index(self) -> None: ...
    def tool_definitions(self, format: str) -> str: ...

