"""The offline tools on a ThinkingBox-Bench run (a fake checkout): regrade says what it cannot redo."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from statebox.runner.store import RunDir
from tbfakes import FakeCheckout, make_fake_checkout

STATEBOX = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "statebox")


def statebox(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([STATEBOX, *map(str, args)], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def tb_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[FakeCheckout, Path]:
    root = tmp_path_factory.mktemp("offline-tb")
    fake = make_fake_checkout(root / "checkout")
    out = root / "run"
    done = statebox("run", "thinkingbox-bench", "--data", fake.root, "--agent", "reference", "--out", out,
                    "--no-progress")  # fmt: skip
    assert done.returncode == 0, done.stderr
    return fake, out


def test_regrade_keeps_the_servers_verdict_and_says_so(tb_run: tuple[FakeCheckout, Path], tmp_path: Path) -> None:
    fake, run = tb_run
    done = statebox("regrade", run, "--data", fake.root, "--out", tmp_path / "regraded")
    assert done.returncode == 0, done.stderr
    flat = " ".join(done.stdout.split())
    assert "the state verdict is its tool servers' result hash against the golden hash" in flat, done.stdout
    assert "verdicts flipped: 0" in flat
    before = {t.trial_id: (t.passed, t.signature) for t in RunDir(run).trials()}
    assert {t.trial_id: (t.passed, t.signature) for t in RunDir(tmp_path / "regraded").trials()} == before


def test_regrade_without_the_checkout_is_a_one_line_error(tb_run: tuple[FakeCheckout, Path], tmp_path: Path) -> None:
    _, run = tb_run
    done = statebox("regrade", run, "--out", tmp_path / "regraded")
    assert done.returncode == 2 and done.stderr.startswith("error: "), done.stderr
    assert "--data" in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr


def test_verify_passes_on_a_complete_run(tb_run: tuple[FakeCheckout, Path]) -> None:
    fake, run = tb_run
    done = statebox("verify", run, "--data", fake.root)
    assert done.returncode == 0, done.stdout
    assert ": verified" in done.stdout


def test_show_takes_what_was_required_from_the_golden_run(tb_run: tuple[FakeCheckout, Path]) -> None:
    fake, run = tb_run
    record = next(t for t in RunDir(run).trials() if any(t.effects.get(k) for k in ("inserted", "updated")))
    done = statebox("show", run, record.task_id, "--data", fake.root)
    assert done.returncode == 0, done.stderr
    required = done.stdout.split("What was required", 1)[1]
    assert "not available" not in required and ("~ " in required or "+ " in required), required
