"""Series from a range query put on the query's step grid, and summed by group."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]


@dataclass(frozen=True)
class Series:
    """One series of a `query_range` answer: its labels and its (time, value) points."""

    labels: Mapping[str, str]
    t_s: F64
    value: F64


@dataclass(frozen=True)
class Grid:
    """The evaluation times ``start_s + i * step_s`` for ``i < points``."""

    start_s: float
    step_s: float
    points: int

    @property
    def intervals(self) -> int:
        return max(self.points - 1, 0)

    def times_s(self) -> F64:
        return self.start_s + self.step_s * np.arange(self.points, dtype=np.float64)


def on_grid(series: Sequence[Series], grid: Grid) -> F64:
    """A (series, points) matrix of values; NaN where a series has no point."""
    matrix = np.full((len(series), grid.points), np.nan)
    for row, one in enumerate(series):
        index = np.rint((np.asarray(one.t_s, np.float64) - grid.start_s) / grid.step_s)
        keep = (index >= 0) & (index < grid.points)
        matrix[row, index[keep].astype(np.int64)] = np.asarray(one.value, np.float64)[keep]
    return matrix


def group_sum(matrix: F64, groups: NDArray[np.int64], count: int) -> F64:
    """Rows summed by group (``groups[row]`` in ``0..count-1``); NaN where no row of the
    group has a value, missing rows counted as nothing otherwise."""
    onehot = np.zeros((count, matrix.shape[0]))
    onehot[groups, np.arange(matrix.shape[0])] = 1.0
    sums = onehot @ np.nan_to_num(matrix, nan=0.0)
    seen = onehot @ (~np.isnan(matrix)).astype(np.float64)
    return np.where(seen > 0, sums, np.nan)
