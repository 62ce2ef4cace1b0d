"""The 40 test functions of the real checkout outside the v1 list, which check `x` with their own
Python: loaded as custom-check tasks (one, tagged `skip`, left out as the benchmark's loader does)
and validated on their own servers (`thinkingbox_tools`), each check run in the sandbox.

None of them has a reference solution in the data (no `golden_test_case`), so the reference attempt
does what the no-op does. `validate` has no judge model: a check that asks the judge is not judged
(never an assumed yes), and says so. The no-op therefore passes exactly the checks that doing
nothing satisfies without asking the judge anything.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from realenv import ROOT

STATEBOX = str(ROOT / ".venv" / "bin" / "statebox")
FILES = ("airline_tau_bench.py", "banking.py", "banking_email.py", "email_system_org.py", "mcs_defaults.py")
SKIPPED = "banking.py:test_pay_mortgage_bot_instructions"
NOOP_PASSES = [  # doing nothing satisfies them, and they ask the judge nothing on an empty transcript
    "airline_tau_bench.py:test_015_remove_passenger_or_downgrade_all_if_blocked",
    "mcs_defaults.py:test_mcs_defaults_difficult",
    "mcs_defaults.py:test_mcs_defaults_easy",
    "mcs_defaults.py:test_mcs_defaults_medium",
]
NOT_JUDGED = [  # their state checks hold on an untouched database, then they ask the judge
    "airline_tau_bench.py:test_012_cancel_mco_to_clt_insist_refund",
    "airline_tau_bench.py:test_017_push_back_and_business_upgrade_with_budget_limit",
    "airline_tau_bench.py:test_018_cancel_basic_economy_persistent_refund",
    "airline_tau_bench.py:test_021_basic_economy_change_restriction_sick_cat",
    "banking.py:test_get_balance_savings",
    "banking.py:test_check_balance_1",
    "banking.py:test_check_balance_2",
]


def custom_ids(data: Path) -> list[str]:
    """Every `test_*` function of the five files, read from their text (never imported)."""
    ids = []
    for file in FILES:
        text = (data / "dataset" / "test_case" / file).read_text(encoding="utf-8")
        ids += [f"{file}:{name}" for name in re.findall(r"^def (test_\w+)\(", text, flags=re.M)]
    return ids


@pytest.fixture(scope="module")
def custom_list(tb_env: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tb-custom") / "custom.yaml"
    path.write_text(yaml.safe_dump(custom_ids(Path(tb_env.data))))
    return path


def statebox(*args: Any, timeout: float = 900) -> dict[str, Any]:
    done = subprocess.run([STATEBOX, *map(str, args), "--json"], capture_output=True, text=True, timeout=timeout)
    assert done.stdout.strip(), f"statebox {args[0]} printed nothing (exit {done.returncode}): {done.stderr[-2000:]}"
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def validated(tb_env: Any, custom_list: Path) -> dict[str, dict[str, Any]]:
    report = statebox("validate", "thinkingbox-bench", "--data", tb_env.data, "--server-python", tb_env.python,
                      "--test-list", custom_list)  # fmt: skip
    return {r["id"]: r for r in report["tasks"]}


def test_all_40_load_as_custom_check_tasks_and_the_one_tagged_skip_is_left_out(tb_env: Any, custom_list: Path) -> None:
    listing = statebox("tasks", "thinkingbox-bench", "--data", tb_env.data, "--test-list", custom_list, timeout=120)
    ids = yaml.safe_load(custom_list.read_text())
    assert len(ids) == 40
    assert (listing["unsupported"], listing["skipped"]) == ([], [SKIPPED])
    assert listing["custom_check"] == [i for i in ids if i != SKIPPED]


def test_every_check_runs_and_the_noop_passes_exactly_the_checks_doing_nothing_satisfies(
    validated: dict[str, dict[str, Any]],
) -> None:
    assert len(validated) == 39 and SKIPPED not in validated
    assert [t for t, r in validated.items() if r["noop_passes"]] == NOOP_PASSES


def test_with_no_reference_solution_the_reference_verdicts_are_the_noops(validated: dict[str, dict[str, Any]]) -> None:
    assert {t: (r["reference_passes"], r["noop_passes"]) for t, r in validated.items()} == {
        t: (t in NOOP_PASSES, t in NOOP_PASSES) for t in validated
    }


def test_without_a_judge_model_the_checks_that_ask_it_are_not_judged(validated: dict[str, dict[str, Any]]) -> None:
    unjudged = [t for t, r in validated.items() if any("custom check not judged" in p for p in r["problems"])]
    assert unjudged == NOT_JUDGED


def test_every_failing_check_names_its_task_and_line_and_an_unjudged_one_its_questions(
    validated: dict[str, dict[str, Any]],
) -> None:
    said = r"custom check (failed at dataset/test_case/[\w.]+:\d+|not judged: \d+ judge\(\.\.\.\) question)"
    unnamed = {
        t: r["problems"]
        for t, r in validated.items()
        if t not in NOOP_PASSES
        and not (len(r["problems"]) == 1 and re.match(rf"{re.escape(t)}: {said}", r["problems"][0]))
    }  # fmt: skip
    assert unnamed == {}
