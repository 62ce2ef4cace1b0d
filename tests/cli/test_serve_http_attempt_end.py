"""How a `statebox serve --http` attempt ends (#31 item 7): when the agent's MCP session closes, with the
official client, the verdict file is written while the server still runs, and the server says so."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from statebox.suites import load_suite
from statebox.tasks.references import resolve

TASK = "defective_blender_replacement_gold"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_line(log: Path, text: str, process: subprocess.Popen[bytes], timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while text not in log.read_text():
        assert process.poll() is None, f"statebox serve exited with {process.returncode}:\n{log.read_text()}"
        assert time.monotonic() < deadline, f"no {text!r} after {timeout_s} s:\n{log.read_text()}"
        time.sleep(0.05)


async def play_the_reference(url: str) -> None:
    """An agent's whole session: open, replay the task's reference calls, leave (the SDK sends DELETE)."""
    saved: dict[str, object] = {}
    async with streamable_http_client(url) as streams, ClientSession(*streams) as session:
        await session.initialize()
        for call in load_suite("retail").task(TASK).reference:
            result = await session.call_tool(call.tool, resolve(call.args, saved))
            assert not result.is_error, result
            if call.save_as:
                saved[call.save_as] = json.loads(result.content[0].text)  # type: ignore[union-attr]


def test_the_attempt_ends_when_the_agents_session_closes_and_the_verdict_is_written_then(tmp_path: Path) -> None:
    port, out, log = free_port(), tmp_path / "verdict.json", tmp_path / "serve.log"
    command = [str(Path(sys.executable).with_name("statebox")), "serve", "retail", TASK,
               "--http", f"127.0.0.1:{port}", "--out", str(out)]  # fmt: skip
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=sink)
    try:
        wait_for_line(log, "the attempt ends when the agent's MCP session closes", process)
        anyio.run(play_the_reference, f"http://127.0.0.1:{port}/mcp")
        wait_for_line(log, f"attempt ended: its effects and verdict are in {out}", process, timeout_s=60)
        assert process.poll() is None, "the verdict must not wait for the server to stop"
        result = json.loads(out.read_text())
        assert result["task"] == TASK and result["effects"], result
        assert "passed" in result["verdict"], result["verdict"]
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0, log.read_text()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
    said = log.read_text()
    assert said.count("attempt ended:") == 1, said
    assert "Traceback" not in said, said
