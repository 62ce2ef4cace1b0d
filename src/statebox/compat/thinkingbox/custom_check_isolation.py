"""Where a custom check runs: inside bubblewrap (`bwrap`), or, when the user says so, without it.

`bwrap` mode: new user, network, PID, IPC, UTS (and cgroup, where allowed) namespaces; a fresh
root holding, read-only, only the checkout, the servers' Python installation (its prefix, its base
installation, the shared libraries it and its extension modules link) and the two sandbox
scripts; a private /tmp, a minimal /dev, the /proc of the new PID namespace; no environment but a
few variables; no capabilities; a new session (no terminal to write to); killed with statebox;
and the outer seccomp filter. `unsafe` mode (`--unsafe-custom-checks`): the servers' Python
started directly, with the inner layers only (rlimits, the seccomp filter the script installs,
the audit hook). Without bubblewrap, and without that flag, custom checks are refused.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

SandboxMode = Literal["bwrap", "unsafe"]
SCRIPT_DIR = Path(__file__).parent
SCRIPTS = ("custom_check_sandbox.py", "custom_check_shapes.py")
INSIDE = "/statebox-check"  # where the scripts are in the sandbox
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime")  # read by the dynamic loader and for the time zone
PROBE_TIMEOUT_S = 30.0
INSTALL_HINT = "install bubblewrap (Debian: apt-get install bubblewrap; `make sandbox` does it)"
_PYTHON_PROBE = (
    "import json, sys; print(json.dumps({'prefix': sys.prefix, 'base_prefix': sys.base_prefix, "
    "'exec_prefix': sys.exec_prefix, 'base_exec_prefix': sys.base_exec_prefix, "
    "'dynload': [p for p in sys.path if p.endswith('lib-dynload')]}))"
)


class IsolationUnavailable(Exception):
    """Custom checks cannot run here as asked; the message is one line naming what is missing."""


@dataclass(frozen=True)
class Isolation:
    """How this campaign's custom checks are kept in: the mode, and bubblewrap's path in `bwrap` mode."""

    mode: SandboxMode
    bwrap: str | None = None


def find_isolation(unsafe: bool, bwrap: str = "bwrap") -> Isolation:
    """bubblewrap where it works; else, with `unsafe`, the inner layers alone; else `IsolationUnavailable`."""
    path = shutil.which(bwrap)
    problem = "bubblewrap (bwrap) is not installed" if path is None else bwrap_problem(path)
    if problem is None:
        return Isolation("bwrap", path)
    if unsafe:
        return Isolation("unsafe")
    raise IsolationUnavailable(
        f"custom checks run only inside an isolation layer, and {problem}: {INSTALL_HINT}, "
        "or pass --unsafe-custom-checks to run them without it (rlimits, seccomp and an audit hook only)"
    )


def bwrap_problem(bwrap: str) -> str | None:
    """Why bubblewrap cannot make the sandbox's namespaces here (None: it can)."""
    probe = [bwrap, *NAMESPACES, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"bubblewrap ({bwrap}) could not be started ({e})"
    if done.returncode == 0:
        return None
    said = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    return f"bubblewrap cannot create the sandbox's namespaces here ({said[:200]})"


NAMESPACES = (
    "--unshare-user", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
)  # fmt: skip


@dataclass
class SandboxView:
    """The files the check's Python needs, as the sandbox shows them (read-only)."""

    roots: list[str]  # real paths bound at the same place
    links: dict[str, str] = field(default_factory=dict)  # a path the Python is named by -> its real path

    def arguments(self) -> list[str]:
        args: list[str] = []
        for root in self.roots:
            args += ["--ro-bind", root, root]
        for link, real in self.links.items():
            args += ["--symlink", real, link]
        for name in SCRIPTS:
            args += ["--ro-bind", str(SCRIPT_DIR / name), f"{INSIDE}/{name}"]
        return args


def python_view(python: str, data_root: str) -> SandboxView:
    """What the sandbox must show of the servers' Python (its installations and linked libraries) and the checkout."""
    python = os.path.abspath(python)
    try:
        done = subprocess.run([python, "-I", "-c", _PYTHON_PROBE], capture_output=True, text=True,
                              timeout=PROBE_TIMEOUT_S, check=True)  # fmt: skip
        where = json.loads(done.stdout)
    except (OSError, ValueError, subprocess.SubprocessError) as e:
        raise IsolationUnavailable(f"--server-python {python}: cannot be asked where it is installed ({e})") from None
    named = [where["prefix"], where["base_prefix"], where["exec_prefix"], where["base_exec_prefix"], data_root]
    extensions = [so for folder in where["dynload"] for so in _extensions(folder)]
    libraries = _linked_libraries([os.path.realpath(python), *extensions])
    wanted = [*named, *libraries, *[f for f in SYSTEM_FILES if os.path.exists(f)]]
    return _view(wanted, python)


def _extensions(folder: str) -> list[str]:
    try:
        return sorted(str(p) for p in Path(folder).glob("*.so"))
    except OSError:
        return []


def _linked_libraries(files: list[str]) -> list[str]:
    """The shared libraries `files` load (as `ldd` resolves them); without ldd, the system library folders."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return [d for d in ("/lib", "/lib64", "/usr/lib", "/usr/lib64") if os.path.isdir(d)]
    done = subprocess.run([ldd, *files], capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, check=False)
    found: list[str] = []
    for line in done.stdout.splitlines():
        words = line.split()
        path = words[2] if len(words) >= 3 and words[1] == "=>" else (words[0] if words else "")
        if path.startswith("/") and not path.endswith(":") and path not in found:
            found.append(path)
    return found


def _view(wanted: list[str], python: str) -> SandboxView:
    """Each wanted path bound at its real place, a symlink where it is named otherwise; nested ones dropped."""
    real = {path: os.path.realpath(path) for path in [*wanted, python]}
    roots: list[str] = []
    for path in sorted(set(real.values()), key=len):
        if os.path.exists(path) and not any(_under(path, root) for root in roots):
            roots.append(path)
    links: dict[str, str] = {}
    for path, target in sorted(real.items(), key=lambda item: len(item[0])):
        if path != target and not any(_under(path, other) for other in [*roots, *links]):
            links[path] = target
    return SandboxView(roots, links)


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def bwrap_command(bwrap: str, view: SandboxView, python: str, cwd: str, env: dict[str, str],
                  seccomp_fd: int | None) -> list[str]:  # fmt: skip
    """The bubblewrap command line that starts the sandbox script under `python`."""
    command = [bwrap, *NAMESPACES, "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv"]
    for key, value in env.items():
        command += ["--setenv", key, value]
    command += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", *view.arguments()]
    command += ["--remount-ro", "/", "--chdir", cwd]
    if seccomp_fd is not None:
        command += ["--seccomp", str(seccomp_fd)]
    return [*command, "--", python, "-I", "-X", "utf8", f"{INSIDE}/{SCRIPTS[0]}"]


def direct_command(python: str) -> list[str]:
    """The unsafe mode's command: the sandbox script under `python`, with no namespace around it."""
    return [python, "-I", "-X", "utf8", str(SCRIPT_DIR / SCRIPTS[0])]
