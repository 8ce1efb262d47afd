"""Every conformance vector through the Python package in a real S3 server (moto on
127.0.0.1): the Materializer, Workspace, offloads, imports and registries given
``storage="s3://vectors/v<n>"``, each vector under a prefix of its own in one bucket (as
the Rust host's object-store-s3 runs them, tests/conformance/tests/object_store_host.rs),
its files read back from the bucket. The outcomes must be those of the vectors and of
python.json, byte for byte; they are recorded in target/conformance/python-s3.json."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import SUMMARY
from moto import Moto, files_in
from runner import run_vector
from steps import expected_outcome, js, load_vectors
from test_conformance import CONFORMANCE

ALL = load_vectors()

@pytest.fixture(scope="module")
def outcomes(moto: Moto, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, list[Any]]]:
    done = {}
    for n, v in enumerate(ALL):
        prefix = f"v{n}"
        done[v["id"]] = run_vector(
            v,
            tmp_path_factory.mktemp("unused"),
            storage=f"s3://vectors/{prefix}",
            files=lambda prefix=prefix: files_in(moto, "vectors", prefix),  # type: ignore[misc]
        )
    CONFORMANCE.mkdir(parents=True, exist_ok=True)
    recorded = dict(sorted(((k, o) for k, (o, _) in done.items()), key=lambda kv: kv[0].encode()))
    (CONFORMANCE / "python-s3.json").write_text(js(recorded), encoding="utf-8")
    return done


@pytest.mark.parametrize("vector", ALL, ids=[v["id"] for v in ALL])
def test_vector_in_s3(vector: dict[str, Any], outcomes: dict[str, tuple[str, list[Any]]]) -> None:
    got, actual = outcomes[str(vector["id"])]
    want = expected_outcome(vector, actual)
    assert want is not None, "core texts not blessed (see tests/vectors/README.md)"
    if got != want:
        at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        pytest.fail(f"differs at {at}:\n  python-s3: …{got[max(0, at - 120):at + 120]}…\n  vector: …{want[max(0, at - 120):at + 120]}…")


@pytest.mark.parametrize("host", ["python", "object-store-s3", "npm-s3", "npm"])
def test_python_s3_json_equals_other_hosts(host: str, outcomes: dict[str, tuple[str, list[Any]]]) -> None:
    """Byte for byte with another host's recording (python.json first: the same package on
    files, recorded earlier in this run), where that recording is up to date."""
    recording = CONFORMANCE / f"{host}.json"
    if not recording.exists():
        pytest.skip(f"no {recording} to compare with")
    recorded = json.loads(recording.read_text(encoding="utf-8"))
    by_id = {str(v["id"]): v for v in ALL}
    differ = sorted(k for k, (o, _) in outcomes.items() if recorded.get(k) != o)
    stale = [k for k in differ if recorded.get(k) != expected_outcome(by_id[k], outcomes[k][1])]
    SUMMARY.append(f"python-s3.json vs {host}.json: {len(outcomes) - len(differ)} of {len(outcomes)} vectors byte-identical")
    assert sorted(set(differ) - set(stale)) == [], f"python-s3 differs from an up-to-date {host} recording"
    if stale:
        pytest.skip(f"{host}.json is out of date for {stale}")
