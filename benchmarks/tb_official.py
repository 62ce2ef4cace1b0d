"""The official ThinkingBox harness (`tb`) for side-by-side benchmarks, built into a cache directory.

- `build_official(env)`: a virtual environment `<cache>/venv` with the harness installed from its
  release tarball, plus the servers' pins and the v1 server package (editable, compat mode) of the
  checkout `env.data`; a stamp makes a second call cost milliseconds.
- `typesense_free_copy(data, into)`: the checkout's `dataset/` and `servers/servers.yaml`, with every
  scenario's `sources` removed so that no server expects a Typesense (as the harness's own setup
  notes say to do without one).
- `OfficialRun`: `tb mcp-start` (the session proxy) and `tb infer` against an OpenAI-compatible
  endpoint, attempts counted from its output file.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import venv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CACHE = ROOT / ".cache" / "tb-official"  # .cache/ is git-ignored
FRAMEWORK_TARBALL = "thinkingbox-framework.tar.gz"
FRAMEWORK_FOLDER = "thinkingbox"  # the tarball's one top-level folder
SERVER_PACKAGE = Path("servers") / "tb_business_ops_servers_202606"
TOOLS_PACKAGE = Path("servers") / "thinkingbox_tools"  # the servers of the custom-check tests outside the v1 list
PINS = ("fastmcp==3.2.4", "odata-query>=0.9")
TOOLS_PINS = ("python-dateutil", "sqlparse")  # what thinkingbox_tools needs besides the harness's own
STAMP = "built.json"


class OfficialError(Exception):
    """The official harness cannot be built or run; the message says what failed."""


@dataclass(frozen=True)
class OfficialEnv:
    """A built harness: its `tb` command and the Python it runs with."""

    tb: Path
    python: Path


def build_official(thirdparty: Path, data: Path, cache: Path = DEFAULT_CACHE, *, tools: bool = False) -> OfficialEnv:
    """The harness in `cache/venv`, built from `thirdparty`'s tarball unless the same build is there;
    `tools`: with the `thinkingbox_tools` servers too (the custom-check tests need them)."""
    tarball = thirdparty / FRAMEWORK_TARBALL
    if not tarball.is_file():
        raise OfficialError(f"{tarball}: no such file (the official harness's release)")
    where = cache / "venv"
    env = OfficialEnv(tb=where / "bin" / "tb", python=where / "bin" / "python")
    info = tarball.stat()
    wanted = {"tarball": str(tarball.resolve()), "size": info.st_size, "mtime": info.st_mtime,
              "servers": str((data / SERVER_PACKAGE).resolve()), "pins": list(PINS)}  # fmt: skip
    if tools:
        wanted |= {"tools": str((data / TOOLS_PACKAGE).resolve()), "tools_pins": list(TOOLS_PINS)}
    stamp = cache / STAMP
    if stamp.is_file() and env.tb.exists():
        try:
            if json.loads(stamp.read_text()) == wanted:
                return env
        except ValueError:
            pass
    stamp.unlink(missing_ok=True)
    source = cache / "src"
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(source, filter="data")
    shutil.rmtree(where, ignore_errors=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(where)
    pip = [str(env.python), "-m", "pip", "--disable-pip-version-check", "-q", "install"]
    _run([*pip, str(source / FRAMEWORK_FOLDER), *PINS, *(TOOLS_PINS if tools else ())])
    for package in (SERVER_PACKAGE, TOOLS_PACKAGE) if tools else (SERVER_PACKAGE,):
        _run([*pip, "--no-deps", "--config-settings", "editable-mode=compat", "-e", str(data / package)])
    stamp.write_text(json.dumps(wanted, indent=1) + "\n")
    return env


def typesense_free_copy(data: Path, into: Path) -> Path:
    """`into` holding the checkout's dataset and servers.yaml, scenario `sources` removed, and its
    `support/` data files (linked: world states name them as `$THINKINGBOX_DATA/support/...`), made once."""
    done = into / ".copied"
    if done.is_file() and done.read_text() == str(data.resolve()):
        return into
    shutil.rmtree(into, ignore_errors=True)
    shutil.copytree(data / "dataset", into / "dataset")
    (into / "servers").mkdir(parents=True)
    shutil.copy2(data / "servers" / "servers.yaml", into / "servers" / "servers.yaml")
    if (data / "support").is_dir():
        (into / "support").symlink_to((data / "support").resolve(), target_is_directory=True)
    for path in sorted((into / "dataset" / "scenario").glob("*.yaml")):
        scenario = yaml.safe_load(path.read_text())
        world = scenario.get("world_state") if isinstance(scenario, dict) else None
        if isinstance(world, dict) and any(isinstance(v, dict) and "sources" in v for v in world.values()):
            for state in world.values():
                if isinstance(state, dict):
                    state.pop("sources", None)
            path.write_text(yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True))
    done.write_text(str(data.resolve()))
    return into


def official_config(endpoint: str, proxy_port: int) -> dict[str, Any]:
    """A `tb` config whose agent, user and judge models are the endpoint's three role paths."""

    def model(role: str, **extra: Any) -> dict[str, Any]:
        return {"type": "aoai", "deployment": "scripted", "endpoint_url": f"{endpoint}/{role}/v1/chat/completions",
                "credential": {"type": "api-key", "api_key": "unused"}, "timeout": 120.0, **extra}  # fmt: skip

    return {
        "mcp_proxy": {"endpoint_url": f"http://127.0.0.1:{proxy_port}", "timeout": 300.0},
        "orchestrator": {"type": "thinkingbox", "agent_model": model("agent", is_reasoning=False)},
        "judge_model": model("judge", temperature=0.0, max_completion_tokens=128),
        "user_model": model("user", temperature=0.3),
    }


@dataclass
class OfficialRun:
    """One `tb infer` campaign through a freshly started session proxy."""

    env: OfficialEnv
    copy: Path  # a Typesense-free copy (typesense_free_copy)
    work: Path  # config, logs and output go here

    def run(self, endpoint: str, test_list: Path, *, repeat: int, batch: int, timeout_s: float) -> dict[str, Any]:
        """Start the proxy, time `tb infer`, stop the proxy; attempts and passes from its output."""
        self.work.mkdir(parents=True, exist_ok=True)
        port = free_port()
        config = self.work / "config.yaml"
        config.write_text(yaml.safe_dump(official_config(endpoint, port)))
        output = self.work / "infer.jsonl"
        output.unlink(missing_ok=True)
        environ = {**harness_environ(), "THINKINGBOX_DATA": str(self.copy), "PYTHONUNBUFFERED": "1"}
        with (self.work / "proxy.log").open("wb") as log:
            proxy = subprocess.Popen(
                [str(self.env.tb), "mcp-start", "--host", "127.0.0.1", "--port", str(port),
                 "--servers", str(self.copy / "servers" / "servers.yaml")],
                cwd=self.copy, env=environ, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
            try:
                wait_port(port, proxy, timeout_s=60.0)
                command = [str(self.env.tb), "infer", "-c", str(config), "--dataset", str(self.copy / "dataset"),
                           "--agent", "think", "--test-list", str(test_list), "--repeat", str(repeat),
                           "--batch-size", str(batch), "--output", str(output)]  # fmt: skip
                started = time.perf_counter()
                with (self.work / "infer.log").open("wb") as infer_log:
                    infer = subprocess.Popen(command, cwd=self.copy, env=environ, stdout=infer_log,
                                             stderr=subprocess.STDOUT)  # fmt: skip
                    status, infer_cpu = wait_measured(infer, timeout_s)
                wall = time.perf_counter() - started
            finally:
                proxy_cpu = stop(proxy)
        if status != 0:
            tail = (self.work / "infer.log").read_text(errors="replace").strip().splitlines()[-5:]
            raise OfficialError(f"tb infer failed ({status}): " + " | ".join(tail))
        rows = [json.loads(line) for line in output.read_text().splitlines() if line.strip()]
        return {"wall_s": wall, "attempts": len(rows), "passed": sum(row_passed(r) for r in rows),
                "errors": sum(bool(r.get("is_system_error")) for r in rows),
                "cpu_s": infer_cpu + proxy_cpu, "proxy_cpu_s": proxy_cpu}  # fmt: skip


def row_passed(row: dict[str, Any]) -> bool:
    """Whether an output row's test passed (its test_result says so)."""
    result = row.get("test_result")
    if isinstance(result, dict):
        for key in ("result", "passed"):
            if key in result:
                return result[key] is True
    return False


def harness_environ() -> dict[str, str]:
    """This process's environment for a harness's commands, as on a machine where Python keeps its
    bytecode caches: without PYTHONDONTWRITEBYTECODE (which some machines set), every process of
    either harness would compile its editable sources again (the official harness: every server it
    starts per attempt; statebox: its own start)."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def compile_bytecode(trees: list[Path]) -> None:
    """Write the bytecode caches of editable sources once, as `pip install` does for a wheel's."""
    for tree in trees:
        if tree.is_dir():
            subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", str(tree)], check=True,
                           stdout=subprocess.DEVNULL, env=harness_environ())  # fmt: skip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_port(port: int, process: subprocess.Popen[bytes], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise OfficialError(f"tb mcp-start exited with status {process.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise OfficialError(f"tb mcp-start did not listen on port {port} within {timeout_s:g} s")


def wait_measured(process: subprocess.Popen[Any], timeout_s: float) -> tuple[int, float]:
    """Wait for a process we started: its exit status and the CPU seconds (user + system) it and
    every descendant it reaped used (wait4's resource usage)."""
    deadline = time.monotonic() + timeout_s
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid == process.pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            return process.returncode, usage.ru_utime + usage.ru_stime
        if time.monotonic() > deadline:
            if _leads_group(process.pid):
                os.killpg(process.pid, 9)
            else:
                process.kill()
            raise OfficialError(f"{process.args!r} did not finish within {timeout_s:g} s")
        time.sleep(0.02)


def _leads_group(pid: int) -> bool:
    try:
        return os.getpgid(pid) == pid
    except ProcessLookupError:
        return False


def stop(process: subprocess.Popen[Any]) -> float:
    """End a process we started, with its process group (its server processes); the CPU seconds
    it and the descendants it reaped used."""
    if process.returncode is not None:
        return 0.0
    os.killpg(process.pid, 15)
    try:
        return wait_measured(process, 10.0)[1]
    except OfficialError:
        return wait_measured(process, 10.0)[1]


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise OfficialError(f"{' '.join(command[4:7])}... failed ({done.returncode}): " + " | ".join(tail))
