"""Bad `statebox run` input fails at once: a clear one-line error, a non-zero exit, and no run directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from statebox.cli import app

BAD_INPUT = {
    "unknown suite": (["nosuch", "--agent", "reference"], "unknown suite 'nosuch'"),
    "shard index out of range": (["retail", "--agent", "reference", "--shard", "2/2"], "--shard '2/2'"),
    "shard not I/N": (["retail", "--agent", "reference", "--shard", "x"], "--shard 'x'"),
    "shard of zero": (["retail", "--agent", "reference", "--shard", "0/0"], "--shard '0/0'"),
    "shard with three parts": (["retail", "--agent", "reference", "--shard", "0/2/3"], "--shard '0/2/3'"),
    "llm agent without a model": (["retail", "--agent", "llm"], "--model"),
    "unknown agent": (["retail", "--agent", "robot"], "'--agent': Value error, 'robot' is not one of"),
    "unknown user": (["retail", "--agent", "reference", "--user", "robot"], "Invalid value for '--user'"),
    "unknown transport": (["retail", "--agent", "noop", "--tools-via", "x"], "Invalid value for '--tools-via'"),
    "repeat below one": (["retail", "--agent", "reference", "--repeat", "0"], "Invalid value for '--repeat'"),
    "unknown option": (["retail", "--agent", "reference", "--colour", "red"], "No such option: --colour"),
    "server option of another suite": (["retail", "--agent", "reference", "--no-fork"], "--no-fork is only for"),
    "tasks glob matching nothing": (["retail", "--agent", "reference", "--tasks", "no_such_task*"], "no_such_task*"),
}


def _invoke(tmp_path: Path, args: list[str]) -> tuple[Result, Path]:
    out = tmp_path / "run"
    runner = CliRunner(env={"COLUMNS": None, "LINES": None})
    return runner.invoke(app, ["run", *args, "--out", str(out), "--no-progress"]), out


def _cases() -> list[object]:
    return [pytest.param(*BAD_INPUT[name], id=name) for name in BAD_INPUT]


@pytest.mark.parametrize(("args", "says"), _cases())
def test_bad_input_exits_non_zero_names_the_problem_and_writes_nothing(
    tmp_path: Path, args: list[str], says: str
) -> None:
    result, out = _invoke(tmp_path, args)
    assert result.exit_code != 0, result.stderr
    assert result.stderr.startswith("error: ") and says in " ".join(result.stderr.split()), result.stderr
    assert not result.stdout.strip(), result.stdout
    assert not out.exists(), sorted(p.name for p in out.iterdir())


@pytest.mark.parametrize(
    ("args", "says"),
    _cases(),
)
def test_bad_input_error_is_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    result, _ = _invoke(tmp_path, args)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], lines
