"""How many processes an LLM-agent campaign uses by itself (`--workers 0`, the default).

An LLM agent's attempt mostly waits on its model, so one process carries many attempts; but
each model turn also costs statebox CPU (about 1-2 ms: building the request, reading the
reply, the MCP tool calls, the transcript; see docs/benchmarks.md), and with enough attempts
in flight one event loop is busy all the time and every turn waits in its queue.

The rule: plan for the fastest model turn a hosted endpoint gives (`FASTEST_TURN_S`); the
attempts in flight then need `concurrency * CPU_PER_TURN_S / FASTEST_TURN_S` cores; keep each
process at most half busy (`BUSY_SHARE`), so queueing adds little latency. That is one process
up to 50 attempts in flight, two from 51 to 100, and so on, never more processes than
cores (nor than `MAX_WORKERS`), and none without `MIN_ATTEMPTS_PER_WORKER` attempts to run.
The campaign's concurrency is shared out between the processes, so the endpoint sees the
same number of requests in flight as with one process.
"""

from __future__ import annotations

import math
import os

CPU_PER_TURN_S = 0.002
FASTEST_TURN_S = 0.2
BUSY_SHARE = 0.5
MAX_WORKERS = 4
MIN_ATTEMPTS_PER_WORKER = 20


def llm_workers(concurrency: int, attempts: int, cores: int | None = None) -> int:
    """Processes for an LLM-agent campaign of `attempts` at `concurrency` attempts in flight."""
    cores = cores if cores is not None else os.cpu_count() or 1
    busy = concurrency * CPU_PER_TURN_S / FASTEST_TURN_S  # cores' worth of CPU at the fastest turns
    wanted = math.ceil(busy / BUSY_SHARE - 1e-9)
    return max(1, min(wanted, cores, MAX_WORKERS, concurrency, attempts // MIN_ATTEMPTS_PER_WORKER))


def concurrency_per_worker(concurrency: int, workers: int) -> int:
    """Each process's share of the campaign's attempts in flight (rounded up, at least 1)."""
    return max(1, math.ceil(concurrency / max(workers, 1)))
