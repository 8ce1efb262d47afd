"""tool_offload.strands with the real Strands Agents SDK (pinned) and a scripted model
streaming Strands' events, no network (the python branch's first tests of the adapter,
kept beside test_strands.py): a tool returns a 150 KB log, the model sees its
summary, calls context_grep with the ref and gets the planted line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, AsyncIterator, List


from adapters import require  # noqa: E402

require("strands")

from strands import Agent, tool  # noqa: E402
from strands.models.model import Model  # noqa: E402

import tool_offload as to  # noqa: E402
from tool_offload.strands import MaterializePlugin, context_tools  # noqa: E402

LOG = "".join(f"step {i}: compiling module {i}\n" for i in range(6000)).replace(
    "step 4321: compiling module 4321", "step 4321: error: NEEDLE-7 undefined symbol"
)
REF = "ctx://thread-1/tool/call_build.txt"


class Scripted(Model):
    """Streams a scripted reply per call: a tool use (name, input, id) or a final text."""

    def __init__(self, script: List[Any]) -> None:
        self.script = list(script)
        self.seen: List[Any] = []

    def update_config(self, **config: Any) -> None:
        pass

    def get_config(self) -> Any:
        return {}

    def structured_output(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    async def stream(self, messages: Any, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        self.seen.append(json.loads(json.dumps(messages, default=str)))
        step = self.script.pop(0)
        yield {"messageStart": {"role": "assistant"}}
        if isinstance(step, str):
            yield {"contentBlockDelta": {"delta": {"text": step}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
            return
        name, args, call = step
        yield {"contentBlockStart": {"start": {"toolUse": {"toolUseId": call, "name": name}}}}
        yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(args)}}}}
        yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "tool_use"}}


@tool
def build() -> str:
    """Run the build."""
    return LOG


def results(messages: Any) -> dict[str, str]:
    return {
        block["toolResult"]["toolUseId"]: "".join(c.get("text", "") for c in block["toolResult"]["content"])
        for m in messages
        for block in m.get("content", [])
        if "toolResult" in block
    }


def test_the_model_sees_the_summary_and_greps_the_artifact(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "thread-1")
    model = Scripted(
        [
            ("build", {}, "call_build"),
            ("context_grep", {"ref": REF, "pattern": "NEEDLE-7"}, "call_grep"),
            ("context_read", {"ref": "ctx://other/tool/x.txt"}, "call_bad"),
            "The build fails on an undefined symbol.",
        ]
    )
    agent = Agent(model=model, tools=[build], plugins=[MaterializePlugin(m)], callback_handler=None)
    reply = agent("Why does the build fail?")
    assert "undefined symbol" in str(reply)
    sent = results(model.seen[-1])
    assert REF in sent["call_build"] and len(sent["call_build"]) < 4000
    assert LOG not in json.dumps(model.seen[1])
    assert "NEEDLE-7 undefined symbol" in sent["call_grep"]
    assert "outside this conversation" in sent["call_bad"]
    assert Path(tmp_path, "context/thread-1/artifacts/tool/call_build.txt").read_text() == LOG


def test_the_tools_on_their_own(tmp_path: Path) -> None:
    m = to.Materializer(tmp_path, "thread-1")
    assert [t.tool_name for t in context_tools(m)] == ["context_read", "context_tail", "context_grep"]
    assert MaterializePlugin(m, read_tools=False).tools == []


@tool
def listing() -> str:
    """List the files."""
    return "".join(f"file_{i:04d}.txt\n" for i in range(200))


def test_the_budget_clears_old_results_in_the_conversation(tmp_path: Path) -> None:
    from tool_offload.strands import BudgetPlugin

    m = to.Materializer(tmp_path, "thread-1")
    model = Scripted([*(("listing", {}, f"call_{i}") for i in range(4)), "Done."])
    budget = BudgetPlugin(m, trigger_tokens=1500, keep_last=1)
    agent = Agent(model=model, tools=[listing], plugins=[MaterializePlugin(m), budget], callback_handler=None)
    agent("List the files four times.")
    last = results(model.seen[-1])
    cleared = sorted(k for k, v in last.items() if "cleared from the conversation" in v)
    assert cleared == ["call_0", "call_1", "call_2"] and "file_0199.txt" in last["call_3"]
    kept = results(agent.messages)
    assert all("cleared from the conversation" in kept[k] for k in cleared), "the conversation keeps them"
    assert m.read_sync("ctx://thread-1/tool/call_0.txt", 199, 1).endswith("200| file_0199.txt")
