"""How sure a speedup is: a confidence interval from paired runs.

`idiom bench` runs the original and the accelerated binary in turn, so each round gives one
ratio (original time / accelerated time) measured under the same conditions. On a shared
machine those ratios scatter by 10% or more for memory-bound programs, and one median of
five cannot tell a program 5% slower from noise. The interval here is distribution-free:
the k-th smallest and k-th largest ratio, with k chosen so that the interval covers the
median ratio of the runs' population with at least the asked confidence (the number of
ratios below that median is binomial(n, 1/2)). Pure Python: the GPU machine's
`benchmarks/gpu_bench.py` uses it too.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

__all__ = ["median_interval", "ratio_interval"]


def median_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float]:
    """[k-th smallest, k-th largest] of `values`, the narrowest such interval that covers
    their population's median with probability at least `confidence`; the smallest and
    the largest value when even they cannot (fewer than 6 values for 95%)."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    n = len(ordered)
    k = 1
    while k < (n + 1) // 2 and _coverage(k + 1, n) >= confidence:
        k += 1
    return ordered[k - 1], ordered[n - k]


def ratio_interval(
    originals: Sequence[float], accelerated: Sequence[float], confidence: float = 0.95
) -> tuple[float, float]:
    """The interval of the per-round speedups original / accelerated (runs paired in
    order)."""
    if len(originals) != len(accelerated):
        raise ValueError("the runs are not paired")
    ratios = [o / a for o, a in zip(originals, accelerated, strict=True) if a > 0]
    return median_interval(ratios, confidence)


def _coverage(k: int, n: int) -> float:
    """P(x(k) <= median <= x(n+1-k)) for n values: 1 - 2 P(Binomial(n, 1/2) <= k - 1)."""
    below = sum(comb(n, i) for i in range(k)) / (1 << n)
    return 1.0 - 2.0 * below
