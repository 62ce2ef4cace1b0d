"""A package publishes its domain folder through the `statebox.suites` entry point with `folder_suite`: listed by
`statebox suites` with its task count, validated and run by its name (here an unpacked dist-info on PYTHONPATH)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from owndomain_kit import NAME, statebox

from statebox.folders.scaffold import write_scaffold

PACKAGE = '''"""Acme's support desk, published to statebox."""

from pathlib import Path

from statebox.folders import folder_suite

SUITE = folder_suite(Path(__file__).parent / "domain", name="acme-support")
'''


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose PYTHONPATH holds a package `acme_pack` declaring the entry point."""
    root = tmp_path_factory.mktemp("site")
    write_scaffold(NAME, root / "acme_pack" / "domain")
    (root / "acme_pack" / "__init__.py").write_text(PACKAGE)
    info = root / "acme_pack-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-pack\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[statebox.suites]\nacme-support = acme_pack:SUITE\n")
    return {**os.environ, "PYTHONPATH": str(root)}


def test_statebox_suites_lists_the_published_domain_with_its_count(site: dict[str, str]) -> None:
    done = statebox("suites", "--json", env=site)
    assert done.returncode == 0, done.stderr
    rows = {r["suite"]: r for r in json.loads(done.stdout)}
    assert rows["acme-support"]["tasks"] == 3, rows.get("acme-support")
    assert "builtin" in rows and not any("/" in name for name in rows), sorted(rows)


def test_the_published_domain_validates_and_runs_by_its_name(site: dict[str, str], tmp_path: Path) -> None:
    checked = statebox("validate", "acme-support", env=site)
    assert checked.returncode == 0 and checked.stdout.strip().endswith("acme-support: 3/3 tasks pass every check"), (
        checked.stdout[-800:] + checked.stderr
    )
    ran = statebox("run", "acme-support", "--agent", "reference", "--out", str(tmp_path / "run"), env=site)
    assert ran.returncode == 0, ran.stderr
    records = [json.loads(line) for line in (tmp_path / "run" / "trials.jsonl").read_text().splitlines()]
    assert [(r["suite"], r["domain"], r["passed"]) for r in records] == [("acme-support", NAME, True)] * 3
