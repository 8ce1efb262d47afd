"""Workspace(index="postgres"): the tokio host's PostgreSQL index, on a throwaway cluster
(PostgreSQL's initdb from /usr/lib/postgresql, as host-tokio's tests find it; skipped
without one). Queries give what the SQLite index and a scan of the records give."""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator, List

import pytest

import tool_offload as to

USER, PASSWORD = "tool_offload", "test-secret"


def bin_dir() -> Path | None:
    found = sorted(
        (int(p.name), p / "bin") for p in Path("/usr/lib/postgresql").glob("*") if p.name.isdigit() and (p / "bin" / "initdb").exists()
    )
    return found[-1][1] if found else None


def command(bin: Path, program: str, *args: str) -> List[str]:
    as_postgres = ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"] if os.geteuid() == 0 else []
    return [*as_postgres, str(bin / program), *args]


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    bin = bin_dir()
    if bin is None:
        pytest.skip("no PostgreSQL (initdb) under /usr/lib/postgresql")
    # Not under pytest's base directory: its mode 700 keeps the postgres user out.
    d = Path(tempfile.mkdtemp(prefix="tool-offload-pg-"))
    (d / "socket").mkdir()
    (d / "password").write_text(PASSWORD)
    if os.geteuid() == 0:
        shutil.chown(d, "postgres", "postgres")
        for p in d.rglob("*"):
            shutil.chown(p, "postgres", "postgres")
    subprocess.run(
        command(bin, "initdb", "-D", str(d / "data"), "-U", USER, "-E", "UTF8", "--locale=C", "--no-sync",
                "--auth-local=trust", "--auth-host=scram-sha-256", f"--pwfile={d / 'password'}"),
        check=True, capture_output=True,
    )
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        command(bin, "postgres", "-D", str(d / "data"), "-h", "127.0.0.1", "-p", str(port), "-k", str(d / "socket"),
                "-c", "fsync=off"),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            if subprocess.run(command(bin, "pg_isready", "-h", "127.0.0.1", "-p", str(port)), capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        yield f"host=127.0.0.1 port={port} user={USER} password={PASSWORD}"
    finally:
        server.send_signal(signal.SIGINT)  # a fast shutdown: clients may still be connected
        server.wait(60)
        shutil.rmtree(d, ignore_errors=True)


def fill(ws: to.Workspace) -> None:
    for i in range(3):
        ws.offload_tool_result_sync(
            tool_call_id=f"c{i}", tool_name="bash" if i != 1 else "sql", content=f"line {i}\n" * 3000, metadata={"n": str(i)}
        )
    ws.add_sync(id="note", content="remember", metadata={"context_type": "note"})


def test_queries_through_postgres_equal_sqlite_and_a_scan(tmp_path: Path, postgres: str) -> None:
    pg_clock, lite_clock = itertools.count(1_700_000_000_000, 1000), itertools.count(1_700_000_000_000, 1000)
    pg = to.Workspace(
        tmp_path / "pg",
        namespace="team-a",
        inline_limit=2000,
        now=lambda: next(pg_clock),
        index="postgres",
        postgres=f"{postgres} dbname=postgres",
    )
    lite = to.Workspace(tmp_path / "lite", namespace="team-a", inline_limit=2000, now=lambda: next(lite_clock))
    fill(pg)
    fill(lite)
    scan = to.Workspace(tmp_path / "pg", namespace="team-a", index=None)
    for filt in [None, {"tool_name": "bash"}, {"context_type": "note"}, {"n": "1"}]:
        got = pg.query_artifacts_sync(filt)
        assert got == lite.query_artifacts_sync(filt) == scan.query_artifacts_sync(filt), filt
    assert [r["id"] for r in pg.query_artifacts_sync({"tool_name": "bash"})] == ["tool_result_c2", "tool_result_c0"]
    assert pg.get_tool_result_offload_info_sync() == lite.get_tool_result_offload_info_sync()


def test_postgres_needs_a_connection_string(tmp_path: Path) -> None:
    with pytest.raises(to.InvalidArgumentError):
        to.Workspace(tmp_path, index="postgres")
    with pytest.raises(to.InvalidArgumentError):
        to.Workspace(tmp_path, postgres="host=127.0.0.1")
    with pytest.raises(to.OffloadError):
        to.Workspace(tmp_path, index="postgres", postgres="not a connection string = =")


def database(postgres: str, name: str) -> str:
    """A new, empty database ``name`` on the cluster: its connection string."""
    bin = bin_dir()
    assert bin is not None
    params = dict(kv.split("=", 1) for kv in postgres.split())
    env = {**os.environ, "PGPASSWORD": params["password"]}
    subprocess.run(
        [str(bin / "createdb"), "-h", params["host"], "-p", params["port"], "-U", params["user"], name],
        check=True, capture_output=True, env=env,
    )
    return f"{postgres} dbname={name}"


def test_the_workspace_vectors_give_the_same_outcomes_through_postgres(tmp_path: Path, postgres: str) -> None:
    """Every workspace vector with the PostgreSQL index, each in a database of its own:
    the same canonical outcome as with SQLite (the tokio host's postgres.json, in Python)."""
    from runner import run_vector
    from steps import load_vectors

    vectors = [v for v in load_vectors() if v["id"].startswith("workspace-")]
    assert len(vectors) >= 7
    for i, v in enumerate(vectors):
        lite, _ = run_vector(v, tmp_path / f"lite-{i}")
        pg, _ = run_vector(v, tmp_path / f"pg-{i}", database(postgres, f"vector_{i}"))
        assert pg == lite, v["id"]
