"""The rooms as built keep every rule docs/architecture.md states, and the checker (architecture_rules.py) catches a
violation of each rule planted in a copy of the source tree, naming the file and the rule."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from architecture_rules import Violation, check, check_facades, read_facades, read_rules

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "statebox"
PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_the_source_keeps_every_rule_of_the_page() -> None:
    found = check(SRC, PAGE)
    assert not found, "\n".join(map(str, found))


def test_the_lazy_facades_import_no_heavy_package() -> None:
    found = check_facades(SRC, PAGE)
    assert not found, "\n".join(map(str, found))


def test_the_page_states_each_rule_the_checker_reads() -> None:
    assert read_facades(PAGE) == (["statebox.mcp", "statebox.fakemodel", "statebox.compat.thinkingbox"],
                                  ["mcp", "uvicorn", "starlette"])
    rules = read_rules(PAGE)
    assert {"llm", "metrics", "lazy.py", "private_api.py"} <= rules.isolated, rules.isolated
    assert {("cli", "compat"), ("cli", "domains")} <= rules.forbidden, rules.forbidden
    assert rules.nameless == {"cli"} and rules.suite_blind == {"runner/campaign.py"}
    assert rules.allowed == {("compat", "importing"), ("tasks", "domains")}
    assert rules.beside == {"lazy.py", "private_api.py"}
    assert len(rules.layers) == len({p for p in SRC.iterdir() if p.is_dir() and not p.name.startswith("__")})


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of src/statebox to plant violations in (sources only)."""
    target = tmp_path / "statebox"
    shutil.copytree(SRC, target, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c", "*.md", "*.yaml"))
    return target


def plant(copy: Path, file: str, code: str) -> list[Violation]:
    """Append `code` to `file` of the copy (created if new) and check the copy."""
    path = copy / file
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write("\n" + code + "\n")
    return check(copy, PAGE)


PLANTED = [
    # rule, file, code
    ("layers", "world/planted.py", "from ..runner import campaign"),
    ("layers", "world/planted.py", "from .. import runner"),
    ("layers", "world/planted.py", "import statebox.runner.campaign"),
    ("layers", "world/planted.py", "import importlib\nimportlib.import_module('statebox.runner.campaign')"),
    ("layers", "world/planted.py", "import importlib\nimportlib.import_module(f'statebox.judge.{1}')"),
    ("layers", "judge/planted.py", "from statebox.users import base"),  # the same layer, not in the table
    ("layers", "tools/sub/planted.py", "from ...kit import build"),
    ("nothing of statebox", "llm/planted.py", "from statebox.lazy import lazy_attributes"),
    ("nothing of statebox", "llm/planted.py", "from statebox import __version__"),
    ("nothing of statebox", "metrics/planted.py", "import statebox"),
    ("nothing of statebox", "lazy.py", "from statebox.private_api import require"),
    ("nothing of statebox", "private_api.py", "from . import lazy"),
    ("cli", "cli/planted.py", "from statebox.compat import thinkingbox"),
    ("cli", "cli/planted.py", "import statebox.domains.retail"),
    ("cli", "cli/planted.py", "DEFAULT_SUITE = 'retail'"),
    ("cli", "cli/planted.py", "DEFAULT_SUITE = 'taubench'"),
    ("no module-level mutable state", "tools/planted.py", "SEEN: list[str] = []\ndef see(x):\n    SEEN.append(x)"),
    ("no module-level mutable state", "tools/planted.py", "CACHE = {}\ndef put(k, v):\n    CACHE[k] = v"),
    ("no module-level mutable state", "tools/planted.py", "N = 0\ndef bump():\n    global N\n    N += 1"),
    ("no suite-specific branches", "runner/campaign.py", "from statebox.tasks import Suite"),
    ("beside the rooms", "helpers.py", "X = 1"),
    ("rooms", "scratch/__init__.py", ""),
]


IDS = [f"{rule}: {file}: {code.splitlines()[-1] if code else 'new'}" for rule, file, code in PLANTED]


@pytest.mark.parametrize(("rule", "file", "code"), PLANTED, ids=IDS)
def test_a_planted_violation_fails_naming_the_file_and_the_rule(copy: Path, rule: str, file: str, code: str) -> None:
    found = plant(copy, file, code)
    where = file.split("/")[0] + "/" if rule == "rooms" else file
    assert found and all((v.path, v.rule) == (where, rule) for v in found), "\n".join(map(str, found)) or "nothing"
    assert f"{where}: {rule}: " in str(found[0])


def test_a_room_in_the_table_but_not_in_the_source_fails(copy: Path) -> None:
    shutil.rmtree(copy / "fakemodel")
    found = [str(v) for v in check(copy, PAGE) if v.rule == "rooms"]
    assert found == ["fakemodel/: rooms: a room in the table that is not a folder"], found


def test_the_adapters_shared_folder_is_no_suite_to_name(copy: Path) -> None:
    assert plant(copy, "cli/planted.py", "SECTION = 'common'") == []


def test_an_allowed_import_and_a_lower_layer_pass(copy: Path) -> None:
    found = plant(copy, "compat/planted.py", "from statebox.importing import registry\nfrom ..world import Snapshot")
    assert found == [], "\n".join(map(str, found))


def test_a_facade_importing_a_heavy_package_fails_naming_it(copy: Path) -> None:
    with (copy / "fakemodel" / "__init__.py").open("a", encoding="utf-8") as facade:
        facade.write("\nimport uvicorn\n")
    found = [str(v) for v in check_facades(copy, PAGE)]
    assert found == ["fakemodel/__init__.py: lazy facades: importing statebox.fakemodel imports uvicorn"], found
