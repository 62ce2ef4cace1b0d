"""`statebox validate tau-bench:airline` / `:retail` on τ-bench's own code: every reference earns the reward, the
no-op fails every task whose actions write, and the state hash after the reference is the hash τ-bench's own
functions give after the same replay, computed here without statebox (its tools, `load_data`, `to_hashable`,
`consistent_hash`, run directly in the τ-bench Python)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

STATEBOX = str(Path(sys.executable).with_name("statebox"))
COUNTS = {"airline": 50, "retail": 115}

# τ-bench's own replay of every task's actions (its reward's rule: respond and terminate actions skipped,
# a failing action's exception ignored), hashed by its own functions; one JSON list of hashes per domain.
OWN_HASHES = """
import importlib, json, sys
from tau_bench.envs.base import consistent_hash, to_hashable
domain = sys.argv[1]
data_module = importlib.import_module(f"tau_bench.envs.{domain}.data")
all_tools = importlib.import_module(f"tau_bench.envs.{domain}.tools").ALL_TOOLS
tools = {t.get_info()["function"]["name"]: t for t in all_tools}
module = importlib.import_module(f"tau_bench.envs.{domain}.tasks_test")
tasks = next(v for k, v in vars(module).items() if k.startswith("TASKS"))
hashes = []
for task in tasks:
    data = data_module.load_data()
    for action in task.actions:
        if action.name in tools and action.name != "transfer_to_human_agents":
            try:
                tools[action.name].invoke(data=data, **action.kwargs)
            except Exception:
                pass
    hashes.append(consistent_hash(to_hashable(data)))
print(json.dumps(hashes))
"""


@pytest.fixture(scope="module", params=["airline", "retail"])
def validated(request: pytest.FixtureRequest, tau_env: Any) -> tuple[str, dict[str, Any], list[str]]:
    domain = request.param
    env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}
    done = subprocess.run(
        [
            STATEBOX,
            "validate",
            f"tau-bench:{domain}",
            "--data",
            str(tau_env.data),
            "--server-python",
            str(tau_env.python),
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=3600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    own = subprocess.run(
        [str(tau_env.python), "-c", OWN_HASHES, domain],
        capture_output=True,
        text=True,
        cwd=tau_env.data,
        env={**env, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
        timeout=600,
        check=True,
    )
    return domain, json.loads(done.stdout), json.loads(own.stdout.strip().splitlines()[-1])


def test_every_reference_earns_the_reward(validated: tuple[str, dict[str, Any], list[str]]) -> None:
    domain, report, _ = validated
    assert report["counts"]["tasks"] == COUNTS[domain]
    assert report["counts"]["reference_passes"] == COUNTS[domain], [
        t["id"] for t in report["tasks"] if not t["reference_passes"]
    ]


def test_the_noop_fails_every_task_whose_actions_write(validated: tuple[str, dict[str, Any], list[str]]) -> None:
    _, report, _ = validated
    writing = [t for t in report["tasks"] if t["read_only"] is False]
    assert writing and all(t["noop_fails"] for t in writing), [t["id"] for t in writing if not t["noop_fails"]]


def test_the_state_hash_is_the_one_tau_benchs_own_code_computes(
    validated: tuple[str, dict[str, Any], list[str]],
) -> None:
    _, report, own = validated
    mine = [t["state_hash"] for t in sorted(report["tasks"], key=lambda t: int(t["id"]))]
    assert len(own) == len(mine)
    assert [i for i, (a, b) in enumerate(zip(mine, own, strict=True)) if a != b] == []
    golden = [t["gt_data_hash"] for t in sorted(report["tasks"], key=lambda t: int(t["id"]))]
    assert golden == own, "τ-bench's reward replayed the actions to another state than its own functions did"


def test_the_typed_judge_agrees_with_the_hash_on_every_reference_and_noop(
    validated: tuple[str, dict[str, Any], list[str]],
) -> None:
    _, report, _ = validated
    assert report["counts"]["judge_disagreements"] == 0, [
        t["judge_disagreements"] for t in report["tasks"] if t["judge_disagreements"]
    ]
