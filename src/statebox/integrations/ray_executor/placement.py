"""Where the Ray workers go: one per node by default, so what a worker starts once (tool-server fork
templates, a suite's snapshots) is started once per node, not once per CPU.

A worker is pinned to its node softly: if the node is lost, Ray restarts the worker on another one
(which then holds two). `--workers N` asks for N workers in all, dealt round the nodes.
"""

from __future__ import annotations

from typing import Any

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy


def worker_nodes() -> list[str]:
    """The ids of the cluster's live nodes that have a CPU for a worker, in Ray's order."""
    return [
        node["NodeID"] for node in ray.nodes() if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) >= 1
    ]


def placements(workers: int) -> list[Any]:
    """A scheduling strategy per worker: `workers` of them (0: one per node), dealt round the nodes."""
    nodes = worker_nodes()
    if not nodes:
        return [None] * max(1, workers)  # nothing to pin to: Ray places them
    count = workers or len(nodes)
    return [NodeAffinitySchedulingStrategy(nodes[i % len(nodes)], soft=True) for i in range(count)]
