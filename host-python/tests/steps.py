"""The conformance vectors (tests/vectors/*.json, format in tests/vectors/README.md) on
the Python package: a small interpreter of their steps, mirroring tests/harness/steps.ts
and tests/conformance/src/steps. Each vector runs on real files under a temporary
directory standing for `/`; its canonical outcome, printed as JSON.stringify prints it,
is what every other host records in target/conformance/<host>.json."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any, Callable, Optional

import tool_offload as to
from tool_offload import _native
from tool_offload._offload import _batch, _direct
from tool_offload._run import dumps

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors"

Json = Any


def js(value: Json) -> str:
    """``value`` printed as JavaScript's JSON.stringify prints it (core's printer)."""
    return str(_native.js_stringify(dumps(value, "value")))


def expand(value: Json) -> Json:
    """``value`` with every ``{"$text": [...]}`` recipe expanded."""
    if isinstance(value, list):
        return [expand(v) for v in value]
    if not isinstance(value, dict):
        return value
    if list(value) == ["$text"] and isinstance(value["$text"], list):
        return "".join(p if isinstance(p, str) else p[0] * p[1] for p in value["$text"])
    return {k: expand(v) for k, v in value.items()}


def load_vectors() -> list[dict[str, Any]]:
    """Every vector, expanded, sorted by file name, with its ``id``."""
    out = []
    for path in sorted(VECTORS.glob("*.json")):
        vector = expand(json.loads(path.read_text(encoding="utf-8")))
        vector["id"] = path.stem
        out.append(vector)
    return out


class Unblessed(Exception):
    pass


def resolve(value: Json, actual: list[Json], expectation: bool) -> Json:
    """``value`` with ``$from`` replaced by earlier results and, in expectations,
    ``$core`` unwrapped."""
    if isinstance(value, list):
        return [resolve(v, actual, expectation) for v in value]
    if not isinstance(value, dict):
        return value
    if list(value) == ["$from"]:
        step, *path = value["$from"]
        at = actual[step] if step < len(actual) else None
        for key in path:
            try:
                at = at[key] if at is not None else None
            except (KeyError, IndexError, TypeError):
                at = None
        return at
    if expectation and list(value) == ["$core"]:
        if value["$core"] is None:
            raise Unblessed()
        return value["$core"]
    return {k: resolve(v, actual, expectation) for k, v in value.items()}


def expected_outcome(vector: dict[str, Any], actual: list[Json]) -> Optional[str]:
    """The expected canonical outcome given the actual step results; None while unblessed."""
    try:
        steps = [
            {"error": resolve(s["error"], actual, True)} if "error" in s else {"expect": resolve(s.get("expect"), actual, True)}
            for s in vector["steps"]
        ]
    except Unblessed:
        return None
    return js({"steps": steps, "files": vector["files"]})


def canonical_ref(r: to.ContextRef) -> Json:
    # As every runner pins refs: without the hint's redacted counts.
    out = r.to_dict()
    out["hint"].pop("redacted", None)
    return out


def canonical_bundle(b: dict[str, Any]) -> Json:
    out: dict[str, Any] = {k: b.get(k) for k in ("format", "version", "conversationId", "messages")}
    artifacts = b.get("artifacts")
    out["artifacts"] = (
        [{k: a.get(k) for k in ("ref", "path", "sha256", "content")} for a in artifacts]
        if isinstance(artifacts, list)
        else None
    )
    for k, v in b.items():
        if k not in out:
            out[k] = v
    return out


def files_under(root: Path) -> dict[str, str]:
    """Every file under ``root`` by virtual path, in byte order; the SQLite index left out
    (the tokio host's own cache, as its runner leaves it out)."""
    found = {}
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            if name.startswith("index.sqlite"):
                continue
            p = Path(dirpath) / name
            found["/" + p.relative_to(root).as_posix()] = p.read_bytes().decode("utf-8")
    return dict(sorted(found.items(), key=lambda kv: kv[0].encode("utf-8", "surrogatepass")))


def unroot(value: Json, root: str) -> Json:
    """``value`` with the real root taken out of every string (paths in messages)."""
    if isinstance(value, str):
        return value.replace(root, "")
    if isinstance(value, list):
        return [unroot(v, root) for v in value]
    if isinstance(value, dict):
        return {k: unroot(v, root) for k, v in value.items()}
    return value


def words(text: str) -> int:
    """The vectors' ``countTokens: "words"``: space-separated words."""
    return len(text.split(" "))


def handler(spec: dict[str, Any]) -> Callable[[Any], Any]:
    if isinstance(spec.get("returns"), dict):
        out = spec["returns"]

        def returns(_params: Any) -> Any:
            return {"content": out.get("content"), "is_error": out.get("is_error") is True}

        return returns
    if isinstance(spec.get("fails"), str):
        message = spec["fails"]

        def fails(_params: Any) -> Any:
            raise Exception(message)

        return fails
    if spec.get("echo") is True:
        return lambda params: js(params)
    raise ValueError(f"unknown handler {spec!r}")


def tools_option(tools: Optional[dict[str, Any]]) -> Optional[dict[str, Any]]:
    if tools is None:
        return None
    names = {"maxInlineChars": "max_inline_chars", "maxInlineBytes": "max_inline_bytes",
             "maxInlineTokens": "max_inline_tokens", "materialize": "materialize"}
    return {name: {names[k]: v for k, v in t.items()} for name, t in tools.items()}


def context_window(w: Optional[dict[str, Any]]) -> Optional[dict[str, Any]]:
    return None if w is None else {"tokens": w.get("tokens"), "result_share": w.get("resultShare")}
