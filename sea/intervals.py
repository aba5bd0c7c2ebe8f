"""Confidence intervals shared by the search, the retest and the review."""

from __future__ import annotations

import math


def wilson_interval(wrong: int, asked: int, z: float) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) before any answer."""
    if asked == 0:
        return 0.0, 1.0
    p = wrong / asked
    centre = (p + z * z / (2 * asked)) / (1 + z * z / asked)
    half = z * math.sqrt(p * (1 - p) / asked + z * z / (4 * asked * asked)) / (1 + z * z / asked)
    return max(0.0, centre - half), min(1.0, centre + half)
