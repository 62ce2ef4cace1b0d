"""Every `statebox` example in README.md and docs/ names a command and options that exist; the examples
that need no API key, no ThinkingBox data and no running server are run, and succeed."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from statebox.cli import app

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN_WHOLE = {"statebox suites", "statebox tasks retail"}  # fast, and need nothing set up


def _examples() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        for block in re.findall(r"```(?:bash|sh|console)?\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.S):
            for line in block.replace("\\\n", " ").splitlines():
                command = line.split("#")[0].strip().removeprefix("$ ")
                if command.startswith("statebox "):
                    found.append((doc.relative_to(ROOT).as_posix(), command))
    return found


EXAMPLES = _examples()


def _help(words: list[str]) -> str:
    result = CliRunner(env={"COLUMNS": "250"}).invoke(app, [*words, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("doc", "command"), EXAMPLES, ids=[f"{d}: {c[:60]}" for d, c in EXAMPLES])
def test_every_documented_command_and_option_exists(doc: str, command: str) -> None:
    words = shlex.split(command.replace("$", "X"))[1:]
    sub = [words[0]] if words else []
    if len(words) > 1 and f" {words[1]} " in _help(sub) and not words[1].startswith("-"):
        sub = words[:2] if words[1] in _subcommands(words[0]) else sub
    usage = _help(sub)
    unknown = [w.split("=")[0] for w in words if w.startswith("--") and w.split("=")[0] not in usage]
    assert not unknown, f"{doc}: `{command}` uses options `statebox {' '.join(sub)}` does not have: {unknown}"


def _subcommands(group: str) -> set[str]:
    return set(re.findall(r"^│ (\w[\w-]*) ", _help([group]), flags=re.M))


@pytest.mark.parametrize("command", sorted(RUN_WHOLE))
def test_the_examples_needing_nothing_run(command: str) -> None:
    assert any(c == command for _, c in EXAMPLES), f"`{command}` is no longer in the docs"
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
