"""Foreground CPU-demand series from CSV text: rows of `timestamp, busy fraction`
(seconds, and the machine's busy share in [0, 1]), an optional header line, evenly
spaced. Bad input raises SeriesError naming the line and value."""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
MAX_ROUNDS = 200_000
SPACING_TOLERANCE = 0.01  # rounds may differ from the median spacing by 1%


class SeriesError(ValueError):
    pass


@dataclass(frozen=True)
class DemandSeries:
    t_s: FloatArray
    busy_fraction: FloatArray
    round_s: float


def _row(number: int, line: str) -> None:
    """Raise the error that names what is wrong with one line."""
    cells = [c.strip() for c in line.split(",")]
    if len(cells) != 2:
        raise SeriesError(f"line {number}: expected 2 columns (t_s, busy_fraction), got {line!r}")
    try:
        values = [float(c) for c in cells]
    except ValueError:
        raise SeriesError(f"line {number}: not a number in {line!r}") from None
    if not np.isfinite(values).all():
        raise SeriesError(f"line {number}: not a finite number in {line!r}")


def _has_header(first: str) -> bool:
    return first.lstrip()[:1] not in set("0123456789-+.")


def parse_series(text: str) -> DemandSeries:
    """Vectorised parse; on failure, a line-by-line pass names the first bad line."""
    lines = text.splitlines()
    if not any(line.strip() for line in lines[:3]):
        raise SeriesError("need at least 2 rows of t_s, busy_fraction")
    skip = 1 if lines and _has_header(lines[0]) else 0
    try:
        rows = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=skip, ndmin=2)
    except ValueError:
        for number, line in enumerate(lines[skip:], start=skip + 1):
            if line.strip():
                _row(number, line)
        raise SeriesError("could not read the series as t_s, busy_fraction rows") from None
    if rows.shape[0] < 2 or rows.shape[1] != 2:
        raise SeriesError("need at least 2 rows of 2 columns: t_s, busy_fraction")
    if rows.shape[0] > MAX_ROUNDS:
        raise SeriesError(f"too many rows: {rows.shape[0]} > {MAX_ROUNDS}")
    return _checked(rows[:, 0], rows[:, 1], lines, skip)


def _line_number(lines: list[str], skip: int, row: int) -> int:
    """The 1-based line of data row `row` (blank lines are skipped by the reader)."""
    seen = -1
    for number, line in enumerate(lines[skip:], start=skip + 1):
        seen += bool(line.strip())
        if seen == row:
            return number
    return len(lines)


def _checked(t: FloatArray, busy: FloatArray, lines: list[str], skip: int) -> DemandSeries:
    finite = np.isfinite(t) & np.isfinite(busy)
    if not finite.all():
        bad = int(np.argmax(~finite))
        raise SeriesError(f"line {_line_number(lines, skip, bad)}: not a finite number")
    outside = (busy < 0) | (busy > 1)
    if outside.any():
        bad = int(np.argmax(outside))
        raise SeriesError(
            f"line {_line_number(lines, skip, bad)}: busy_fraction {busy[bad]:g} is outside [0, 1]"
        )
    gaps = np.diff(t)
    if (gaps <= 0).any():
        bad = int(np.argmax(gaps <= 0)) + 1
        raise SeriesError(
            f"line {_line_number(lines, skip, bad)}: timestamps must increase ({t[bad]:g})"
        )
    round_s = float(np.median(gaps))
    uneven = np.abs(gaps - round_s) > SPACING_TOLERANCE * round_s
    if uneven.any():
        bad = int(np.argmax(uneven)) + 1
        raise SeriesError(
            f"line {_line_number(lines, skip, bad)}: rows must be evenly spaced ({round_s:g} s), "
            f"got a {gaps[bad - 1]:g} s gap"
        )
    return DemandSeries(t, busy, round_s)


def demand_from_rates(text: str, peak_busy: float = 0.9) -> DemandSeries:
    """A `t_s, rate_per_s` profile as CPU demand: busy = rate / peak rate x peak_busy (a
    server sized so the busiest step uses peak_busy of its CPU)."""
    rows = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=1, ndmin=2)
    busy = rows[:, 1] / rows[:, 1].max() * peak_busy
    return _checked(rows[:, 0], busy, text.splitlines(), 1)
