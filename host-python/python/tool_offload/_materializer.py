"""The :class:`Materializer`: tool outputs over the inline limits become artifacts with a
summary and a ``ctx://`` ref the model reads back."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence

from . import _native
from ._handle import CountTokens, NativeHandle, callable_option, redact_value, tools_value
from ._handle import _rebuild as _rebuild  # where pickles of earlier versions name it
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
from ._types import (
    BudgetResult,
    Cleared,
    ContextRef,
    GcReport,
    ImportedConversation,
    Materialized,
    MaterializedMessages,
    MaterializeStats,
    ReadStat,
    RefArg,
    ToolCallResult,
)
from .errors import InvalidArgumentError

if TYPE_CHECKING:
    from ._registry import ToolRegistry

def _ref(ref: RefArg) -> str:
    if isinstance(ref, ContextRef):
        return ref.id
    if isinstance(ref, str):
        return ref
    raise InvalidArgumentError(f"invalid argument: ref must be a str or ContextRef, got {type(ref).__name__}")


class Materializer(NativeHandle):
    """Moves tool outputs over the inline limits (``max_inline_chars`` UTF-16 units,
    default 4000; ``max_inline_bytes`` UTF-8 bytes, default 16384) into artifacts of one
    conversation (``<user_data>/context/<conversation_id>/artifacts/``) and reads them
    back for the model. Methods may be called concurrently, from threads or tasks.

    ``tools`` sets per-tool limits (``{"bash": {"max_inline_chars": 8000, "materialize":
    "never" | "always", "max_inline_tokens": …}}``); ``redact=True`` (or ``{"patterns":
    […], "replace": …}``) keeps well-known secrets out of artifacts and summaries;
    ``count_tokens`` counts a text's tokens (called from the worker thread, under the
    GIL; what it raises fails the call at once, as an :class:`InvalidArgumentError` whose
    ``__cause__`` it is).

    ``user_data`` may be an object store's URL, ``s3://bucket/prefix`` (as the CLI's
    ``--user-data``): artifacts are then objects under that prefix, its root standing for
    ``/``; credentials, region and endpoint come from the ``AWS_*`` environment
    (``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_REGION``,
    ``AWS_ENDPOINT_URL``…). ``storage="s3://bucket/prefix"`` does the same with
    ``user_data`` a path inside the store (the npm package's ``writer: new S3Io(…)``).
    Workers on other machines given the same URL read each other's artifacts."""

    def __init__(
        self,
        user_data: PathLike,
        conversation_id: str,
        *,
        max_inline_chars: Optional[int] = None,
        max_inline_bytes: Optional[int] = None,
        snippet_lines: Optional[int] = None,
        snippet_bytes: Optional[int] = None,
        offload_dir: Optional[PathLike] = None,
        tools: Optional[dict[str, Any]] = None,
        redact: Redact = None,
        message_budget_chars: Optional[int] = None,
        context_window: Optional[dict[str, Any]] = None,
        count_tokens: Optional[CountTokens] = None,
        storage: Optional[str] = None,
    ) -> None:
        # For pickling (multiprocessing): the same arguments make the same materializer.
        self._given = (
            (user_data, conversation_id),
            dict(
                max_inline_chars=max_inline_chars,
                max_inline_bytes=max_inline_bytes,
                snippet_lines=snippet_lines,
                snippet_bytes=snippet_bytes,
                offload_dir=offload_dir,
                tools=tools,
                redact=redact,
                message_budget_chars=message_budget_chars,
                context_window=context_window,
                count_tokens=count_tokens,
                storage=storage,
            ),
        )
        text(conversation_id, "conversation_id")
        window = None
        if context_window is not None:
            if not isinstance(context_window, dict) or set(context_window) - {"tokens", "result_share"}:
                raise InvalidArgumentError(
                    f"invalid argument: context_window must be a dict of tokens and result_share, got {context_window!r}"
                )
            window = {"tokens": context_window.get("tokens"), "resultShare": context_window.get("result_share")}
        options = options_json(
            {
                "max_inline_chars": count(max_inline_chars, "max_inline_chars"),
                "max_inline_bytes": count(max_inline_bytes, "max_inline_bytes"),
                "snippet_lines": count(snippet_lines, "snippet_lines"),
                "snippet_bytes": count(snippet_bytes, "snippet_bytes"),
                "offload_dir": None if offload_dir is None else path(offload_dir, "offload_dir"),
                "tools": tools_value(tools),
                "redact": redact_value(redact),
                "message_budget_chars": count(message_budget_chars, "message_budget_chars"),
                "context_window": window,
            }
        )
        self._native = _native.NativeMaterializer(
            path(user_data, "user_data"),
            conversation_id,
            options,
            callable_option(count_tokens, "count_tokens"),
            opt_text(storage, "storage"),
        )

    @property
    def conversation_id(self) -> str:
        """The conversation whose artifacts this materializer writes and may read."""
        return str(self._native.conversation_id)

    # One output.

    def materialize_sync(
        self, *, tool_name: str, tool_call_id: str, output: Any, server_name: Optional[str] = None
    ) -> Materialized:
        """:meth:`materialize` in the caller's thread."""
        refuse_in_loop("materialize")
        if isinstance(output, (bytes, bytearray, memoryview)):
            done = self._native.materialize_binary(
                text(tool_name, "tool_name"), text(tool_call_id, "tool_call_id"), bytes(output), opt_text(server_name, "server_name")
            )
        else:
            done = self._native.materialize(
                text(tool_name, "tool_name"),
                text(tool_call_id, "tool_call_id"),
                dumps(output, "output"),
                opt_text(server_name, "server_name"),
            )
        if done is None:
            return Materialized(inline=True, content=output)
        return _materialized(done)

    async def materialize(
        self, *, tool_name: str, tool_call_id: str, output: Any, server_name: Optional[str] = None
    ) -> Materialized:
        """Leave ``output`` (a str, or any JSON value) inline when within the limits;
        otherwise write it to an artifact first and give its summary and ref. Binary
        ``output`` (``bytes``) always goes to a ``.bin`` artifact."""
        return await in_thread(
            self.materialize_sync, tool_name=tool_name, tool_call_id=tool_call_id, output=output, server_name=server_name
        )

    def materialize_call_tool_result_sync(
        self, result: dict[str, Any], *, tool_name: str, call_id: str, server_name: Optional[str] = None
    ) -> dict[str, Any]:
        """:meth:`materialize_call_tool_result` in the caller's thread."""
        refuse_in_loop("materialize_call_tool_result")
        if not isinstance(result, dict):
            raise InvalidArgumentError(f"invalid argument: result must be a dict, got {type(result).__name__}")
        done = self._native.materialize_call_tool_result(
            dumps(result, "result"), text(tool_name, "tool_name"), text(call_id, "call_id"), opt_text(server_name, "server_name")
        )
        if done is None:
            return result
        out: dict[str, Any] = json.loads(done)
        return out

    async def materialize_call_tool_result(
        self, result: dict[str, Any], *, tool_name: str, call_id: str, server_name: Optional[str] = None
    ) -> dict[str, Any]:
        """An MCP ``CallToolResult`` (a dict): over the limits, its text is stored and
        becomes the summary plus a ``resource_link`` to the artifact (``isError``, ``_meta``
        and non-text content stay as they are; an oversized ``structuredContent`` is
        stored too). Within them, the very dict given."""
        return await in_thread(
            self.materialize_call_tool_result_sync, result, tool_name=tool_name, call_id=call_id, server_name=server_name
        )

    def materialize_terminal_sync(self, snippet_id: str, output: str) -> Materialized:
        """:meth:`materialize_terminal` in the caller's thread."""
        refuse_in_loop("materialize_terminal")
        done = self._native.materialize_terminal(text(snippet_id, "snippet_id"), dumps(text(output, "text"), "text"))
        return Materialized(inline=True, content=output) if done is None else _materialized(done)

    async def materialize_terminal(self, snippet_id: str, output: str) -> Materialized:
        """A terminal snippet's text, materialized as a tool output is (its artifact is
        ``…/artifacts/terminal/<snippet_id>.log``)."""
        return await in_thread(self.materialize_terminal_sync, snippet_id, output)

    # A conversation.

    def materialize_messages_sync(
        self, messages: Sequence[Any], *, remind_unread: bool = False
    ) -> MaterializedMessages:
        """:meth:`materialize_messages` in the caller's thread."""
        refuse_in_loop("materialize_messages")
        given = messages_list(messages)
        out, refs, paths, unrecognized = self._native.materialize_messages(
            dumps(given, "messages"), bool(remind_unread)
        )
        return MaterializedMessages(
            merged(given, out), [ContextRef._from_value(r) for r in json.loads(refs)], paths, unrecognized
        )

    async def materialize_messages(
        self, messages: Sequence[Any], *, remind_unread: bool = False
    ) -> MaterializedMessages:
        """Every tool result over the limits gets its summary as content; content that
        already is a summary is left alone, so this can run on every turn. With
        ``remind_unread``, one line at the end of the last user turn names the results
        that reported errors and that the model never read back."""
        return await in_thread(self.materialize_messages_sync, messages, remind_unread=remind_unread)

    def budget_sync(
        self,
        messages: Sequence[Any],
        *,
        trigger_tokens: int,
        keep_last: Optional[int] = None,
        clear_at_least_tokens: Optional[int] = None,
        exclude_tools: Optional[Sequence[str]] = None,
        count_tokens: Optional[CountTokens] = None,
    ) -> BudgetResult:
        """:meth:`budget` in the caller's thread."""
        refuse_in_loop("budget")
        given = messages_list(messages)
        options = options_json(
            {
                "trigger_tokens": count(trigger_tokens, "trigger_tokens"),
                "keep_last": count(keep_last, "keep_last"),
                "clear_at_least_tokens": count(clear_at_least_tokens, "clear_at_least_tokens"),
                "exclude_tools": names(exclude_tools, "exclude_tools"),
            }
        )
        out, rest = self._native.budget(dumps(given, "messages"), options, callable_option(count_tokens, "count_tokens"))
        r = json.loads(rest)
        cleared = [
            Cleared(c["message"], c["toolCallId"], c["toolName"], c["ref"], c["chars"], c["tokens"])
            for c in r["cleared"]
        ]
        return BudgetResult(
            messages=merged(given, out),
            cleared=cleared,
            tokens_before=r["tokensBefore"],
            tokens_after=r["tokensAfter"],
            rewritten_from_message=r["rewrittenFromMessage"],
            refs=[ContextRef._from_value(x) for x in r["refs"]],
            paths=r["paths"],
        )

    async def budget(
        self,
        messages: Sequence[Any],
        *,
        trigger_tokens: int,
        keep_last: Optional[int] = None,
        clear_at_least_tokens: Optional[int] = None,
        exclude_tools: Optional[Sequence[str]] = None,
        count_tokens: Optional[CountTokens] = None,
    ) -> BudgetResult:
        """Clear old tool results when the history is over budget: each message counted
        as its ``JSON.stringify`` by ``count_tokens`` (this call's, else the
        materializer's, else core's estimate); past
        ``trigger_tokens``, results before the last ``keep_last`` (default 3, not of
        ``exclude_tools``) become one-line pointers to their artifacts, oldest first, if
        that saves ``clear_at_least_tokens`` (default a tenth of the trigger). Send what it
        returns; give it that plus the new messages next turn."""
        return await in_thread(
            self.budget_sync,
            messages,
            trigger_tokens=trigger_tokens,
            keep_last=keep_last,
            clear_at_least_tokens=clear_at_least_tokens,
            exclude_tools=exclude_tools,
            count_tokens=count_tokens,
        )

    def unread_refs(self, messages: Sequence[Any]) -> List[str]:
        """The refs shown in part (a summary) that the model never read back."""
        return list(self._native.unread_refs(dumps(messages_list(messages), "messages")))

    def read_stats(self, messages: Sequence[Any]) -> List[ReadStat]:
        """Each ref shown in part, with how often it was read back and whether a read failed."""
        stats = json.loads(self._native.read_stats(dumps(messages_list(messages), "messages")))
        return [ReadStat(s["ref"], s["toolCallId"], s["reads"], s["errors"]) for s in stats]

    def stats(self) -> MaterializeStats:
        """Outputs materialized, left inline, and the characters kept out."""
        return MaterializeStats(*self._native.stats())

    def export_conversation_sync(self, messages: Sequence[Any]) -> dict[str, Any]:
        """:meth:`export_conversation` in the caller's thread."""
        refuse_in_loop("export_conversation")
        bundle: dict[str, Any] = json.loads(self._native.export_conversation(dumps(messages_list(messages), "messages")))
        return bundle

    async def export_conversation(self, messages: Sequence[Any]) -> dict[str, Any]:
        """One self-contained bundle (a dict) of ``messages`` and every artifact they
        refer to, each with its SHA-256: give it to :func:`import_conversation`."""
        return await in_thread(self.export_conversation_sync, messages)

    def gc_sync(
        self,
        *,
        older_than_ms: Optional[int] = None,
        max_bytes: Optional[int] = None,
        keep: Optional[Sequence[Any]] = None,
        dry_run: bool = False,
    ) -> GcReport:
        """:meth:`gc` in the caller's thread."""
        refuse_in_loop("gc")
        if older_than_ms is None and max_bytes is None:
            raise InvalidArgumentError("invalid argument: gc needs older_than_ms or max_bytes")
        keep_json = None if keep is None else dumps(messages_list(keep, "keep"), "keep")
        report = json.loads(
            self._native.gc(
                count(older_than_ms, "older_than_ms"), count(max_bytes, "max_bytes"), keep_json, bool(dry_run)
            )
        )
        return GcReport(report["removed"], report["bytes"], report["kept"], report["keptBytes"])

    async def gc(
        self,
        *,
        older_than_ms: Optional[int] = None,
        max_bytes: Optional[int] = None,
        keep: Optional[Sequence[Any]] = None,
        dry_run: bool = False,
    ) -> GcReport:
        """Retention under this materializer's user data (every conversation): remove
        artifacts older than ``older_than_ms``, then the least recently written until at
        most ``max_bytes`` remain; never one the messages ``keep`` refer to."""
        return await in_thread(self.gc_sync, older_than_ms=older_than_ms, max_bytes=max_bytes, keep=keep, dry_run=dry_run)

    # Reading back.

    def read_sync(
        self,
        ref: RefArg,
        offset: int = 0,
        limit: Optional[int] = None,
        *,
        part: Optional[int] = None,
        char: Optional[int] = None,
        path: Optional[str] = None,
    ) -> str:
        """:meth:`read` in the caller's thread."""
        refuse_in_loop("read")
        return str(
            self._native.read(
                _ref(ref),
                whole(offset, "offset"),
                count(limit, "limit"),
                count(part, "part"),
                count(char, "char"),
                opt_text(path, "path"),
            )
        )

    async def read(
        self,
        ref: RefArg,
        offset: int = 0,
        limit: Optional[int] = None,
        *,
        part: Optional[int] = None,
        char: Optional[int] = None,
        path: Optional[str] = None,
    ) -> str:
        """Lines ``offset .. offset + limit`` (default 200) of an artifact, numbered; from
        part ``part`` or character ``char`` of a long first line; of what the JSON path
        ``path`` (``$.items[0]``, ``/items/0``) selects."""
        return await in_thread(self.read_sync, ref, offset, limit, part=part, char=char, path=path)

    def tail_sync(self, ref: RefArg, lines: Optional[int] = None) -> str:
        """:meth:`tail` in the caller's thread."""
        refuse_in_loop("tail")
        return str(self._native.tail(_ref(ref), count(lines, "lines")))

    async def tail(self, ref: RefArg, lines: Optional[int] = None) -> str:
        """The last ``lines`` (default 200) rows of an artifact."""
        return await in_thread(self.tail_sync, ref, lines)

    def grep_sync(
        self,
        ref: Optional[RefArg],
        pattern: str,
        ignore_case: bool = False,
        *,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str:
        """:meth:`grep` in the caller's thread."""
        refuse_in_loop("grep")
        return self._grep(None if ref is None else _ref(ref), pattern, ignore_case, context, max_matches)

    async def grep(
        self,
        ref: Optional[RefArg],
        pattern: str,
        ignore_case: bool = False,
        *,
        context: Optional[int] = None,
        max_matches: Optional[int] = None,
    ) -> str:
        """Rows of an artifact (of every artifact of the conversation when ``ref`` is
        ``None``) matching the regular expression ``pattern``, with ``context`` (default 2)
        rows around each, at most ``max_matches`` (default 50)."""
        return await in_thread(
            self.grep_sync, ref, pattern, ignore_case, context=context, max_matches=max_matches
        )

    def handle_tool_call_sync(self, name: str, input: Any) -> ToolCallResult:
        """:meth:`handle_tool_call` in the caller's thread."""
        refuse_in_loop("handle_tool_call")
        content, is_error = self._native.handle_tool_call(text(name, "name"), dumps(input, "input"))
        return ToolCallResult(content, is_error)

    async def handle_tool_call(self, name: str, input: Any) -> ToolCallResult:
        """Run the read tool ``name`` on the model's ``input`` (a dict): a bad argument, a
        bad ref or an unknown tool is an ``is_error`` result the model can act on."""
        return await in_thread(self.handle_tool_call_sync, name, input)

    def register_tools(self, registry: "ToolRegistry") -> None:
        """Register ``context_read``, ``context_tail`` and ``context_grep`` on ``registry``."""
        registry._native.add_read_tools(self._native, registry._may_wait())


def _materialized(done: "tuple[str, Optional[str], Optional[str]]") -> Materialized:
    content, ref, path = done
    if ref is None:
        return Materialized(inline=True, content=content)
    return Materialized(inline=False, content=content, ref=ContextRef._from_json(ref), path=path)


def import_conversation_sync(
    bundle: dict[str, Any], *, user_data: PathLike, storage: Optional[str] = None
) -> ImportedConversation:
    """:func:`import_conversation` in the caller's thread."""
    refuse_in_loop("import_conversation")
    conversation_id, messages, paths = _native.import_conversation(
        dumps(bundle, "bundle"), path(user_data, "user_data"), opt_text(storage, "storage")
    )
    return ImportedConversation(conversation_id, json.loads(messages), paths)


async def import_conversation(
    bundle: dict[str, Any], *, user_data: PathLike, storage: Optional[str] = None
) -> ImportedConversation:
    """Restore a bundle from :meth:`Materializer.export_conversation` under ``user_data``
    (an object store's URL, or a path in ``storage``, as :class:`Materializer`'s),
    so every ref in its messages resolves again. Refuses (``INVALID_BUNDLE``, before
    writing anything) a bundle whose hashes do not match, and never overwrites a
    different file (``ARTIFACT_EXISTS``)."""
    return await in_thread(import_conversation_sync, bundle, user_data=user_data, storage=storage)


__all__ = ["Materializer", "import_conversation", "import_conversation_sync", "CountTokens"]
