"""Pareto frontier over (cost per success, pass@1)."""

from statebox.metrics import ParetoPoint, dominates, pareto_frontier

CHEAP = ParetoPoint("cheap", 1.0, 0.5)
STRONG = ParetoPoint("strong", 2.0, 0.7)
SAME_COST_WORSE = ParetoPoint("same-cost-worse", 2.0, 0.6)
PRICIER_WORSE = ParetoPoint("pricier-worse", 3.0, 0.4)


def test_frontier_keeps_undominated_points_cheapest_first() -> None:
    points = [PRICIER_WORSE, STRONG, SAME_COST_WORSE, CHEAP]
    assert [p.name for p in pareto_frontier(points)] == ["cheap", "strong"]


def test_equal_cost_and_lower_accuracy_is_dominated() -> None:
    assert dominates(STRONG, SAME_COST_WORSE)


def test_identical_points_both_stay_on_frontier() -> None:
    twin = ParetoPoint("twin", 1.0, 0.5)
    assert [p.name for p in pareto_frontier([twin, CHEAP])] == ["cheap", "twin"]


def test_point_with_unknown_cost_is_left_off() -> None:
    unknown = ParetoPoint("unknown", None, 0.9)
    assert pareto_frontier([unknown, CHEAP]) == [CHEAP]


def test_frontier_of_no_points_is_empty() -> None:
    assert pareto_frontier([]) == []
