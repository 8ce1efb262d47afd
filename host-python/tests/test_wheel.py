"""The wheel `make wheel` builds (out/wheels/, TOOL_OFFLOAD_WHEEL_DIR) installed into a
fresh venv without the network, then imported and run there: the package as a user gets
it, not the editable build the rest of the suite uses."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

WHEELS = Path(os.environ.get("TOOL_OFFLOAD_WHEEL_DIR", Path(__file__).resolve().parents[2] / "out" / "wheels"))

SCRIPT = r"""
import asyncio, json, sys, tempfile, tool_offload as to
assert "site-packages" in to.__file__, to.__file__
d = tempfile.mkdtemp()
done = to.offload_tool_results_sync(
    [{"role": "tool", "tool_call_id": "c1", "content": "x" * 300}], output_dir=d)
m = to.Materializer(d, "conv")
r = asyncio.run(m.materialize(tool_name="bash", tool_call_id="t", output="line\n" * 5000))
try:
    to.Materializer(d, "../bad")
except to.InvalidIdError as e:
    code = e.code
print(json.dumps([done.offloaded_count, r.ref.id, m.tail_sync(r.ref, 1), code, len(to.ERROR_CODES)]))
"""


def test_the_wheel_installs_and_runs_in_a_fresh_venv(tmp_path: Path) -> None:
    wheels = sorted(WHEELS.glob("tool_offload-*-cp310-abi3-*.whl"))
    if not wheels:
        pytest.skip(f"no abi3 wheel in {WHEELS}: run make wheel")
    (wheel,) = wheels
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-index", "--disable-pip-version-check", wheel], check=True
    )
    # Not the source tree `make test` puts on PYTHONPATH: the installed wheel.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([python, "-c", SCRIPT], check=True, capture_output=True, text=True, cwd=tmp_path, env=env)
    import json

    count, ref, tail, code, codes = json.loads(out.stdout)
    assert (count, ref, code) == (1, "ctx://conv/tool/t.txt", "INVALID_ID")
    assert tail.endswith("5000| line") and codes >= 16
    assert sys.version_info >= (3, 10)
