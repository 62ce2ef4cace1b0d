"""What the owndomain tests share: the `statebox` executable, as a user runs it, and an OpenEnv server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

STATEBOX = str(Path(sys.executable).with_name("statebox"))
NAME = "acme_support"


def statebox(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The real command, as a user runs it."""
    return subprocess.run([STATEBOX, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


@contextmanager
def serving(command: str, *args: str, log: Path, probe: str = "/ready", timeout_s: float = 120.0) -> Iterator[str]:
    """`statebox COMMAND ARGS --port P` on a free loopback port until `probe` answers; yields its base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with log.open("w") as out:
        proc = subprocess.Popen([STATEBOX, command, *args, "--port", str(port)], stdout=out,
                                stderr=subprocess.STDOUT, env={**os.environ, "STATEBOX_TOKEN": ""})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_s
        while not _answers(url + probe):
            assert proc.poll() is None, f"{command} exited {proc.returncode}: {log.read_text()}"
            assert time.monotonic() < deadline, f"{command} not ready after {timeout_s}s: {log.read_text()}"
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _answers(url: str) -> bool:
    try:
        httpx.get(url, timeout=2)
    except httpx.TransportError:
        return False
    return True
