"""The extension module (Rust, PyO3): use the ``tool_offload`` package's API instead."""

from typing import Optional

ERROR_CODES: list[str]
DEFAULT_THRESHOLD: int

def offload_tool_results(
    messages: str, output_dir: str, threshold: int
) -> tuple[list[Optional[str]], int, int, list[str], list[str]]: ...
def js_stringify(text: str) -> str: ...

class NativeMaterializer:
    def __init__(
        self,
        user_data: str,
        conversation_id: str,
        max_inline_chars: Optional[int] = None,
        max_inline_bytes: Optional[int] = None,
        snippet_lines: Optional[int] = None,
        snippet_bytes: Optional[int] = None,
        offload_dir: Optional[str] = None,
    ) -> None: ...
    @property
    def conversation_id(self) -> str: ...
    def materialize(
        self, tool_name: str, tool_call_id: str, output: str, server_name: Optional[str] = None
    ) -> Optional[tuple[str, Optional[str], Optional[str]]]: ...
    def read(self, reference: str, offset: int = 0, limit: Optional[int] = None) -> str: ...
    def tail(self, reference: str, lines: Optional[int] = None) -> str: ...
    def grep(
        self,
        reference: str,
        pattern: str,
        ignore_case: bool = False,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str: ...
