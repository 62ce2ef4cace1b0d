"""`statebox new-domain NAME [DIR]` writes a working domain outside the package: its three tasks validate,
the reference agent passes them all, doing nothing fails them all, and `serve` offers its tools over MCP."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from owndomain_kit import NAME, STATEBOX, statebox

SCAFFOLD_FILES = ["README.md", "domain.py", "policy.md", "seed.py", "tools.py"]
TASKS = [
    "downgrade_family_to_basic_with_balance",
    "upgrade_basic_to_plus",
    "upgrade_refused_with_balance_takes_fallback",
]


def test_the_scaffold_has_a_policy_seed_tools_readme_and_three_tasks(scaffold: Path) -> None:
    files = sorted(p.relative_to(scaffold).as_posix() for p in scaffold.rglob("*") if p.is_file())
    assert files == sorted([*SCAFFOLD_FILES, *(f"tasks/{t}.yaml" for t in TASKS)]), files
    assert NAME in (scaffold / "policy.md").read_text()


def test_every_scaffold_task_validates(scaffold: Path) -> None:
    done = statebox("validate", str(scaffold), "--json")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    report = json.loads(done.stdout)
    problems = {t["id"]: t["problems"] for t in report["tasks"]}
    assert problems == {t: [] for t in TASKS}, problems
    assert report["suite"] == str(scaffold.resolve())


def test_validate_takes_a_relative_path(scaffold: Path) -> None:
    done = statebox("validate", "./acme", cwd=scaffold.parent)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert done.stdout.strip().endswith("3/3 tasks pass every check"), done.stdout[-500:]


def _passed(out: Path) -> dict[str, bool]:
    lines = (out / "trials.jsonl").read_text().splitlines()
    return {(r := json.loads(line))["task_id"]: r["passed"] for line in lines}


def test_the_reference_agent_passes_every_task(scaffold: Path, tmp_path: Path) -> None:
    done = statebox("run", str(scaffold), "--agent", "reference", "--out", str(tmp_path / "ref"))
    assert done.returncode == 0, done.stderr
    assert _passed(tmp_path / "ref") == {t: True for t in TASKS}


def test_doing_nothing_fails_every_task(scaffold: Path, tmp_path: Path) -> None:
    done = statebox("run", str(scaffold), "--agent", "noop", "--out", str(tmp_path / "noop"))
    assert done.returncode == 0, done.stderr
    assert _passed(tmp_path / "noop") == {t: False for t in TASKS}


def test_serve_offers_the_two_tools_over_mcp_stdio(scaffold: Path, tmp_path: Path) -> None:
    async def tools_listed() -> set[str]:
        args = ["serve", str(scaffold), "upgrade_basic_to_plus", "--out", str(tmp_path / "verdict.json")]
        params = StdioServerParameters(command=STATEBOX, args=args)
        async with stdio_client(params) as streams, ClientSession(*streams) as session:
            await session.initialize()
            return {t.name for t in (await session.list_tools()).tools}

    # the two tools the scaffold writes, the policy search every kit-built domain has, and serve's own way to talk
    assert anyio.run(tools_listed) == {"get_member", "change_plan", "search_policy", "reply_to_customer"}


def test_a_bad_name_is_one_line_naming_it(tmp_path: Path) -> None:
    done = statebox("new-domain", "Acme Support!", str(tmp_path / "x"))
    assert done.returncode == 2 and not (tmp_path / "x").exists(), done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()] and "'Acme Support!'" in done.stderr, done.stderr


def test_a_folder_that_is_not_empty_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    done = statebox("new-domain", NAME, str(tmp_path))
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and str(tmp_path) in done.stderr, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"] and (tmp_path / "notes.txt").read_text() == "mine"


def test_without_a_folder_it_writes_into_a_new_one_named_for_the_domain(tmp_path: Path) -> None:
    done = statebox("new-domain", NAME, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / NAME / "domain.py").is_file() and f"statebox validate ./{NAME}" in done.stdout, done.stdout


def test_the_scaffold_is_lint_clean_under_the_projects_own_rules(scaffold: Path) -> None:
    ruff = Path(STATEBOX).with_name("ruff")
    config = Path(__file__).resolve().parents[2] / "pyproject.toml"
    done = subprocess.run([str(ruff), "check", "--no-cache", "--config", str(config), str(scaffold)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
