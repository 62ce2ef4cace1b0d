"""Test helpers: a statebox OpenEnv server in a subprocess, and episodes played through OpenEnv's client."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from statebox.openenv.client import StateboxEnv
from statebox.openenv.models import StateboxAction
from statebox.tasks import RefCall, Task
from statebox.tasks.references import resolve

STATEBOX = Path(sys.executable).with_name("statebox")
ASK_TO_CONFIRM = "Can you confirm you want me to go ahead with that?"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def openenv_server(*args: str, log: Path, timeout_s: float = 120.0) -> Iterator[str]:
    """`statebox openenv-serve ARGS` on a free loopback port until ready; yields its base URL.

    The server's output goes to `log` (a pipe nobody reads would block the server once full).
    """
    port = free_port()
    out = log.open("w")
    proc = subprocess.Popen(
        [str(STATEBOX), "openenv-serve", *args, "--port", str(port)],
        stdout=out, stderr=subprocess.STDOUT, text=True, env={**os.environ, "STATEBOX_TOKEN": ""},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"openenv-serve exited {proc.returncode}: {log.read_text()}")
            try:
                if httpx.get(f"{url}/ready", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"openenv-serve not ready after {timeout_s}s")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        out.close()


async def open_conversation(env: StateboxEnv, task: Task) -> None:
    """What a careful agent says first: ask for each fact the customer holds, then ask to confirm."""
    asks = " ".join(f"What is your {f.asked_by[0]}?" for f in task.customer.facts if f.via is None)
    if asks:
        await env.step(StateboxAction(message=asks))
    await env.step(StateboxAction(message=ASK_TO_CONFIRM))


async def play_calls(env: StateboxEnv, calls: list[RefCall]) -> list[Any]:
    """The agent's calls of a reference, one step each, `${...}` resolved from earlier results."""
    saved: dict[str, Any] = {}
    results = []
    for call in calls:
        if call.actor == "customer":
            continue
        result = await env.step(StateboxAction(tool=call.tool, arguments=resolve(call.args, saved)))
        assert not result.observation.is_error, f"{call.tool}: {result.observation.text}"
        results.append(result)
        if call.save_as:
            saved[call.save_as] = json.loads(result.observation.text)
    return results
