"""The capacity table of docs/scale.md: what a campaign of 10^6 attempts needs, from measured figures.

    python benchmarks/capacity_table.py                     # the figures docs/scale.md was made with
    python benchmarks/capacity_table.py --writer-rps 31064  # another measurement of one input

Nothing here is measured: every input is a figure a benchmark printed (its default says which, and
at what load), and the table is arithmetic on them. Two kinds of campaign: a built-in domain with
the LLM agent against a model of 1 s per call (latency-bound: slots per node decide), and
ThinkingBox-Bench with an instant model (CPU-bound: statebox's and the servers' CPU decide).
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass

ATTEMPTS = 1_000_000


@dataclass(frozen=True)
class Inputs:
    writer_rps: float  # bench_writer.py: DriverWriter, batches of 64 (load 12.6)
    digest_bytes: float  # trials.digest bytes per line (a 120-attempt run)
    llm_record_kb: float  # bench_writer.py's records (bench_report_scale.py's LLM attempts)
    llm_calls: float  # bench_latency_campaign.py: model calls per attempt (retail, scripted customer)
    latency_s: float  # the model's time per call
    slots: int  # attempts in flight per node
    share: float  # bench_latency_campaign.py: attempts/s over ideal at 256 slots, one process (quiet)
    llm_cpu_ms: float  # bench_latency_campaign.py: statebox CPU per attempt (46.8 s / 2,100, quiet)
    llm_node_mib: float  # bench_latency_campaign.py: peak memory of 256 slots (quiet)
    tb_record_kb: float  # bench_tb_vs_official.py: trials.jsonl bytes per LLM-agent attempt
    tb_statebox_ms: float  # bench_tb_vs_official.py: statebox's CPU per attempt (load 11)
    tb_servers_ms: float  # bench_tb_vs_official.py: the servers' CPU per attempt (load 11)
    tb_slot_mb: float  # bench_tb_vs_official.py --pss: PSS per concurrent attempt at 128
    node_cores: int  # the node size the table assumes


def rows(i: Inputs) -> list[tuple[str, str, str]]:
    """(quantity, built-in LLM campaign, ThinkingBox-Bench campaign) rows."""
    node_rate = i.slots / (i.llm_calls * i.latency_s) * i.share  # attempts/s per node, latency-bound
    tb_cpu_s = (i.tb_statebox_ms + i.tb_servers_ms) / 1000
    tb_node_rate = i.node_cores / tb_cpu_s  # attempts/s per node, CPU-bound
    llm_node_h = ATTEMPTS / node_rate / 3600
    tb_node_h = ATTEMPTS / tb_node_rate / 3600
    dir_gb = [(kb * 1000 + i.digest_bytes) * ATTEMPTS / 1e9 for kb in (i.llm_record_kb, i.tb_record_kb)]
    return [
        ("attempts/s per node", f"{node_rate:.1f} ({i.slots} slots)", f"{tb_node_rate:.1f} ({i.node_cores} cores)"),
        ("node-hours for 10^6 attempts", f"{llm_node_h:,.1f}", f"{tb_node_h:,.1f}"),
        ("nodes to finish in 1 hour", f"{math.ceil(llm_node_h):,}", f"{math.ceil(tb_node_h):,}"),
        ("statebox CPU per node (cores)", f"{node_rate * i.llm_cpu_ms / 1000:.2f}",
         f"{tb_node_rate * i.tb_statebox_ms / 1000:.2f}"),
        ("statebox's share of the CPU", "all of it (the model is remote)", f"{i.tb_statebox_ms / 1000 / tb_cpu_s:.0%}"),
        ("memory per node", f"{i.llm_node_mib:,.0f} MiB", f"{i.tb_slot_mb * i.node_cores * 8:,.0f} MB at 8 slots/core"),
        ("run directory (trials + digest)", f"{dir_gb[0]:.1f} GB", f"{dir_gb[1]:.1f} GB"),
        ("the driver's writer, busy", f"{ATTEMPTS / i.writer_rps:,.0f} s in all",
         f"{ATTEMPTS / i.writer_rps:,.0f} s in all"),
        ("nodes before the writer is the bound", f"{i.writer_rps / node_rate:,.0f}",
         f"{i.writer_rps / tb_node_rate:,.0f}"),
    ]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    defaults = Inputs(writer_rps=19575, digest_bytes=179, llm_record_kb=6.1, llm_calls=11.6, latency_s=1.0,
                      slots=256, share=0.90, llm_cpu_ms=22.3, llm_node_mib=907, tb_record_kb=13.5,
                      tb_statebox_ms=32.0, tb_servers_ms=74.5, tb_slot_mb=14.7, node_cores=8)  # fmt: skip
    for name, value in vars(defaults).items():
        parser.add_argument("--" + name.replace("_", "-"), type=type(value), default=value)
    inputs = Inputs(**vars(parser.parse_args(argv)))
    print(f"| for {ATTEMPTS:,} attempts | built-in domain, LLM agent, {inputs.latency_s:g} s a model call | "
          f"ThinkingBox-Bench, instant model |")  # fmt: skip
    print("|---|---|---|")
    for quantity, llm, tb in rows(inputs):
        print(f"| {quantity} | {llm} | {tb} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
