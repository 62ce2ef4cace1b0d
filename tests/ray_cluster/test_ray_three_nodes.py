"""`--executor ray` on a local cluster of 3 nodes (`ray.cluster_utils.Cluster`, a raylet each):
tool-server templates once per node, a node lost mid-campaign, the same report as a local run.

One campaign of the fake ThinkingBox-Bench checkout (its servers forked from a template) runs once
for the module: while it runs, the fork templates are counted per node (the raylet each descends
from); after some trials are in, a worker node is removed (its raylet and everything under it
killed); the run must still finish every attempt, each recorded once, with no errors left.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("ray")

from tbfakes import CONSULTING_FILE, RETAIL_FILE, make_fake_checkout

pytestmark = pytest.mark.slow

STATEBOX = str(Path(sys.executable).with_name("statebox"))
TASKS = [f"{RETAIL_FILE}:{name}" for name in ("test_cancel_order", "test_expedite_shipping",
         "test_order_lookup_only", "test_warranty_ticket")] + [f"{CONSULTING_FILE}:test_escalation"]  # fmt: skip
REPEAT = 24
NODES = 3
NODE_CPUS = 2  # so that a worker per CPU (not per node) would show as two templates on a node
RUN_TIMEOUT_S = 900  # 2 shared cores: generous


@dataclass
class ClusterRun:
    """What the module's one campaign on the cluster left and what was seen while it ran."""

    ray_run: Path
    local_run: Path
    raylets: int  # raylet processes of the cluster at the start
    templates: Counter[int] = field(default_factory=Counter)  # raylet pid -> most fork templates seen under it
    trials_at_kill: int = 0
    stderr: str = ""


def _processes() -> dict[int, tuple[int, bytes]]:
    """pid -> (parent pid, argv[0] and argv[1] joined) of every process we can read."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        found[int(entry.name)] = (parent, b" ".join(argv[:3]))
    return found


def _templates_per_raylet(raylets: set[int]) -> Counter[int]:
    """Fork-server templates alive now, counted by the raylet (node) they descend from."""
    procs, counts = _processes(), Counter[int]()
    for pid, (parent, argv) in procs.items():
        if b"fork_template.py" not in argv or b"fork_template.py" in procs.get(parent, (0, b""))[1]:
            continue  # not a template, or a server forked from one (a fork keeps its parent's argv)
        ancestor = procs.get(pid, (0, b""))[0]
        while ancestor > 1 and ancestor not in raylets:
            ancestor = procs.get(ancestor, (0, b""))[0]
        if ancestor in raylets:  # not another test's template on this shared machine
            counts[ancestor] += 1
    return counts


def _raylets_of(owner: int) -> set[int]:
    procs = _processes()

    def below(pid: int) -> bool:
        while pid > 1:
            if pid == owner:
                return True
            pid = procs.get(pid, (0, b""))[0]
        return False

    return {pid for pid, (_, argv) in procs.items() if b"raylet/raylet" in argv and below(pid)}


def _trials(run: Path) -> list[dict[str, Any]]:
    path = run / "trials.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip().endswith("}")]


def _command(out: Path, data: Path, test_list: Path, *extra: str) -> list[str]:
    return [STATEBOX, "run", "thinkingbox-bench", "--data", str(data), "--test-list", str(test_list),
            "--agent", "reference", "--repeat", str(REPEAT), "--concurrency", "4", "--out", str(out),
            "--no-progress", *extra]  # fmt: skip


def _report(run: Path) -> dict[str, Any]:
    done = subprocess.run([STATEBOX, "report", str(run), "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report: dict[str, Any] = json.loads(done.stdout)
    for r in report.get("runs", []):
        r.pop("run_dir", None)
        r.pop("path", None)
    return report


@pytest.fixture(scope="module")
def cluster_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClusterRun]:
    from ray.cluster_utils import Cluster

    root = tmp_path_factory.mktemp("ray-cluster")
    fake = make_fake_checkout(root / "checkout")
    test_list = root / "list.yaml"
    test_list.write_text(yaml.safe_dump(TASKS))
    cluster = Cluster(
        initialize_head=True, connect=False, head_node_args={"num_cpus": NODE_CPUS, "include_dashboard": False}
    )
    try:
        workers = [cluster.add_node(num_cpus=NODE_CPUS) for _ in range(NODES - 1)]
        cluster.wait_for_nodes()
        seen = ClusterRun(root / "ray", root / "local", raylets=len(_raylets_of(os.getpid())))
        _run_and_kill(seen, cluster, workers[-1], _command(seen.ray_run, fake.root, test_list, "--executor", "ray",
                                                           "--ray-address", cluster.address))  # fmt: skip
        local = subprocess.run(_command(seen.local_run, fake.root, test_list), capture_output=True, text=True,
                               timeout=RUN_TIMEOUT_S)  # fmt: skip
        assert local.returncode == 0, local.stderr[-2000:]
        yield seen
    finally:
        cluster.shutdown()


def _time_to_kill(seen: ClusterRun) -> bool:
    """After REPEAT trials, once every node has shown its template (a loaded machine may start the
    last node's worker late), and at the latest half-way through, so the kill stays mid-campaign."""
    trials = len(_trials(seen.ray_run))
    return trials >= REPEAT and (len(seen.templates) >= NODES or trials >= len(TASKS) * REPEAT // 2)


def _run_and_kill(seen: ClusterRun, cluster: Any, victim: Any, command: list[str]) -> None:
    """Run the campaign; count templates per node until a few trials are in, then remove `victim`."""
    raylets = _raylets_of(os.getpid())
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + RUN_TIMEOUT_S
    while proc.poll() is None and time.monotonic() < deadline and not _time_to_kill(seen):
        for raylet, count in _templates_per_raylet(raylets).items():
            seen.templates[raylet] = max(seen.templates[raylet], count)
        time.sleep(0.05)
    seen.trials_at_kill = len(_trials(seen.ray_run))
    if proc.poll() is None:
        cluster.remove_node(victim)
    _, seen.stderr = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
    assert proc.returncode == 0, f"exit {proc.returncode}: {seen.stderr[-3000:]}"


def test_the_cluster_has_three_nodes(cluster_run: ClusterRun) -> None:
    assert cluster_run.raylets == NODES


def test_each_node_starts_its_tool_server_template_once(cluster_run: ClusterRun) -> None:
    per_node = dict(cluster_run.templates)
    assert len(per_node) == NODES and set(per_node.values()) == {1}, f"templates per raylet pid: {per_node}"


def test_a_node_removed_mid_campaign_leaves_every_attempt_recorded_exactly_once(cluster_run: ClusterRun) -> None:
    assert 0 < cluster_run.trials_at_kill < len(TASKS) * REPEAT, f"{cluster_run.trials_at_kill} trials at the kill"
    reran = re.search(r"(\d+) attempt\(s\) ran again after their Ray worker was lost", cluster_run.stderr)
    assert reran is not None and int(reran.group(1)) > 0, cluster_run.stderr[-2000:]
    counts = Counter(t["trial_id"] for t in _trials(cluster_run.ray_run))
    assert {tid: n for tid, n in counts.items() if n > 1} == {}
    expected = {f"thinkingbox-bench/{task}/reference/-/{r}" for task in TASKS for r in range(REPEAT)}
    assert set(counts) == expected, (
        f"missing {sorted(expected - set(counts))[:3]}, extra {sorted(set(counts) - expected)[:3]}"
    )
    errors = cluster_run.ray_run / "errors.jsonl"
    assert not errors.exists() or errors.read_text().strip() == "", errors.read_text()[:2000]


def test_the_report_is_the_local_runs(cluster_run: ClusterRun) -> None:
    ray_trials = {t["trial_id"]: (t["passed"], t["state_hash"]) for t in _trials(cluster_run.ray_run)}
    local_trials = {t["trial_id"]: (t["passed"], t["state_hash"]) for t in _trials(cluster_run.local_run)}
    assert ray_trials == local_trials
    assert _report(cluster_run.ray_run) == _report(cluster_run.local_run)
