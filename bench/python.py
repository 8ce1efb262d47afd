"""The Python package's figures (issue 51), numbers not pass/fail:

    make bench-python        # release build into the venv, then this script

1. Batch offload (seed 001) of a 10 MB conversation through ``tool_offload`` beside a
   plain-Python implementation of the same rules (``offload_plain`` below: what a
   competent user would write, as bench/plain-batch.mjs is for JavaScript). Both are
   checked to give the same messages, counts and files before anything is timed. The
   figure is plain / tool_offload (>= 1x: the package is at least as fast).
2. ``Materializer.materialize`` per call: a 1 KB output left inline, a 100 KB and a
   10 MB one written, beside the npm package's ``materialize()`` on the same outputs when
   Node can import it (``TOOL_OFFLOAD_NPM``: the package's ESM entry, default the
   repository's ``tool-offload``).

Medians of several rounds, each into a fresh directory."""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import tool_offload as to

REPO = Path(__file__).resolve().parents[1]
QUICK = "--quick" in sys.argv
ROUNDS = 3 if QUICK else 7

PLACEHOLDER = re.compile(r"^(?:\[Content offloaded to: \./|\[Tool result offloaded to file: /)[^\n\r]*\.md\]$")


def utf16_len(text: str) -> int:
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def offload_plain(messages: list[Any], output_dir: str, threshold: int = 100) -> dict[str, Any]:
    """Seed 001's rules in plain Python (bench/plain-batch.mjs's, line for line)."""
    used: set[str] = set()
    next_number: dict[str, int] = {}
    writes: list[tuple[str, str]] = []
    freed = 0

    def file_name(id: str) -> str:
        n = next_number.get(id, 0)
        while True:
            name = f"tool-result-{id}.md" if n == 0 else f"tool-result-{id}-{n}.md"
            n += 1
            if name not in used:
                break
        next_number[id] = n
        if len(name.encode()) > 255:
            raise ValueError(f"tool result id {id} makes a file name longer than 255 bytes")
        used.add(name)
        return name

    def offload(holder: dict[str, Any], field: str, id_key: str) -> Any:
        nonlocal freed
        content = holder.get(field, "")
        if not isinstance(content, (str, list)):
            raise ValueError(f"{field} must be a string or an array")
        data = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, separators=(",", ":"))
        size = utf16_len(data)
        if size == 0 or size < threshold or (size <= 4200 and PLACEHOLDER.match(data)):
            return None
        id = holder.get(id_key)
        if not isinstance(id, str) or id in ("", ".", "..") or re.search(r"[/\\\0]", id):
            raise ValueError(f"invalid tool result id: {id!r}")
        name = file_name(id)
        writes.append((f"{output_dir}/{name}", data))
        freed += size
        return f"[Content offloaded to: ./{name}]"

    out: list[Any] = []
    for message in messages:
        if not isinstance(message, dict):
            raise ValueError("every message must be an object")
        if message.get("role") == "tool" or message.get("type") == "function_call_output":
            field = "content" if message.get("role") == "tool" else "output"
            placeholder = offload(message, field, "tool_call_id" if message.get("role") == "tool" else "call_id")
            out.append(message if placeholder is None else {**message, field: placeholder})
        elif isinstance(message.get("content"), list):
            changed = False
            content = []
            for block in message["content"]:
                placeholder = offload(block, "content", "tool_use_id") if isinstance(block, dict) and block.get("type") == "tool_result" else None
                if placeholder is None:
                    content.append(block)
                else:
                    changed = True
                    content.append({**block, "content": placeholder})
            out.append({**message, "content": content} if changed else message)
        else:
            out.append(message)
    if writes:
        os.makedirs(output_dir, exist_ok=True)
        for path, data in writes:
            with open(path, "w", encoding="utf-8") as f:
                f.write(data)
    return {"messages": out, "offloaded_count": len(writes), "freed_chars": freed, "files": [p for p, _ in writes]}


def log_text(size: int, seed: int = 0) -> str:
    lines, total, i = [], 0, seed
    while total < size:
        line = f"2026-12-07T12:00:{i % 60:02d}.000Z INFO  worker-{i % 8} req={i:010d} GET /api/items/{(i * 7919) % 10**6} status=200"
        lines.append(line)
        total += len(line) + 1
        i += 1
    return "\n".join(lines)[:size]


def conversation(total: int = 10_000_000) -> list[Any]:
    """Anthropic and OpenAI Chat turns; results of 20 KB and of 50 bytes, about ``total`` bytes."""
    messages: list[Any] = [{"role": "user", "content": "Investigate the failing deploy."}]
    i = 0
    while i * 10_025 < total:
        big = log_text(20_000, i) if i % 2 == 0 else "ok: " + "x" * 46
        if i % 3 == 0:
            messages.append({"role": "assistant", "tool_calls": [{"id": f"call_{i}", "type": "function", "function": {"name": "bash", "arguments": "{}"}}]})
            messages.append({"role": "tool", "tool_call_id": f"call_{i}", "content": big})
        else:
            messages.append({"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": "bash", "input": {}}]})
            messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": big}]})
        i += 1
    return messages


def median_ms(run: Callable[[str], Any]) -> float:
    samples = []
    for _ in range(ROUNDS):
        d = tempfile.mkdtemp(prefix="tool-offload-bench-python-")
        try:
            t0 = time.perf_counter()
            run(d)
            samples.append((time.perf_counter() - t0) * 1000)
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return statistics.median(samples)


def batch() -> dict[str, Any]:
    messages = conversation()
    size = len(json.dumps(messages))
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        ours = to.offload_tool_results_sync(messages, output_dir=a)
        plain = offload_plain(messages, b)
        assert json.dumps(ours.messages) == json.dumps(plain["messages"]), "the same messages"
        assert (ours.offloaded_count, ours.freed_chars) == (plain["offloaded_count"], plain["freed_chars"])
        assert sorted(os.listdir(a)) == sorted(os.listdir(b))
        assert all(Path(a, f).read_text() == Path(b, f).read_text() for f in os.listdir(a))
    ms_ours = median_ms(lambda d: to.offload_tool_results_sync(messages, output_dir=d))
    ms_plain = median_ms(lambda d: offload_plain(messages, d))
    return {"bytes": size, "offloaded": ours.offloaded_count, "tool_offload_ms": round(ms_ours, 2),
            "plain_python_ms": round(ms_plain, 2), "plain_over_tool_offload": round(ms_plain / ms_ours, 2)}


NPM = r"""
const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
const [entry, sizes, rounds] = [process.argv[1], JSON.parse(readFileSync(process.argv[2], 'utf8')), Number(process.argv[3])];
const { Materializer } = await import(entry);
const { tmpdir } = await import('node:os');
const out = {};
for (const [name, text] of Object.entries(sizes)) {
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    const dir = mkdtempSync(tmpdir() + '/tool-offload-bench-npm-');
    const m = new Materializer({ userData: dir, conversationId: 'c1' });
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < text[1]; i++) await m.materialize({ toolCallId: 't' + i, toolName: 'bash', output: text[0] });
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6 / text[1]);
    rmSync(dir, { recursive: true, force: true });
  }
  samples.sort((a, b) => a - b);
  out[name] = samples[Math.floor(samples.length / 2)];
}
console.log(JSON.stringify(out));
"""


def materialize() -> dict[str, Any]:
    outputs = {"1 KB inline": (log_text(1_000), 200), "100 KB": (log_text(100_000), 20), "10 MB": (log_text(10_000_000), 1)}
    out: dict[str, Any] = {}
    for name, (text, calls) in outputs.items():
        def run(d: str, text: str = text, calls: int = calls) -> None:
            m = to.Materializer(d, "c1")
            for i in range(calls):
                m.materialize_sync(tool_name="bash", tool_call_id=f"t{i}", output=text)

        out[name] = {"python_ms_per_call": round(median_ms(run) / calls, 4)}
    entry = os.environ.get("TOOL_OFFLOAD_NPM", "tool-offload")
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".json") as given:
            json.dump(outputs, given)
            given.flush()
            got = subprocess.run(
                ["node", "--input-type=module", "-e", NPM, entry, given.name, str(ROUNDS)],
                capture_output=True, text=True, cwd=REPO, timeout=600, check=True,
            )
        for name, ms in json.loads(got.stdout).items():
            out[name]["npm_ms_per_call"] = round(ms, 4)
            out[name]["python_over_npm"] = round(out[name]["python_ms_per_call"] / ms, 2)
    except subprocess.CalledProcessError as e:
        last = (e.stderr or "").strip().splitlines()[-1:] or ["no output"]
        out["npm"] = f"not measured ({entry}): {last[0]}"
    except (subprocess.SubprocessError, OSError, ValueError) as e:
        out["npm"] = f"not measured ({entry}): {type(e).__name__}: {e}"
    return out


if __name__ == "__main__":
    figures = {"batch_10mb": batch(), "materialize": materialize(), "rounds": ROUNDS}
    print(json.dumps(figures, indent=2))
    (REPO / "target" / "bench").mkdir(parents=True, exist_ok=True)
    (REPO / "target" / "bench" / "python.json").write_text(json.dumps(figures, indent=2) + "\n")
