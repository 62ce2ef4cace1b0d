"""Which way a user's sessions are restored, and why: `statebox doctor` says it, and it is what sessions do.

The copy-on-write extension links no SQLite: it attaches to the SQLite the stdlib's sqlite3 runs on,
by SQLite loading it as an extension or through the symbols of the file that defines sqlite3. A
process registers the VFS once, so every check of a route runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from statebox.world import cow

STATEBOX = Path(sys.executable).with_name("statebox")


@pytest.fixture
def restore() -> str:
    """Each test here starts processes with the environment it needs: run once, not once per path."""
    return "chosen by the test"


def doctor(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(STATEBOX), "doctor", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})


def python(code: str) -> dict[str, Any]:
    """Run `code` in a fresh interpreter; it prints one JSON object as its last line."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


SESSION_FILE = """
import json, sys
sys.path.insert(0, {tests!r})
from minidomain import WORLD
from statebox.world import Session, Snapshot
session = Session(Snapshot.build(WORLD))
main = next(r[2] for r in session.db.execute("PRAGMA database_list") if r[1] == "main")
print(json.dumps({{"main": main}}))
"""


def session_file(prelude: str = "", **env: str) -> str:
    """The main database file a session opens in a fresh interpreter (a statebox-cow name, or '' for a copy)."""
    code = prelude + SESSION_FILE.format(tests=str(Path(__file__).parents[1]))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout.strip().splitlines()[-1])["main"])


def test_doctor_says_copy_on_write_where_it_works_and_sessions_get_it() -> None:
    if not cow.available():
        pytest.skip(cow.status())
    report = json.loads(doctor({cow.ENV: "1"}, "--json").stdout)["sessions"]
    assert report["restore"] == "copy-on-write", report
    assert report["route"] in ("load_extension", "symbols") and "a probe opened a file" in report["reason"], report
    assert report["same_sqlite"] is True and report["extension_sqlite"] == report["stdlib_sqlite"], report
    assert session_file(**{cow.ENV: "1"}).startswith("/statebox-cow-")


def test_with_statebox_cow_0_doctor_says_copy_and_why_and_sessions_copy() -> None:
    done = doctor({cow.ENV: "0"}, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)["sessions"]
    assert report["restore"] == "copy" and report["reason"].endswith("switched off: STATEBOX_COW=0"), report
    assert not session_file(**{cow.ENV: "0"}).startswith("/statebox-cow-")


def test_doctor_prints_the_path_and_its_reason_in_one_line() -> None:
    done = doctor({cow.ENV: "0"})
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0] == "sessions  copy: page-level copy-on-write switched off: STATEBOX_COW=0"
    assert [line.split()[0] for line in lines] == ["sessions", "sqlite", "sandbox", "python", "statebox", "extras"]


def test_without_the_extension_sessions_copy_and_the_reason_says_it_is_not_built() -> None:
    blocked = "import sys; sys.modules['statebox.world._cowvfs'] = None  # as if no compiler had built it\n"
    report = python(blocked + "import json\nfrom statebox.cli.doctor import diagnose\n"
                    "print(json.dumps(diagnose().sessions.model_dump()))\n")
    assert report["restore"] == "copy" and report["route"] is None and report["same_sqlite"] is None, report
    assert "statebox.world._cowvfs is not built" in report["reason"], report
    assert not session_file(blocked, **{cow.ENV: "1"}).startswith("/statebox-cow-")



def test_an_extension_built_from_an_older_source_is_refused_in_one_line_and_sessions_copy() -> None:
    stale = ("import sys, types; sys.modules['statebox.world._cowvfs'] = types.ModuleType('statebox.world._cowvfs')"
             "  # a build that predates the source: none of the functions cow.py calls\n")
    report = python(stale + "import json\nfrom statebox.cli.doctor import diagnose\n"
                    "print(json.dumps(diagnose().sessions.model_dump()))\n")
    assert report["restore"] == "copy", report
    assert "out of date with its source; reinstall" in report["reason"], report
    assert not session_file(stale, **{cow.ENV: "1"}).startswith("/statebox-cow-")

ATTACH_AND_OPEN = """
    import importlib.machinery, importlib.util, json, sqlite3 as stdlib
    from pathlib import Path
    {imports}
    # The extension alone: importing statebox.world would attach it through world/cow.py first.
    world = Path(importlib.util.find_spec("statebox").submodule_search_locations[0]) / "world"
    found = [p for s in importlib.machinery.EXTENSION_SUFFIXES for p in world.glob("_cowvfs" + s)]
    spec = importlib.util.spec_from_file_location("_cowvfs", found[0])
    _cowvfs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(_cowvfs)
    {attach}
    source = stdlib.connect(":memory:")
    source.executescript("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2);")
    image = _cowvfs.Image(source.serialize())
    conn = {db}.connect(f"file:{{image.name}}?vfs=statebox-cow", uri=True, isolation_level=None)
    conn.execute("INSERT INTO t VALUES (3)")
    try:
        stdlib.connect(f"file:{{image.name}}?vfs=statebox-cow", uri=True)
        other = "opened"
    except stdlib.OperationalError as e:
        other = str(e)
    print(json.dumps({{"rows": conn.execute("SELECT count(*) FROM t").fetchone()[0], "attached": _cowvfs.attached(),
                      "version": {db}.sqlite_version, "stdlib_version": stdlib.sqlite_version, "other": other}}))
"""


def test_the_symbols_route_registers_the_vfs_with_the_stdlibs_own_sqlite() -> None:
    attach = "import _sqlite3; _cowvfs.attach_symbols(_sqlite3.__file__)"
    out = python(ATTACH_AND_OPEN.format(imports="", attach=attach, db="stdlib"))
    assert out["rows"] == 3 and out["other"] == "opened", out
    assert out["attached"]["route"] == "symbols" and out["attached"]["version"] == out["stdlib_version"], out


@pytest.fixture
def bundled() -> str:
    """pysqlite3-binary: a sqlite3 module with its own SQLite linked in statically, as some Pythons have."""
    pytest.importorskip("pysqlite3.dbapi2", reason="pysqlite3-binary (the dev extra, Linux x86-64) is not installed")
    return "import pysqlite3.dbapi2 as bundled"


def test_a_statically_linked_sqlite_that_loads_the_extension_gets_the_vfs_in_itself(bundled: str) -> None:
    attach = textwrap.dedent("""
        loader = bundled.connect(":memory:")
        loader.enable_load_extension(True)
        loader.load_extension(_cowvfs.__file__)
    """).replace("\n", "\n    ")
    out = python(ATTACH_AND_OPEN.format(imports=bundled, attach=attach, db="bundled"))
    assert out["rows"] == 3 and out["attached"]["route"] == "load_extension", out
    assert out["attached"]["version"] == out["version"], "the VFS lives in the SQLite that loaded it"
    if out["version"] != out["stdlib_version"]:  # two SQLite libraries in one process: the system's never sees it
        assert out["other"] == "no such vfs: statebox-cow", out


def test_a_statically_linked_sqlite_is_reached_through_its_own_symbols_too(bundled: str) -> None:
    attach = "import pysqlite3._sqlite3 as module; _cowvfs.attach_symbols(module.__file__)"
    out = python(ATTACH_AND_OPEN.format(imports=bundled, attach=attach, db="bundled"))
    assert out["rows"] == 3 and out["attached"] == {**out["attached"], "route": "symbols", "version": out["version"]}


def test_the_extension_links_no_sqlite_library() -> None:
    if not cow.available():
        pytest.skip(cow.status())
    from statebox.world import _cowvfs

    done = subprocess.run(["ldd", _cowvfs.__file__], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        pytest.skip(f"ldd cannot read {_cowvfs.__file__}: {done.stderr.strip()}")
    assert "sqlite" not in done.stdout, done.stdout
