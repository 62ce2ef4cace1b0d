"""What the statebox fork-server template imports before it forks (standard library only).

Loaded by `fork_template.py` from its own folder, in the tool server's Python.
- `prepare`: import what `python -m module` would run and decide how children run it:
  "main_guard" (a plain module with an `if __name__ == "__main__":` block: import the whole
  module here, children run only that block) or "run_module" (packages, other modules, or
  `exact`: import what the code imports, children re-run the module like `python -m`).
- `start_trial` / `finish_trials` (or `learn_imports`, both at once): run one trial child per
  server, started as soon as its module is imported (it runs while the template imports the next),
  and import here what they loaded lazily.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import json
import os
import select
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType

MAX_MESSAGE = 65536


@dataclass
class Plan:
    """How a child runs the server, decided once by the template."""

    module: str
    mode: str
    main_code: CodeType | None = None


def prepare(module: str, exact: bool) -> tuple[Plan, list[str]]:
    """Import what the server needs and decide how children run it."""
    spec = importlib.util.find_spec(module)
    if spec is None:
        raise ModuleNotFoundError(f"no module named {module!r}")
    is_package = spec.submodule_search_locations is not None
    code_spec = importlib.util.find_spec(module + ".__main__") if is_package else spec
    if code_spec is None or code_spec.origin is None or not os.path.isfile(code_spec.origin):
        return Plan(module, "run_module"), preload(module, [])
    with open(code_spec.origin, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), filename=code_spec.origin)
    guards = [node for node in tree.body if isinstance(node, ast.If) and is_main_guard(node)]
    if guards and not is_package and not exact:
        importlib.import_module(module)
        body = [stmt for guard in guards for stmt in guard.body]
        code = compile(ast.Module(body=body, type_ignores=[]), code_spec.origin, "exec")
        return Plan(module, "main_guard", code), []
    package = module if is_package else module.rpartition(".")[0]
    return Plan(module, "run_module"), preload(package, imported_names(tree, package))


def is_main_guard(node: ast.If) -> bool:
    """`if __name__ == "__main__":` (either operand order)."""
    if not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [side.id for side in sides if isinstance(side, ast.Name)]
    constants = [side.value for side in sides if isinstance(side, ast.Constant)]
    return names == ["__name__"] and constants == ["__main__"]


def imported_names(tree: ast.Module, package: str) -> list[str]:
    """Every module the code imports anywhere (relative names resolved), plus `from x import sub`."""
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            try:
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            except (ImportError, ValueError):
                continue
            names.append(base)
            names.extend(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return list(dict.fromkeys(names))


def preload(package: str, names: list[str]) -> list[str]:
    """Import each name that is a module; return those that failed (a child will fail the same way)."""
    failed = []
    for name in ([package] if package else []) + names:
        if name in sys.modules:
            continue
        try:
            if importlib.util.find_spec(name) is None:
                continue
            importlib.import_module(name)
        except ModuleNotFoundError:
            continue  # `from pkg import attribute`: not a module, nothing to import
        except BaseException as exc:
            failed.append(f"{name}: {exc!r}")
    return failed


def learn_imports(run_trials: list[Callable[[int, int], None]], timeout_s: float = 5.0) -> list[str]:
    """Run one trial child per server through MCP initialize and tools/list, and import here what
    they imported lazily (e.g. an event-loop backend), so later children start warm."""
    return finish_trials([start_trial(run_trial) for run_trial in run_trials], timeout_s)


Trial = tuple[int, socket.socket, int]  # the trial child's pid, our end of its stdio, its report pipe


def start_trial(run_trial: Callable[[int, int], None]) -> Trial:
    """Fork a trial child and send it its MCP requests; it answers them on its own while we go on.

    `run_trial(stdio_fd, report_fd)` runs in the forked trial child and never returns; the
    child writes its module names to `report_fd` when the server returns."""
    trial = _fork_trial(run_trial)
    trial[1].sendall(PROBE)
    return trial


def finish_trials(trials: list[Trial], timeout_s: float = 5.0) -> list[str]:
    """Read each trial's answers and module names, end it, and import what it loaded lazily."""
    reported = b""
    for pid, ours, names_in in trials:
        try:
            reported += b"\n" + drive_probe(ours, names_in, timeout_s, sent=True)
        finally:
            _end_trial(pid, ours, names_in)
    learned = []
    for name in dict.fromkeys(reported.decode().split()):
        if name not in sys.modules:
            with contextlib.suppress(Exception):  # optional imports the server itself survived
                importlib.import_module(name)
                learned.append(name)
    return learned


def _fork_trial(run_trial: Callable[[int, int], None]) -> Trial:
    ours, theirs = socket.socketpair()
    names_in, names_out = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(names_in)
        ours.close()
        run_trial(theirs.fileno(), names_out)
    os.close(names_out)
    theirs.close()
    return pid, ours, names_in


def _end_trial(pid: int, ours: socket.socket, names_in: int) -> None:
    for kill in (os.killpg, os.kill):  # its group once it has called setsid, else itself
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
    os.close(names_in)
    ours.close()


# Just enough MCP for a trial child to start serving.
PROBE = b"".join(
    json.dumps(request).encode() + b"\n"
    for request in (
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "statebox-fork-template", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
    )
)


def drive_probe(stdio: socket.socket, names: int, timeout_s: float, *, sent: bool = False) -> bytes:
    """Speak just enough MCP to the trial child (unless `sent` already), close its stdin, and read
    the module names it reports as it exits (empty if it does not answer or exit in time)."""
    if not sent:
        stdio.sendall(PROBE)
    deadline = time.monotonic() + timeout_s
    replies, reported = b"", b""
    watched = [stdio.fileno(), names]
    while time.monotonic() < deadline:
        ready, _, _ = select.select(watched, [], [], max(0.0, deadline - time.monotonic()))
        if stdio.fileno() in ready:
            chunk = stdio.recv(MAX_MESSAGE)
            replies += chunk
            if replies.count(b"\n") >= 2 or not chunk:
                stdio.shutdown(socket.SHUT_WR)  # end of input: the server returns from its main
                watched.remove(stdio.fileno())
        if names in ready:
            chunk = os.read(names, MAX_MESSAGE)
            if not chunk:
                return reported
            reported += chunk
    return b""
