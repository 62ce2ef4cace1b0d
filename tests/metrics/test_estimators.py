"""Per-task estimators against hand-computed binomial ratios."""

from collections.abc import Callable

import pytest

from statebox.metrics import pass_at_k, pass_hat_k, pass_hat_k_plugin


def test_pass_at_k_is_one_minus_ratio_of_binomials() -> None:
    # 1 - C(3,2)/C(5,2) = 1 - 3/10 = 0.7
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)


def test_pass_at_1_equals_c_over_n_exactly() -> None:
    # (C(3,1) - C(2,1)) / C(3,1) = (3 - 2) / 3 = 1/3, one correctly rounded division
    assert pass_at_k(3, 1, 1) == 1 / 3


def test_pass_at_k_is_zero_when_no_attempt_passed() -> None:
    # 1 - C(5,3)/C(5,3) = 0
    assert pass_at_k(5, 0, 3) == 0.0


def test_pass_at_k_is_one_when_fewer_failures_than_k() -> None:
    # n - c = 2 < k = 3, so every k-subset holds a pass: C(2,3) = 0
    assert pass_at_k(4, 2, 3) == 1.0


def test_pass_at_k_is_one_when_every_attempt_passed() -> None:
    assert pass_at_k(5, 5, 3) == 1.0


def test_pass_hat_k_is_ratio_of_binomials() -> None:
    # C(3,2)/C(5,2) = 3/10
    assert pass_hat_k(5, 3, 2) == pytest.approx(0.3)


def test_pass_hat_k_is_zero_when_fewer_passes_than_k() -> None:
    # c = 1 < k = 2: C(1,2) = 0
    assert pass_hat_k(5, 1, 2) == 0.0


def test_pass_hat_k_is_one_when_every_attempt_passed() -> None:
    assert pass_hat_k(4, 4, 4) == 1.0


def test_plugin_is_pass_rate_to_the_k() -> None:
    # (3/5)^2 = 9/25 = 0.36
    assert pass_hat_k_plugin(5, 3, 2) == pytest.approx(0.36)


def test_plugin_exceeds_unbiased_pass_hat_k() -> None:
    # 0.36 > C(3,2)/C(5,2) = 0.3: the plug-in is biased upward
    plugin, unbiased = pass_hat_k_plugin(5, 3, 2), pass_hat_k(5, 3, 2)
    assert plugin is not None and unbiased is not None
    assert plugin > unbiased


@pytest.mark.parametrize("estimator", [pass_at_k, pass_hat_k, pass_hat_k_plugin])
def test_k_above_n_cannot_estimate(estimator: Callable[[int, int, int], float | None]) -> None:
    assert estimator(3, 1, 4) is None


@pytest.mark.parametrize("estimator", [pass_at_k, pass_hat_k, pass_hat_k_plugin])
def test_task_without_attempts_cannot_estimate(
    estimator: Callable[[int, int, int], float | None],
) -> None:
    assert estimator(0, 0, 1) is None


def test_k_below_one_is_rejected() -> None:
    with pytest.raises(ValueError, match="k must be >= 1"):
        pass_at_k(5, 2, 0)


def test_more_passes_than_attempts_is_rejected() -> None:
    with pytest.raises(ValueError, match="0 <= c <= n"):
        pass_hat_k(3, 4, 1)
