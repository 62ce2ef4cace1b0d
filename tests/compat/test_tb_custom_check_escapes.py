"""The custom-check sandbox holds: checks that try to leave it — start processes (`fork_exec`, `os.system`,
`subprocess`, `ctypes`), open sockets (TCP, UDP, unix), read `/etc/shadow` or the user's home, see the
host's processes, write outside their tmp, fork-bomb, eat memory, loop forever, signal their parent —
are each contained, with the attempt failed for a clear reason and the host unchanged: no file
written, nothing received, no process left, the parent alive.

Every escape runs twice: with every layer, and without the audit hook (the innermost one), to show
that bubblewrap's namespaces, its read-only view and the seccomp filters hold on their own.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from statebox.compat.thinkingbox import TbCheckout
from statebox.compat.thinkingbox.custom_check import (
    CustomCheckInfraError,
    CustomCheckResult,
    CustomCheckRunner,
    SandboxLimits,
)
from tbfakes import make_fake_checkout, require_isolation

FILE = "escapes.py"
SOURCE = '''# Checks that try to leave the custom-check sandbox; each asserts that its escape worked.
import os
import signal
import socket
import subprocess
import sys

"""!
scenario: sandbox_external_retail
"""


def marker(x):
    return x.effects["marker"]


def test_fork_exec(x, judge):
    """!
    query: fork_exec
    """
    import _posixsubprocess
    read, write = os.pipe()
    shell = [b"/bin/sh", b"-c", b"touch " + marker(x).encode()]
    pid = _posixsubprocess.fork_exec(shell, [b"/bin/sh"], True, (write,), None, None, -1, -1, -1, -1, -1, -1,
                                     read, write, True, False, -1, None, None, None, -1, None, True)
    assert os.waitpid(pid, 0)[1] == 0, "the shell did not run"


def test_os_system(x, judge):
    """!
    query: os.system
    """
    assert os.system("touch " + marker(x)) == 0, "os.system did not run the shell"


def test_subprocess(x, judge):
    """!
    query: subprocess
    """
    subprocess.run(["/bin/sh", "-c", "touch " + marker(x)], check=True)


def test_ctypes(x, judge):
    """!
    query: ctypes
    """
    import ctypes
    libc = ctypes.CDLL(None)
    assert libc.system(("touch " + marker(x)).encode()) == 0, "libc's system() did not run the shell"


def test_tcp(x, judge):
    """!
    query: tcp
    """
    with socket.create_connection(("127.0.0.1", x.effects["tcp"]), timeout=2) as sock:
        sock.sendall(b"escaped")


def test_udp(x, judge):
    """!
    query: udp
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.sendto(b"escaped", ("127.0.0.1", x.effects["udp"]))


def test_unix(x, judge):
    """!
    query: unix
    """
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(x.effects["unix"])
        sock.sendall(b"escaped")


def test_shadow(x, judge):
    """!
    query: shadow
    """
    with open("/etc/shadow") as handle:
        assert handle.read(), "empty"


def test_home(x, judge):
    """!
    query: home
    """
    with open(x.effects["home_file"]) as handle:
        assert handle.read() == "secret"


def test_host_processes(x, judge):
    """!
    query: processes
    """
    assert str(x.effects["sentinel"]) in os.listdir("/proc"), "the host's processes are not in /proc"


def test_write_outside_tmp(x, judge):
    """!
    query: write
    """
    for path in (marker(x), x.effects["in_checkout"]):
        with open(path, "w") as handle:
            handle.write("escaped")


def test_fork_bomb(x, judge):
    """!
    query: fork bomb
    """
    children = 0
    while children < 100000:
        if os.fork() == 0:
            signal.pause()
        children += 1


def test_memory_bomb(x, judge):
    """!
    query: memory
    """
    hog = []
    while True:
        hog.append(bytearray(10**7))


def test_infinite_loop(x, judge):
    """!
    query: loop
    """
    while True:
        pass


def test_signal_parent(x, judge):
    """!
    query: signals
    """
    for pid in (x.effects["sentinel"], x.effects["parent"], os.getppid(), -1):
        os.kill(pid, signal.SIGKILL)
'''
ESCAPES = ["test_fork_exec", "test_os_system", "test_subprocess", "test_ctypes", "test_tcp", "test_udp", "test_unix",
           "test_shadow", "test_home", "test_host_processes", "test_write_outside_tmp", "test_fork_bomb",
           "test_signal_parent"]  # fmt: skip
LIMITS = SandboxLimits(wall_s=60.0, cpu_s=2, memory_mb=256)
LAYERS = {"every layer": True, "no audit hook": False}


class Host:
    """What a check could reach on the host, set up for one escape, and how to tell it was not reached."""

    def __init__(self, checkout: TbCheckout, tmp: Path) -> None:
        self.checkout = checkout
        self.marker = tmp / f"escaped-{uuid.uuid4().hex}"
        self.in_checkout = checkout.root / f"escaped-{uuid.uuid4().hex}"
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.unix_path = str(tmp / "host.sock")
        self.unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.unix.bind(self.unix_path)
        self.unix.listen()
        for listener in (self.tcp, self.udp, self.unix):
            listener.setblocking(False)
        self.home_file = Path.home() / f".statebox-escape-{uuid.uuid4().hex}"
        self.home_file.write_text("secret")
        self.sentinel = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])

    def effects(self) -> dict[str, Any]:
        return {"marker": str(self.marker), "in_checkout": str(self.in_checkout), "tcp": self.tcp.getsockname()[1],
                "udp": self.udp.getsockname()[1], "unix": self.unix_path, "home_file": str(self.home_file),
                "sentinel": self.sentinel.pid, "parent": os.getpid()}  # fmt: skip

    def changes(self) -> list[str]:
        """Everything on the host that shows an escape."""
        found = [f"{path} was written" for path in (self.marker, self.in_checkout) if path.exists()]
        for name, listener in (("tcp", self.tcp), ("unix", self.unix)):
            try:
                listener.accept()
                found.append(f"a {name} connection reached the host")
            except BlockingIOError:
                pass
        try:
            self.udp.recvfrom(100)
            found.append("a udp datagram reached the host")
        except BlockingIOError:
            pass
        if self.sentinel.poll() is not None:
            found.append(f"the sentinel process died ({self.sentinel.returncode})")
        return found + [f"process {pid} left: {what}" for pid, what in leftovers(self.checkout.root)]

    def close(self) -> None:
        self.sentinel.kill()
        self.sentinel.wait()
        for listener in (self.tcp, self.udp, self.unix):
            listener.close()
        self.home_file.unlink(missing_ok=True)
        self.in_checkout.unlink(missing_ok=True)


def leftovers(root: Path) -> list[tuple[int, str]]:
    """Processes still running in the checkout (the sandbox's cwd) or naming it, after a short grace."""
    deadline = time.monotonic() + 5
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                cwd = os.readlink(entry / "cwd")
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if cwd == str(root) or str(root) in command:
                found.append((int(entry.name), command[:200]))
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> TbCheckout:
    root = tmp_path_factory.mktemp("escapes") / "checkout"
    make_fake_checkout(root)
    (root / "dataset/test_case" / FILE).write_text(SOURCE, encoding="utf-8")
    (root / "escapes.yaml").write_text(yaml.safe_dump([f"{FILE}:{name}" for name in ESCAPES]))
    return TbCheckout(root)


@pytest.fixture
def host(checkout: TbCheckout, tmp_path: Path) -> Iterator[Host]:
    made = Host(checkout, tmp_path)
    try:
        yield made
    finally:
        made.close()


def attempt(checkout: TbCheckout, function: str, effects: dict[str, Any], audit_hook: bool) -> CustomCheckResult:
    check = checkout.custom_check(f"{FILE}:{function}")
    assert check is not None, f"{function} did not load as a custom check"
    runner = CustomCheckRunner(sys.executable, require_isolation(), LIMITS, audit_hook=audit_hook)
    return asyncio.run(runner.run(check, {"effects": effects}, None))


@pytest.mark.parametrize("audit_hook", LAYERS.values(), ids=LAYERS.keys())
@pytest.mark.parametrize("escape", ESCAPES)
def test_the_escape_is_contained_and_fails_the_attempt_with_its_reason(
    checkout: TbCheckout, host: Host, escape: str, audit_hook: bool
) -> None:
    result = attempt(checkout, escape, host.effects(), audit_hook)
    assert host.changes() == [], result.describe()
    assert result.status in ("failed", "error"), result.describe()
    assert result.message and result.line is not None, result.describe()
    assert (result.sandbox, result.seccomp) == ("bwrap", True)


@pytest.mark.parametrize("audit_hook", LAYERS.values(), ids=LAYERS.keys())
def test_a_memory_bomb_is_stopped_by_the_memory_limit(checkout: TbCheckout, host: Host, audit_hook: bool) -> None:
    with pytest.raises(CustomCheckInfraError) as caught:
        attempt(checkout, "test_memory_bomb", host.effects(), audit_hook)
    assert str(caught.value) == f"{FILE}:test_memory_bomb: custom check hit the memory limit (256 MB)"
    assert host.changes() == []


@pytest.mark.parametrize("audit_hook", LAYERS.values(), ids=LAYERS.keys())
def test_an_infinite_loop_is_stopped_by_the_cpu_limit(checkout: TbCheckout, host: Host, audit_hook: bool) -> None:
    with pytest.raises(CustomCheckInfraError) as caught:
        attempt(checkout, "test_infinite_loop", host.effects(), audit_hook)
    assert str(caught.value) == f"{FILE}:test_infinite_loop: custom check killed by the time limit (2 s CPU)"
    assert host.changes() == []


def test_the_audit_hook_names_what_it_refused(checkout: TbCheckout, host: Host) -> None:
    result = attempt(checkout, "test_os_system", host.effects(), audit_hook=True)
    assert result.message == "PermissionError: the custom-check sandbox refuses os.system", result.describe()


def test_without_the_audit_hook_the_kernel_refuses_a_new_process(checkout: TbCheckout, host: Host) -> None:
    result = attempt(checkout, "test_fork_exec", host.effects(), audit_hook=False)
    assert result.message == "PermissionError: [Errno 1] Operation not permitted", result.describe()


def test_the_parent_is_alive_and_signals_reach_nobody_outside(checkout: TbCheckout, host: Host) -> None:
    attempt(checkout, "test_signal_parent", host.effects(), audit_hook=False)
    os.kill(os.getpid(), 0)  # still here
    assert host.sentinel.poll() is None
    assert signal.getsignal(signal.SIGTERM) is not None
