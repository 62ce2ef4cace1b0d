"""A latency-bound campaign on a local Ray cluster of 1 and of 3 nodes: does throughput grow with the slots?

    python benchmarks/bench_ray_nodes.py                        # 1 and 3 nodes x 32 slots, 1000 ms, 3 waves
    python benchmarks/bench_ray_nodes.py --nodes 3 --slots 256 --waves 4

Per configuration: a `ray.cluster_utils.Cluster` of N nodes (a raylet each, 1 CPU each, all on this
machine), the fake model with a fixed latency in its own process, and one real `statebox run retail
--agent llm --user scripted --executor ray --ray-address ...` with `--concurrency` N x slots (the
per-model limit holds cluster-wide: the driver hands every attempt out; one worker per node). The
campaign is `bench_latency_campaign.run_campaign`'s, so the columns mean what they mean there:
attempts/s from the model's first request to the end, ideal = concurrency / (calls per attempt x
latency), share = attempts/s over ideal, steady = model calls/s over the middle 80% of the calls
against concurrency / latency. The workers' CPU is not in these figures (Ray's processes are not
this process's children until the cluster stops); the fake model's is.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from pathlib import Path

from ray.cluster_utils import Cluster

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_latency_campaign import SUITE, Result, run_campaign  # the same campaign


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def on_cluster(nodes: int, slots: int, latency_ms: int, waves: float, work: Path) -> Result:
    from statebox.suites import load_suite

    concurrency = nodes * slots
    repeat = max(1, math.ceil(waves * concurrency / len(load_suite(SUITE).tasks)))
    cluster = Cluster(initialize_head=True, connect=False, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        for _ in range(nodes - 1):
            cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        extra = ("--executor", "ray", "--ray-address", cluster.address)
        return run_campaign(latency_ms, 0, concurrency, repeat, 0, work / f"n{nodes}", extra)
    finally:
        cluster.shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 3])
    parser.add_argument("--slots", type=int, default=32, help="attempts in flight per node")
    parser.add_argument("--latency-ms", type=int, default=1000)
    parser.add_argument("--waves", type=float, default=3)
    args = parser.parse_args(argv)
    print(f"{os.cpu_count()} CPUs; load average {load()} at start", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-ray-nodes-") as tmp:
        for nodes in args.nodes:
            before = load()
            r = on_cluster(nodes, args.slots, args.latency_ms, args.waves, Path(tmp))
            rows.append((nodes, r, f"{before} -> {load()}"))
            print(f"  {nodes} node(s): {r.attempts} attempts in {r.wall_s:.1f} s; load {load()}", flush=True)
    print("| nodes | slots | concurrency | attempts | attempts/s | ideal | share | steady | fake model CPU | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for nodes, r, loads in rows:
        print(f"| {nodes} | {args.slots} | {r.concurrency} | {r.attempts} | {r.achieved:.2f} | {r.ideal:.2f} | "
              f"{r.achieved / r.ideal:.0%} | {r.steady_share:.0%} | {r.model_cpu_s:.1f} s | {loads} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
