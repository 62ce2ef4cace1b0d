"""The worker-process rule for LLM-agent campaigns (runner/autoworkers.py)."""

from __future__ import annotations

from statebox.runner.autoworkers import concurrency_per_worker, llm_workers
from statebox.runner.plan import resolve_workers


def test_up_to_50_attempts_in_flight_keep_one_process():
    assert [llm_workers(c, 1000, cores=8) for c in (1, 4, 16, 50)] == [1, 1, 1, 1]


def test_more_attempts_in_flight_get_a_process_per_50_up_to_the_cores():
    assert [llm_workers(c, 10_000, cores=8) for c in (51, 100, 101, 150, 151, 1024)] == [2, 2, 3, 3, 4, 4]
    assert llm_workers(256, 10_000, cores=2) == 2
    assert llm_workers(256, 10_000, cores=1) == 1


def test_small_campaigns_do_not_fork():
    assert llm_workers(256, 30, cores=8) == 1
    assert llm_workers(256, 40, cores=8) == 2


def test_resolve_workers_applies_the_rule_to_llm_agents_only_when_asked_for_auto():
    assert resolve_workers(0, "llm", 10_000, concurrency=256) == llm_workers(256, 10_000)
    assert resolve_workers(3, "llm", 10_000, concurrency=256) == 3


def test_the_concurrency_is_shared_out_not_multiplied():
    assert [concurrency_per_worker(256, w) for w in (1, 2, 3)] == [256, 128, 86]
    assert concurrency_per_worker(1, 4) == 1
