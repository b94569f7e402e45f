"""Confidence intervals for balance studies: a rate, the difference of two rates, the difference of two means.

    wilson(k, n)                      -> (low, high)            95% Wilson score interval of k/n
    rate_difference(k1, n1, k2, n2)   -> (d, low, high)         d = k1/n1 - k2/n2, Newcombe's hybrid interval
    mean_difference(xs, ys)           -> (d, low, high)         d = mean(xs) - mean(ys), normal (Welch) interval

Why these: a study's win rate is often near 0 or 1 (a heuristic that nearly always wins), where
the textbook Wald interval p +- z sqrt(p(1-p)/n) collapses to zero width or leaves [0, 1]; the
Wilson interval does neither and is what a designer should read. Newcombe's method 10 (1998)
builds the difference's interval from the two Wilson intervals and keeps those properties.

The two studies of an option comparison play the same seeds, but different rules soon send the
games apart, so they are treated as independent samples: that is conservative when the shared seeds
make them agree more than chance would. The mean's interval is the normal approximation (z, not t):
right for the hundreds or thousands of games a study plays, a little narrow under about 30.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from statistics import NormalDist

LEVEL = 0.95
"""The confidence level of every interval here (and of the balance report)."""
Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)
"""The normal quantile of LEVEL, 1.959964..."""


def wilson(successes: int, n: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of the rate successes / n; (0, 1) when there are no games."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends: rounding leaves them 1e-17 off
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def rate_difference(k1: int, n1: int, k2: int, n2: int, z: float = Z) -> tuple[float, float, float]:
    """k1/n1 - k2/n2 and its interval by Newcombe's hybrid score method (method 10)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, low, high


def mean_difference(xs: Sequence[float], ys: Sequence[float], z: float = Z) -> tuple[float, float, float]:
    """mean(xs) - mean(ys) and d +- z sqrt(var(xs)/n + var(ys)/m) (sample variances; a lone value adds none)."""
    d = statistics.fmean(xs) - statistics.fmean(ys)
    var_x = statistics.variance(xs) if len(xs) > 1 else 0.0
    var_y = statistics.variance(ys) if len(ys) > 1 else 0.0
    half = z * math.sqrt(var_x / len(xs) + var_y / len(ys))
    return d, d - half, d + half


__all__ = ["LEVEL", "Z", "mean_difference", "rate_difference", "wilson"]
