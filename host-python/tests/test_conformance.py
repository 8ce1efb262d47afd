"""Python's canonical outcomes for the batch vectors, in the form every host records them
(tests/conformance: `{"steps": [{"expect": …} | {"error": …}], "files": {…}}` printed as
JSON.stringify prints), recorded in target/conformance/python-batch.json and compared
byte for byte with another host's recording when there is one (`make test` writes them;
TOOL_OFFLOAD_CONFORMANCE_DIR points elsewhere). A first step towards Python as the ninth
host of tests/cross-host.mjs, which needs every vector, not only batch-*."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tool_offload import OffloadError, offload_tool_results_sync

from conftest import REPO, VECTORS, compact, js, load_vector
from test_batch import INJECTED, LONE

BATCH = sorted(p.name for p in VECTORS.glob("batch-*.json") if p.name not in INJECTED | LONE)
CONFORMANCE = Path(os.environ.get("TOOL_OFFLOAD_CONFORMANCE_DIR", REPO / "target" / "conformance"))
OTHER_HOSTS = ["tokio", "core-native", "npm"]


def outcome(name: str, root: Path) -> str:
    vector = load_vector(name)
    cwd = root / vector["cwd"].lstrip("/")
    cwd.mkdir(parents=True)
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        (step,) = vector["steps"]
        out_dir = step["outputDir"]
        if out_dir.startswith("/"):
            out_dir = str(root) + out_dir
        kwargs = {} if "threshold" not in step else {"threshold": step["threshold"]}
        result: dict[str, Any]
        try:
            done = offload_tool_results_sync(step["messages"], output_dir=out_dir, **kwargs)
            files = [f.replace(str(root), "", 1) for f in done.files]
            result = {
                "expect": {
                    "messages": done.messages,
                    "offloadedCount": done.offloaded_count,
                    "freedChars": done.freed_chars,
                    "files": files,
                }
            }
            if done.unrecognized:
                result["expect"]["unrecognized"] = done.unrecognized
        except OffloadError as e:
            error: dict[str, Any] = {"code": e.code, "message": str(e).replace(str(root), "")}
            if e.code == "WRITE_FAILED" and e.path is not None:
                error["path"] = e.path.replace(str(root), "")
            result = {"error": error}
    finally:
        os.chdir(previous)
    written = {
        "/" + str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in root.rglob("*") if p.is_file()
    }
    return js({"steps": [result], "files": dict(sorted(written.items()))})


def test_batch_outcomes_match_other_hosts(tmp_path: Path) -> None:
    outcomes = {}
    for i, name in enumerate(BATCH):
        root = tmp_path / str(i)
        root.mkdir()
        outcomes[name.removesuffix(".json")] = outcome(name, root)
    assert len(outcomes) >= 45
    CONFORMANCE.mkdir(parents=True, exist_ok=True)
    (CONFORMANCE / "python-batch.json").write_text(compact(outcomes), encoding="utf-8")
    others = [h for h in OTHER_HOSTS if (CONFORMANCE / f"{h}.json").exists()]
    if not others:
        pytest.skip(f"no other host's outcomes in {CONFORMANCE} to compare with (run make test)")
    for host in others:
        recorded = json.loads((CONFORMANCE / f"{host}.json").read_text(encoding="utf-8"))
        for name, mine in outcomes.items():
            assert mine == recorded[name], f"{name}: python differs from {host}"
