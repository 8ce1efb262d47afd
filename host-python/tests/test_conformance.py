"""Python as the ninth host: every conformance vector (tests/vectors) through the Python
package on real files, its canonical outcome checked against the vector's expectation
and recorded in target/conformance/python.json in the form every host records (so that
tests/cross-host.mjs can compare it byte for byte), then compared with npm.json when
that recording is there (TOOL_OFFLOAD_CONFORMANCE_DIR points elsewhere)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import SUMMARY
from runner import run_vector
from steps import REPO, VECTORS, expected_outcome, js, load_vectors

CONFORMANCE = Path(os.environ.get("TOOL_OFFLOAD_CONFORMANCE_DIR", REPO / "target" / "conformance"))
ALL = load_vectors()


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, list[object]]]:
    done = {}
    for v in ALL:
        done[v["id"]] = run_vector(v, tmp_path_factory.mktemp(v["id"][:40]))
    CONFORMANCE.mkdir(parents=True, exist_ok=True)
    recorded = dict(sorted(((k, o) for k, (o, _) in done.items()), key=lambda kv: kv[0].encode()))
    (CONFORMANCE / "python.json").write_text(js(recorded), encoding="utf-8")
    return done


def test_every_vector_is_run() -> None:
    assert len(ALL) == len(list(VECTORS.glob("*.json"))) >= 181
    ops = {s["op"] for v in ALL for s in v["steps"]}
    assert {"materialize", "budget", "ws", "execute", "offloadToolResult", "import"} <= ops


@pytest.mark.parametrize("vector", ALL, ids=[v["id"] for v in ALL])
def test_vector(vector: dict[str, object], outcomes: dict[str, tuple[str, list[object]]]) -> None:
    got, actual = outcomes[str(vector["id"])]
    want = expected_outcome(vector, actual)
    assert want is not None, "core texts not blessed (see tests/vectors/README.md)"
    if got != want:
        at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        pytest.fail(f"differs at {at}:\n  python: …{got[max(0, at - 120):at + 120]}…\n  vector: …{want[max(0, at - 120):at + 120]}…")


OTHER_HOSTS = ["npm", "core-native", "tokio", "object-store", "wasm", "npm-s3", "browser", "object-store-s3"]


@pytest.mark.parametrize("host", OTHER_HOSTS)
def test_python_json_equals_other_hosts(host: str, outcomes: dict[str, tuple[str, list[object]]]) -> None:
    """Byte for byte with another host's recording (npm's first), vector by vector. Where
    they differ, that recording must be the one out of date: it no longer meets the
    vector's expectation (a vector changed since it was recorded); the count is reported."""
    recording = CONFORMANCE / f"{host}.json"
    if not recording.exists():
        pytest.skip(f"no {recording} to compare with (make test records it)")
    recorded = json.loads(recording.read_text(encoding="utf-8"))
    by_id = {str(v["id"]): v for v in ALL}
    same = [k for k, (o, _) in outcomes.items() if recorded.get(k) == o]
    differ = sorted(set(outcomes) - set(same))
    line = f"python.json vs {host}.json: {len(same)} of {len(outcomes)} vectors byte-identical"
    SUMMARY.append(line + (f"; differ: {differ}" if differ else ""))
    stale = [k for k in differ if recorded.get(k) != expected_outcome(by_id[k], outcomes[k][1])]
    assert sorted(set(differ) - set(stale)) == [], f"python differs from an up-to-date {host} recording"
    if stale:
        pytest.skip(f"{host}.json is out of date for {stale}: {len(same)} of {len(outcomes)} byte-identical")
