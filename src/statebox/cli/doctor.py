"""`statebox doctor`: what this installation can do, and why where it cannot.

Which way sessions are restored (copy-on-write over the baseline image, or a copy of it) and the
reason, the SQLite the VFS is registered with beside the stdlib's, whether bubblewrap is on PATH
for isolated custom checks, the Python, and the optional extras installed. It opens no suite.
"""

from __future__ import annotations

import importlib.metadata
import platform
import re
import shutil
import sys
from typing import Annotated, Literal

import typer
from pydantic import BaseModel

from statebox.cli.common import print_json
from statebox.world import cow

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


class SqliteBuild(BaseModel):
    version: str
    source_id: str  # equal source ids: the same SQLite build


class Sessions(BaseModel):
    restore: cow.Restore
    reason: str
    route: cow.Route | None  # how the copy-on-write extension reached SQLite; None where it did not
    extension_sqlite: SqliteBuild | None
    stdlib_sqlite: SqliteBuild
    same_sqlite: bool | None  # whether the extension and the stdlib run one SQLite; None without the extension


class Sandbox(BaseModel):
    bwrap: str | None  # bubblewrap's path, the isolation custom checks can run under; None: not on PATH


class PythonInfo(BaseModel):
    version: str
    implementation: str
    executable: str


class DoctorReport(BaseModel):
    version: Literal[1] = 1
    statebox: str
    sessions: Sessions
    custom_check_sandbox: Sandbox
    python: PythonInfo
    extras: dict[str, bool]  # each optional extra of statebox: whether everything it needs is installed


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)


def doctor(json_out: JsonOpt = False) -> None:
    """Say how sessions are restored here and why, the SQLite on each side, the sandbox, Python and extras."""
    report = diagnose()
    if json_out:
        print_json(report.model_dump(mode="json"))
        return
    for name, line in _lines(report):
        sys.stdout.write(f"{name:<9} {line}\n")


def diagnose() -> DoctorReport:
    return DoctorReport(
        statebox=_version("statebox") or "unknown",
        sessions=_sessions(cow.describe()),
        custom_check_sandbox=Sandbox(bwrap=shutil.which("bwrap")),
        python=PythonInfo(
            version=platform.python_version(), implementation=platform.python_implementation(),
            executable=sys.executable,
        ),
        extras=_extras(),
    )


def _sessions(path: cow.RestorePath) -> Sessions:
    ext = None
    if path.extension_sqlite is not None and path.extension_source_id is not None:
        ext = SqliteBuild(version=path.extension_sqlite, source_id=path.extension_source_id)
    stdlib = SqliteBuild(version=path.stdlib_sqlite, source_id=path.stdlib_source_id)
    return Sessions(
        restore=path.restore, reason=path.reason, route=path.route, extension_sqlite=ext, stdlib_sqlite=stdlib,
        same_sqlite=None if ext is None else ext == stdlib,
    )


def _lines(report: DoctorReport) -> list[tuple[str, str]]:
    s = report.sessions
    ext = "none attached" if s.extension_sqlite is None else (
        f"{s.extension_sqlite.version}" + (" (the same build)" if s.same_sqlite else " (a DIFFERENT build)"))
    bwrap = report.custom_check_sandbox.bwrap
    extras = report.extras
    return [
        ("sessions", f"{s.restore}: {s.reason}"),
        ("sqlite", f"python's sqlite3 runs SQLite {s.stdlib_sqlite.version}; the copy-on-write VFS: {ext}"),
        ("sandbox", f"bubblewrap at {bwrap}" if bwrap else "bubblewrap (bwrap) is not on PATH"),
        ("python", f"{report.python.implementation} {report.python.version} ({report.python.executable})"),
        ("statebox", report.statebox),
        ("extras", ", ".join(f"{name} {'yes' if ok else 'no'}" for name, ok in extras.items()) or "none declared"),
    ]


def _extras() -> dict[str, bool]:
    """statebox's optional extras, each installed when every requirement it names alone is.

    A requirement with a marker beyond `extra == ...` (a platform, a Python version) is not counted.
    """
    try:
        requires = importlib.metadata.requires("statebox") or []
        declared = importlib.metadata.metadata("statebox").get_all("Provides-Extra") or []
    except importlib.metadata.PackageNotFoundError:
        return {}
    needs: dict[str, list[str]] = {name: [] for name in declared}
    for requirement in requires:
        spec, _, marker = requirement.partition(";")
        found = re.fullmatch(r'\s*extra\s*==\s*"([^"]+)"\s*', marker)
        name = re.match(r"[A-Za-z0-9._-]+", spec.strip())
        if found and name and found.group(1) in needs:
            needs[found.group(1)].append(name.group(0))
    return {extra: all(_version(n) is not None for n in names) for extra, names in needs.items()}


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None
