"""The :class:`Workspace`: knowledge artifacts with a record each, queried through an
index (SQLite by default)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence

from . import _native
from ._handle import CountTokens, NativeHandle, callable_option, redact_value, tools_value
from ._offload import PathLike, Redact
from ._run import (
    count,
    dumps,
    in_thread,
    merged,
    messages_list,
    names,
    opt_text,
    options_json,
    path,
    refuse_in_loop,
    text,
    whole,
)
from ._types import OffloadedMessages, ToolResultOffload
from .errors import InvalidArgumentError

if TYPE_CHECKING:
    from ._registry import ToolRegistry


def _meta(metadata: Optional[dict[str, Any]]) -> Optional[str]:
    if metadata is None:
        return None
    if not isinstance(metadata, dict):
        raise InvalidArgumentError(f"invalid argument: metadata must be a dict, got {metadata!r}")
    return dumps(metadata, "metadata")


class _ByStorage(str):
    """``index``'s default: ``"sqlite"`` on local files, ``None`` in an object store."""

    def __repr__(self) -> str:
        return "'sqlite' (files) / None (object store)"

    def __reduce__(self) -> str:
        return "_INDEX_DEFAULT"  # pickled as the module's own default


_INDEX_DEFAULT = _ByStorage("sqlite")


class Workspace(NativeHandle):
    """Stores tool results and any knowledge under ``<root>/<namespace>/`` with a record
    each; ``index="sqlite"`` (default on local files) answers queries from a SQLite index,
    ``index="postgres"`` from a PostgreSQL database shared by many workers
    (``postgres=``: a libpq connection string, ``"host=… user=… password=… dbname=…"``),
    ``None`` by scanning the records. ``now`` is the clock (milliseconds since the epoch).

    ``root`` may be an object store's URL, ``s3://bucket/prefix`` (or ``storage=`` that URL
    with ``root`` a path inside it), as :class:`Materializer`'s ``user_data``: records and
    artifacts are objects there, and queries scan the records (``index=None``, the default
    there) or go to ``index="postgres"``; ``"sqlite"`` needs local files."""

    def __init__(
        self,
        root: PathLike,
        *,
        namespace: Optional[str] = None,
        agent_id: Optional[str] = None,
        task_id: Optional[str] = None,
        session_id: Optional[str] = None,
        inline_limit: Optional[int] = None,
        offload_tools: Optional[Sequence[str]] = None,
        tools: Optional[dict[str, Any]] = None,
        token_threshold: Optional[int] = None,
        redact: Redact = None,
        count_tokens: Optional[CountTokens] = None,
        now: Optional[Callable[[], float]] = None,
        index: Optional[str] = _INDEX_DEFAULT,
        postgres: Optional[str] = None,
        storage: Optional[str] = None,
    ) -> None:
        # For pickling (multiprocessing): the same arguments make the same workspace.
        self._given = (
            (root,),
            dict(
                namespace=namespace,
                agent_id=agent_id,
                task_id=task_id,
                session_id=session_id,
                inline_limit=inline_limit,
                offload_tools=offload_tools,
                tools=tools,
                token_threshold=token_threshold,
                redact=redact,
                count_tokens=count_tokens,
                now=now,
                index=index,
                postgres=postgres,
                storage=storage,
            ),
        )
        options = options_json(
            {
                "namespace": opt_text(namespace, "namespace"),
                "agent_id": opt_text(agent_id, "agent_id"),
                "task_id": opt_text(task_id, "task_id"),
                "session_id": opt_text(session_id, "session_id"),
                "inline_limit": count(inline_limit, "inline_limit"),
                "offload_tools": names(offload_tools, "offload_tools"),
                "tools": tools_value(tools),
                "token_threshold": count(token_threshold, "token_threshold"),
                "redact": redact_value(redact),
            }
        )
        self._native = _native.NativeWorkspace(
            path(root, "root"),
            options,
            callable_option(count_tokens, "count_tokens"),
            callable_option(now, "now"),
            None if index is _INDEX_DEFAULT else "none" if index is None else text(index, "index"),
            opt_text(postgres, "postgres"),
            opt_text(storage, "storage"),
        )

    @property
    def namespace(self) -> str:
        """The namespace this workspace stores into."""
        return str(self._native.namespace)

    def offload_tool_result_sync(
        self,
        *,
        tool_call_id: str,
        tool_name: str,
        content: Any,
        action_name: Optional[str] = None,
        metadata: Optional[dict[str, Any]] = None,
    ) -> ToolResultOffload:
        """:meth:`offload_tool_result` in the caller's thread."""
        refuse_in_loop("offload_tool_result")
        offloaded, replacement, artifact_id, reason = self._native.offload_tool_result(
            text(tool_call_id, "tool_call_id"),
            text(tool_name, "tool_name"),
            dumps(content, "content"),
            opt_text(action_name, "action_name"),
            _meta(metadata),
        )
        shown = content if replacement is None else replacement
        return ToolResultOffload(offloaded, shown, artifact_id, reason)

    async def offload_tool_result(
        self,
        *,
        tool_call_id: str,
        tool_name: str,
        content: Any,
        action_name: Optional[str] = None,
        metadata: Optional[dict[str, Any]] = None,
    ) -> ToolResultOffload:
        """Decide and store one tool result as ``tool_result_<tool_call_id>``; over the
        limits, ``content`` is a ``<knowledge_list>`` naming it."""
        return await in_thread(
            self.offload_tool_result_sync,
            tool_call_id=tool_call_id,
            tool_name=tool_name,
            content=content,
            action_name=action_name,
            metadata=metadata,
        )

    def add_sync(
        self, *, id: str, content: Any, type: Optional[str] = None, metadata: Optional[dict[str, Any]] = None
    ) -> dict[str, Any]:
        """:meth:`add` in the caller's thread."""
        refuse_in_loop("add")
        stored: dict[str, Any] = json.loads(self._native.add(
            text(id, "id"), dumps(content, "content"), opt_text(type, "type"), _meta(metadata)
        ))
        return stored

    async def add(
        self, *, id: str, content: Any, type: Optional[str] = None, metadata: Optional[dict[str, Any]] = None
    ) -> dict[str, Any]:
        """Store any knowledge (``metadata`` needs ``context_type``): its record with
        ``path`` and ``reused``."""
        return await in_thread(self.add_sync, id=id, content=content, type=type, metadata=metadata)

    def offload_messages_sync(self, messages: Sequence[Any]) -> OffloadedMessages:
        """:meth:`offload_messages` in the caller's thread."""
        refuse_in_loop("offload_messages")
        given = messages_list(messages)
        out, ids, unrecognized = self._native.offload_messages(dumps(given, "messages"))
        return OffloadedMessages(merged(given, out), ids, unrecognized)

    async def offload_messages(self, messages: Sequence[Any]) -> OffloadedMessages:
        """:meth:`offload_tool_result` over a conversation; ``<knowledge_list>``s left alone."""
        return await in_thread(self.offload_messages_sync, messages)

    def query_artifacts_sync(
        self, filter: Optional[dict[str, Any]] = None, *, limit: Optional[int] = None, offset: int = 0
    ) -> List[dict[str, Any]]:
        """:meth:`query_artifacts` in the caller's thread."""
        refuse_in_loop("query_artifacts")
        found: List[dict[str, Any]] = json.loads(
            self._native.query_artifacts(_meta(filter), count(limit, "limit"), whole(offset, "offset"))
        )
        return found

    async def query_artifacts(
        self, filter: Optional[dict[str, Any]] = None, *, limit: Optional[int] = None, offset: int = 0
    ) -> List[dict[str, Any]]:
        """Records whose metadata equals every field of ``filter``, newest first."""
        return await in_thread(self.query_artifacts_sync, filter, limit=limit, offset=offset)

    def get_tool_result_offload_info_sync(
        self, *, task_id: Optional[str] = None, session_id: Optional[str] = None
    ) -> List[dict[str, Any]]:
        """:meth:`get_tool_result_offload_info` in the caller's thread."""
        refuse_in_loop("get_tool_result_offload_info")
        found: List[dict[str, Any]] = json.loads(
            self._native.tool_result_offload_info(opt_text(task_id, "task_id"), opt_text(session_id, "session_id"))
        )
        return found

    async def get_tool_result_offload_info(
        self, *, task_id: Optional[str] = None, session_id: Optional[str] = None
    ) -> List[dict[str, Any]]:
        """The stored tool results, newest first, of a task and/or session."""
        return await in_thread(self.get_tool_result_offload_info_sync, task_id=task_id, session_id=session_id)

    def get_by_id_sync(self, id: str) -> dict[str, Any]:
        """:meth:`get_by_id` in the caller's thread."""
        refuse_in_loop("get_by_id")
        found: dict[str, Any] = json.loads(self._native.get_by_id(text(id, "id")))
        return found

    async def get_by_id(self, id: str) -> dict[str, Any]:
        """A knowledge artifact's record with its whole ``content``."""
        return await in_thread(self.get_by_id_sync, id)

    def get_by_lines_sync(self, id: str, start_line: int, end_line: Optional[int] = None) -> str:
        """:meth:`get_by_lines` in the caller's thread."""
        refuse_in_loop("get_by_lines")
        return str(self._native.get_by_lines(text(id, "id"), whole(start_line, "start_line"), count(end_line, "end_line")))

    async def get_by_lines(self, id: str, start_line: int, end_line: Optional[int] = None) -> str:
        """Lines ``start_line..=end_line`` (1-based) of a knowledge artifact, numbered."""
        return await in_thread(self.get_by_lines_sync, id, start_line, end_line)

    def grep_sync(
        self,
        id: Optional[str],
        pattern: str,
        ignore_case: bool = False,
        *,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str:
        """:meth:`grep` in the caller's thread."""
        refuse_in_loop("grep")
        return self._grep(opt_text(id, "id"), pattern, ignore_case, context, max_matches)

    async def grep(
        self,
        id: Optional[str],
        pattern: str,
        ignore_case: bool = False,
        *,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str:
        """Rows of a knowledge artifact (of every one when ``id`` is ``None``) matching
        ``pattern``."""
        return await in_thread(self.grep_sync, id, pattern, ignore_case, context=context, max_matches=max_matches)

    def export_namespace_sync(self) -> dict[str, Any]:
        """:meth:`export_namespace` in the caller's thread."""
        refuse_in_loop("export_namespace")
        bundle: dict[str, Any] = json.loads(self._native.export_namespace())
        return bundle

    async def export_namespace(self) -> dict[str, Any]:
        """Every record of the namespace with its content, as one bundle."""
        return await in_thread(self.export_namespace_sync)

    def import_namespace_sync(self, bundle: dict[str, Any]) -> List[str]:
        """:meth:`import_namespace` in the caller's thread."""
        refuse_in_loop("import_namespace")
        return list(self._native.import_namespace(dumps(bundle, "bundle")))

    async def import_namespace(self, bundle: dict[str, Any]) -> List[str]:
        """Restore a bundle from :meth:`export_namespace` into this namespace: the ids."""
        return await in_thread(self.import_namespace_sync, bundle)

    def skipped_records(self) -> List["tuple[str, str]"]:
        """The record files the last walk over every record left out (truncated, emptied,
        garbage), each ``(id, reason)``; the rest answered."""
        return [(str(i), str(r)) for i, r in self._native.skipped_records()]

    def rebuild_index_sync(self) -> None:
        """:meth:`rebuild_index` in the caller's thread."""
        refuse_in_loop("rebuild_index")
        self._native.rebuild_index()

    async def rebuild_index(self) -> None:
        """Rebuild the index from the records, the source of truth (a no-op without one)."""
        await in_thread(self.rebuild_index_sync)

    def register_tools(self, registry: "ToolRegistry") -> None:
        """Register the knowledge tools on ``registry``."""
        registry._native.add_knowledge_tools(self._native, registry._may_wait())
