"""statebox fork-server template: import a tool server once, fork a fresh copy per attempt.

Run by path with the tool server's own Python (standard library only; statebox need not be
installed there): `python fork_template.py --control-fd N --module pkg.server [--module
other.server ...] [-- ARGS...]`. One template may serve several servers of the same Python,
environment and folder: their shared imports (the MCP framework, say) are then paid once.

Start-up, before any thread or event loop exists: import the server and learn its lazy
imports from one trial child (`fork_preload.py`, next to this file), then report
`{"ready": ...}` on the control socket (AF_UNIX, SOCK_SEQPACKET). Then, per request
`{"op": "fork", "module": M, "args": [...]}` (default: the first module and the command
line's ARGS) carrying two descriptors (the child's stdio socket and its stderr), fork a
child that takes them as fds 0/1 and 2, becomes its own process group and runs the server;
answer `{"pid": N}` with a pidfd when the kernel has them. The template reaps its children,
and when the control socket reaches end-of-file (statebox closed it or died) it kills their
process groups and exits. Children die with the template (Linux parent-death signal).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import importlib.util
import io
import json
import os
import runpy
import signal
import socket
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE = 65536
PR_SET_PDEATHSIG = 1


@dataclass
class ChildSetup:
    """What a forked child needs from the template to set itself up."""

    control: socket.socket
    template_pid: int
    prctl: Any


def load_sibling(name: str) -> Any:
    """A module next to this script, loaded by path (this folder is not on sys.path)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py")
    spec = importlib.util.spec_from_file_location(f"statebox_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--control-fd", type=int, required=True)
    parser.add_argument("--module", action="append", required=True, help="a server module; may repeat")
    parser.add_argument("--exact", action="store_true", help="always run the module as python -m does")
    parser.add_argument("--no-probe", action="store_true", help="do not learn the imports of a trial run")
    parser.add_argument("args", nargs="*")
    options = parser.parse_args()
    sys.path[0] = os.getcwd()  # as under `python -m`, not this script's folder
    preloader = load_sibling("fork_preload")
    control = socket.socket(fileno=options.control_fd)
    started = time.monotonic()
    child = ChildSetup(control, os.getpid(), load_prctl())

    def trial(plan: Any) -> Any:
        def run_trial(stdio: int, report: int) -> None:
            run_child(child, [stdio, os.dup(2)], plan, options.args, report)

        return run_trial

    plans: dict[str, Any] = {}
    failed: list[str] = []
    trials = []
    for module in dict.fromkeys(options.module):
        try:
            plans[module], failures = preloader.prepare(module, options.exact)
        except BaseException as exc:  # the server cannot even be imported: say why, then stop
            send(control, {"error": f"cannot load {module}: {exc!r}", "traceback": traceback.format_exc()})
            raise SystemExit(1) from None
        failed += failures
        if not options.no_probe:  # its trial runs on another core while the next module imports
            trials.append(preloader.start_trial(trial(plans[module])))
    learned = preloader.finish_trials(trials)
    threads = sys.modules["threading"].active_count() if "threading" in sys.modules else 1
    first = next(iter(plans.values()))
    send(control, {"ready": True, "pid": os.getpid(), "mode": first.mode, "preload_s": time.monotonic() - started,
                   "modes": {name: plan.mode for name, plan in plans.items()},
                   "failed_imports": failed, "learned_imports": len(learned), "threads": threads})  # fmt: skip
    gc.collect()
    gc.freeze()  # children's collections then skip what the template holds, sparing its pages copy-on-write
    serve(child, plans, options.args)


def serve(child: ChildSetup, plans: dict[str, Any], args: list[str]) -> None:
    """Fork one child per request until the control socket closes; then kill what is left."""
    children: set[int] = set()

    def reap(signum: int = 0, frame: Any = None) -> None:
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            children.discard(pid)

    signal.signal(signal.SIGCHLD, reap)
    control = child.control
    while True:
        message, fds, _, _ = socket.recv_fds(control, MAX_MESSAGE, 2)
        if not message:
            break
        request = json.loads(message)
        plan = plans.get(request.get("module") or next(iter(plans)))
        if request.get("op") != "fork" or len(fds) != 2 or plan is None:
            close_all(fds)
            send(control, {"id": request.get("id"), "error": f"bad request {request!r} with {len(fds)} fds"})
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})  # reap only once it is recorded
        pid = os.fork()
        if pid == 0:
            run_child(child, fds, plan, request.get("args", args))
        children.add(pid)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        close_all(fds)
        answer(control, request.get("id"), pid)
    for pid in list(children):
        kill_group(pid)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for pid in list(children):
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def answer(control: socket.socket, request: Any, pid: int) -> None:
    pidfd = None
    if hasattr(os, "pidfd_open"):
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            pidfd = None
    try:
        send(control, {"id": request, "pid": pid}, [pidfd] if pidfd is not None else [])
    finally:
        if pidfd is not None:
            os.close(pidfd)


def run_child(setup: ChildSetup, fds: list[int], plan: Any, args: list[str], report_imports: int = -1) -> None:
    """The forked child: take over the given stdio, become its own process group, run the server.
    With `report_imports`, the names of all its modules are written there when the server returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        os.setsid()
        die_with_parent(setup.template_pid, setup.prctl)
        setup.control.close()
        stdio, stderr = fds
        os.dup2(stdio, 0)
        os.dup2(stdio, 1)
        os.dup2(stderr, 2)
        close_all([fd for fd in fds if fd > 2])
        reopen_standard_streams()
        code = run_server(plan, args)
        if report_imports >= 0:
            write_all(report_imports, "\n".join(list(sys.modules)).encode())
    except SystemExit as exc:
        code = exit_code(exc)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def reopen_standard_streams() -> None:
    """New sys.stdin/stdout/stderr over fds 0-2, as a fresh interpreter would make them: the
    template's were made for its own files (a seekable log file, say), not for a socket."""
    made = []
    for fd, old in ((0, sys.__stdin__), (1, sys.__stdout__), (2, sys.__stderr__)):
        raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
        buffered = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
        encoding = getattr(old, "encoding", None) or "utf-8"
        errors = "backslashreplace" if fd == 2 else getattr(old, "errors", None) or "strict"
        made.append(io.TextIOWrapper(buffered, encoding=encoding, errors=errors, line_buffering=fd == 2))
    sys.stdin, sys.stdout, sys.stderr = made
    for index, name in enumerate(("__stdin__", "__stdout__", "__stderr__")):
        setattr(sys, name, made[index])  # libraries that reach for the originals get these too


def write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def run_server(plan: Any, args: list[str]) -> int:
    try:
        if plan.main_code is not None:
            module = sys.modules[plan.module]
            sys.argv = [getattr(module, "__file__", None) or plan.module, *args]
            sys.modules["__main__"] = module
            exec(plan.main_code, module.__dict__)
        else:
            sys.argv = ["-m", *args]
            runpy.run_module(plan.module, run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        return exit_code(exc)
    return 0


def load_prctl() -> Any:
    """Linux's prctl(2), loaded once in the template; None elsewhere."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def die_with_parent(template_pid: int, prctl: Any) -> None:
    """Have the kernel kill this child when the template dies (Linux); elsewhere stdin EOF does."""
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != template_pid:  # the template died before the request took effect
        os._exit(1)


def exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


def kill_group(pid: int) -> None:
    """Kill the child's process group (it leads one after setsid), or the child alone before that."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            continue


def close_all(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def send(control: socket.socket, message: dict[str, Any], fds: list[int] | None = None) -> None:
    data = json.dumps(message).encode()
    if fds:
        socket.send_fds(control, [data], fds)
    else:
        control.sendall(data)


if __name__ == "__main__":
    main()
