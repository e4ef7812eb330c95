"""A counter's increase per step interval, with Prometheus' counter-reset rule: a value
below the one before is a restart from zero, so the interval's increase is the new value
(what `increase()` adds up; docs/sources.md)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]


def increases(values: F64) -> F64:
    """``values[..., i]``: the counter at grid point i (NaN: no sample there). Returns one
    increase per interval ``(i, i+1)`` along the last axis: NaN when either end is missing
    (a gap)."""
    values = np.asarray(values, np.float64)
    before, after = values[..., :-1], values[..., 1:]
    delta = after - before
    return np.where(after < before, after, delta)
