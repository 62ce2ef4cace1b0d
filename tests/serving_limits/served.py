"""A statebox server as a real process on a free loopback port: started, probed until ready, measured, stopped."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

STATEBOX = str(Path(sys.executable).with_name("statebox"))
TOKEN = "flood-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@dataclass(frozen=True)
class Served:
    url: str
    host: str
    port: int
    pid: int
    log: Path

    def rss_mib(self) -> float:
        """The server's resident memory now, from /proc."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError(f"no VmRSS for process {self.pid}")

    def tracebacks(self) -> str:
        """What the server logged as uncaught errors (a 500 would show here)."""
        text = self.log.read_text()
        return text[text.find("Traceback") :][:3000] if "Traceback" in text else ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def started(command: list[str], log: Path, timeout_s: float = 180.0) -> Iterator[Served]:
    """`statebox COMMAND --port P` until `/ready` answers 200; SIGTERM and reaped afterwards."""
    port = free_port()
    with log.open("wb") as out:
        process = subprocess.Popen([STATEBOX, *command, "--port", str(port)], stdout=out, stderr=subprocess.STDOUT,
                                   env={**os.environ, "STATEBOX_TOKEN": ""})
    served = Served(f"http://127.0.0.1:{port}", "127.0.0.1", port, process.pid, log)
    try:
        _wait_ready(served, process, timeout_s)
        yield served
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _wait_ready(served: Served, process: subprocess.Popen[bytes], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{served.log.name}: exited with {process.returncode}:\n{served.log.read_text()}")
        try:
            if httpx.get(f"{served.url}/ready", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"not ready after {timeout_s} s:\n{served.log.read_text()}")
