"""The distribution-free interval of paired speedups (measure/paired.py)."""

from __future__ import annotations

import random

import pytest

from measure.paired import median_interval, ratio_interval


def test_small_samples_give_the_extremes() -> None:
    assert median_interval([3.0, 1.0, 2.0, 5.0, 4.0]) == (1.0, 5.0)


def test_eleven_values_drop_one_at_each_end() -> None:
    # n = 11: [x(2), x(10)] covers the median with 98.8%, [x(3), x(9)] with 93.5% only.
    values = [float(v) for v in range(11)]
    assert median_interval(values) == (1.0, 9.0)
    assert median_interval(values, confidence=0.9) == (2.0, 8.0)


def test_coverage_holds_on_samples() -> None:
    rng = random.Random(7)
    trials, covered = 2000, 0
    for _ in range(trials):
        sample = [rng.gauss(1.0, 0.1) for _ in range(15)]
        low, high = median_interval(sample)
        covered += low <= 1.0 <= high
    assert covered / trials >= 0.94


def test_ratios_are_paired_in_order() -> None:
    low, high = ratio_interval([2.0, 2.0, 2.0, 2.0, 2.0], [1.0, 2.0, 4.0, 1.0, 2.0])
    assert (low, high) == (0.5, 2.0)
    with pytest.raises(ValueError, match="paired"):
        ratio_interval([1.0], [1.0, 2.0])
