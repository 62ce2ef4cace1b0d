"""Usage and cost per role: one meter, one rule for adding costs (unknown once any part is unknown)."""

from __future__ import annotations

from statebox.llm.meter import Meter, sum_costs
from statebox.llm.types import Usage
from statebox.runner.record import TrialRecord
from statebox.tasks import Customer
from statebox.users.scripted import ScriptedCustomer


def test_a_meter_adds_usage_and_cost_call_by_call() -> None:
    meter = Meter()
    meter.add(Usage(input=10, output=2), 0.5)
    meter.add(Usage(input=1, cached_input=4, output=3), 0.25)
    assert (meter.usage, meter.cost_usd) == (Usage(input=11, cached_input=4, output=5), 0.75)


def test_a_cost_with_one_unknown_price_is_unknown_and_stays_so() -> None:
    meter = Meter()
    meter.add(Usage(input=10), None)
    meter.add(Usage(input=10), 1.0)
    assert (meter.usage.input, meter.cost_usd) == (20, None)


def test_sum_costs_is_zero_for_nothing_and_unknown_with_any_unknown_part() -> None:
    assert sum_costs([]) == 0.0
    assert sum_costs([0.5, 0.25]) == 0.75
    assert sum_costs([0.5, None, 0.25]) is None


def test_a_customer_without_a_model_meters_nothing() -> None:
    meter = ScriptedCustomer(Customer(goal="cancel my order")).meter
    assert (meter.usage, meter.cost_usd) == (Usage(), 0.0)


def test_a_trials_total_cost_follows_the_same_rule() -> None:
    base = {
        "trial_id": "s/t/noop/-/0", "suite": "s", "task_id": "t", "domain": "d", "agent": "noop", "model": None,
        "user": None, "repeat": 0, "seed": 1, "passed": False, "state_passed": False, "finish_reason": "agent_ended",
    }  # fmt: skip
    priced = TrialRecord.model_validate(base | {"cost_usd": {"agent": 0.5, "user": 0.25, "judge": 0.0}})
    unpriced = TrialRecord.model_validate(base | {"cost_usd": {"agent": 0.5, "user": None, "judge": 0.0}})
    assert (priced.total_cost(), unpriced.total_cost()) == (0.75, None)
