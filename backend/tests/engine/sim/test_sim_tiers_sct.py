"""The concurrency-aware pool rules (tiers_sct.py) on hand-made SCT results."""

from __future__ import annotations

import numpy as np

from headroom.engine.capacity.sct import SctLevels, SctResult
from headroom.engine.sim.tiers import state as S
from headroom.engine.sim.tiers.sct import choose_pool


def _result(top: int, q_upper: int | None) -> SctResult:
    """Levels 1..top whose throughput grows proportionally (20/s per request in
    service: the ascending stage all the way), with SCT's Q_upper as given and no fit."""
    n = np.arange(1, top + 1, dtype=np.int64)
    levels = SctLevels(n, 20.0 * n, np.full(top, 0.05), np.full(top, 50, dtype=np.int64))
    return SctResult("db", levels, None, None, None, q_upper, None, ())


def test_explore_doubles_the_top_level_when_no_descent_is_placed() -> None:
    assert choose_pool(_result(40, None), S.UNBOUNDED, False) == (80, "explore")
    assert choose_pool(_result(40, None), 40, False) == (80, "explore")  # the pool capped it
    assert choose_pool(_result(40, None), 60, False) == (None, "explore")  # room left


def test_explore_never_sets_a_pool_above_q_upper() -> None:
    """Seen in a run: a db window still rising over its top quarter (levels to 40) while
    SCT placed Q_upper at 30 got pool 80 = 2 x 40; past Q_upper throughput falls, so the
    pool is at most Q_upper (and comes down to it from a larger one)."""
    assert choose_pool(_result(40, 30), S.UNBOUNDED, False) == (30, "explore")
    assert choose_pool(_result(40, 30), 40, False) == (30, "explore")
    assert choose_pool(_result(20, 30), 20, False) == (30, "explore")
