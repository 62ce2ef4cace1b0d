"""statebox's MCP stdio server over τ-bench's own tools and data, run in a Python where τ-bench is installed.

    STATEBOX_TAU_DOMAIN=airline python -m statebox_tau_server      (cwd: the τ-bench checkout)

Only the official `mcp` SDK and τ-bench are imported; statebox need not be installed here. The
statebox fork template imports this module once (τ-bench, litellm, the domain's tools, tasks and
pristine data) and forks one child per attempt. The agent sees τ-bench's tools with their own
schemas (the reserved tools are listed too, for the SDK's client to check their results,
and statebox shows them to no agent); a call runs the tool's own `invoke` on this attempt's data, an exception becoming
`Error: ...` as τ-bench's environment makes it. The three reserved tools:

- `__reserved__init {split, index}`: fresh data from τ-bench's `load_data()`, the task from its task list.
- `__reserved__effects {responses}`: the reward by τ-bench's own `Env.calculate_reward` (the data's
  hash against the replay of the task's actions on fresh data, and the task's outputs in the agent's
  `responses`), both hashes by τ-bench's `get_data_hash`, and the entries of each collection that
  differ from the pristine data after the attempt and after the replay (for statebox's typed judge).
- `__reserved__hash`: the data's hash now (statebox's validation reads it after each reference call).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

DOMAINS = ("airline", "retail")
DOMAIN = os.environ.get("STATEBOX_TAU_DOMAIN", "")
if DOMAIN not in DOMAINS:
    sys.exit(f"statebox_tau_server: STATEBOX_TAU_DOMAIN must be one of {', '.join(DOMAINS)}, not {DOMAIN!r}")

from tau_bench.envs.base import Env, consistent_hash, to_hashable  # noqa: E402 - the domain is checked first
from tau_bench.types import RESPOND_ACTION_FIELD_NAME, RESPOND_ACTION_NAME, Action, Task  # noqa: E402

RESERVED_PREFIX = "__reserved__"
TERMINATE_TOOLS = ["transfer_to_human_agents"]  # τ-bench's environments end the episode on it
SPLIT_MODULES = {"test": "tasks_test", "train": "tasks_train", "dev": "tasks_dev"}

_data = importlib.import_module(f"tau_bench.envs.{DOMAIN}.data")
_tools = importlib.import_module(f"tau_bench.envs.{DOMAIN}.tools")
TOOLS = {tool.get_info()["function"]["name"]: tool for tool in _tools.ALL_TOOLS}
PRISTINE = _data.load_data()  # never changed: each attempt works on its own `load_data()`


def _task_list(split: str) -> list[Task]:
    """The split's tasks, as τ-bench's environment imports them (the module's list of `Task`)."""
    module = importlib.import_module(f"tau_bench.envs.{DOMAIN}.{SPLIT_MODULES[split]}")
    for name, value in vars(module).items():
        if name.startswith("TASKS") and isinstance(value, list) and all(isinstance(t, Task) for t in value):
            return value
    raise LookupError(f"tau_bench.envs.{DOMAIN}.{SPLIT_MODULES[split]} has no list of tasks")


TASKS = {split: _task_list(split) for split in SPLIT_MODULES if
         importlib.util.find_spec(f"tau_bench.envs.{DOMAIN}.{SPLIT_MODULES[split]}") is not None}  # fmt: skip


class _NoUser:
    """Stands in for τ-bench's user simulator when a task's own actions say something (no state effect)."""

    def step(self, content: str) -> str:
        return ""

    def get_total_cost(self) -> float:
        return 0.0


def _shell_env(data: dict[str, Any], task: Task, responses: list[str]) -> Env:
    """τ-bench's `Env` with what `calculate_reward` and `get_data_hash` read, and no user simulator."""
    env = object.__new__(Env)
    env.data_load_func = _data.load_data
    env.data = data
    env.tools_map = TOOLS
    env.tools_info = [tool.get_info() for tool in TOOLS.values()]
    env.terminate_tools = list(TERMINATE_TOOLS)
    env.task = task
    env.user = _NoUser()
    env.actions = [Action(name=RESPOND_ACTION_NAME, kwargs={RESPOND_ACTION_FIELD_NAME: text}) for text in responses]
    return env


def _recorded_hashes(env: Env) -> list[str]:
    """The hashes τ-bench's own `get_data_hash` gives while `calculate_reward` runs (the attempt's data, then the
    replay's), kept as it computes them so that neither is computed twice (each is a pass over all the data)."""
    hashes: list[str] = []

    def get_data_hash() -> str:
        hashes.append(Env.get_data_hash(env))
        return hashes[-1]

    env.get_data_hash = get_data_hash
    return hashes


def changed_entries(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Per collection, each entry (by its key) whose value differs, with its value before and after."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name) or {}, after.get(name) or {}
        if not isinstance(old, dict) or not isinstance(new, dict):
            if old != new:
                out[name] = [{"key": None, "before": old, "after": new}]
            continue
        rows = [{"key": key, "before": old.get(key), "after": new.get(key)}
                for key in sorted(set(old) | set(new), key=str) if old.get(key) != new.get(key)]  # fmt: skip
        if rows:
            out[name] = rows
    return out


class Attempt:
    """The one attempt this process serves: its data and its task, once initialised."""

    def __init__(self) -> None:
        self.data: dict[str, Any] | None = None
        self.task: Task | None = None

    def init(self, split: str, index: int) -> dict[str, Any]:
        if split not in TASKS:
            return {"status": "error", "error": f"{DOMAIN} has no {split} split"}
        tasks = TASKS[split]
        if not 0 <= index < len(tasks):
            return {"status": "error", "error": f"{DOMAIN} {split} has tasks 0 to {len(tasks) - 1}, not {index}"}
        self.task = tasks[index]
        self.data = _data.load_data()
        return {"status": "ok", "task": self.task.model_dump(mode="json"), "tasks": len(tasks)}

    def call(self, name: str, arguments: dict[str, Any]) -> str:
        if self.data is None:
            return "Error: the attempt is not initialised"
        try:
            return str(TOOLS[name].invoke(data=self.data, **arguments))
        except Exception as e:  # as τ-bench's Env.step: the agent reads the error
            return f"Error: {e}"

    def effects(self, responses: list[str]) -> dict[str, Any]:
        if self.data is None or self.task is None:
            return {"status": "error", "error": "the attempt is not initialised"}
        env = _shell_env(self.data, self.task, responses)
        hashes = _recorded_hashes(env)
        reward = env.calculate_reward()  # hashes the data, replays the task's actions on fresh data, hashes that
        golden = env.data
        info = reward.info.model_dump(mode="json")
        if len(hashes) < 2:  # a τ-bench whose reward does not hash twice through get_data_hash
            hashes[:] = [consistent_hash(to_hashable(self.data)), env.get_data_hash()]
        state_hash, gt_hash = hashes[0], hashes[-1]
        return {
            "status": "ok",
            "reward": reward.reward,
            "reward_info": reward.model_dump(mode="json"),
            "state_hash": state_hash,
            "gt_data_hash": info.get("gt_data_hash") or gt_hash,
            "r_actions": state_hash == (info.get("gt_data_hash") or gt_hash),
            "outputs": info.get("outputs"),
            "changes": changed_entries(PRISTINE, self.data),
            "golden_changes": changed_entries(PRISTINE, golden),
        }

    def data_hash(self) -> dict[str, Any]:
        if self.data is None or self.task is None:
            return {"status": "error", "error": "the attempt is not initialised"}
        return {"status": "ok", "state_hash": _shell_env(self.data, self.task, []).get_data_hash()}


def _text(text: str, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=is_error)


def build_server(attempt: Attempt) -> Server[Any]:
    """The low-level MCP server of one attempt."""
    import json

    listed = [
        types.Tool(name=name, description=tool.get_info()["function"].get("description", ""),
                   input_schema=tool.get_info()["function"].get("parameters") or {"type": "object"})
        for name, tool in TOOLS.items()
    ]  # fmt: skip
    # Listed so that the SDK's client can check their results; statebox never shows them to an agent.
    listed += [types.Tool(name=RESERVED_PREFIX + name, description=f"statebox only: {name}",
                          input_schema={"type": "object"}) for name in ("init", "effects", "hash")]  # fmt: skip

    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        if params.name == RESERVED_PREFIX + "init":
            return _text(json.dumps(attempt.init(str(arguments.get("split")), int(arguments.get("index", -1)))))
        if params.name == RESERVED_PREFIX + "effects":
            return _text(json.dumps(attempt.effects([str(r) for r in arguments.get("responses") or []])))
        if params.name == RESERVED_PREFIX + "hash":
            return _text(json.dumps(attempt.data_hash()))
        if params.name not in TOOLS:
            return _text(f"Unknown action {params.name}", is_error=True)
        text = attempt.call(params.name, arguments)
        return _text(text, is_error=text.startswith("Error"))

    return Server("statebox-tau-bench", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve() -> None:
    server = build_server(Attempt())
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(serve)
