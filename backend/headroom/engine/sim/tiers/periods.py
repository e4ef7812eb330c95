"""Periods drawn ahead of one loop call, for runs without pages or an admission stage:
each period draws its arrivals and demands as a call of its own would (the same draws,
the same sizes, in the same order), and their arrays are built once, for the joined
call, instead of once per period."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from headroom.engine.sim.distributions import Distribution
from headroom.engine.sim.feed import Feeder
from headroom.engine.sim.tiers import state as S
from headroom.engine.sim.tiers.pools import ClassDemands


class Period(NamedTuple):
    end_s: float
    times: S.F64  # the arrivals, in time order
    klass: S.I64 | None  # their classes (None: the run has one)
    demands: list[S.F64]  # per tier, the arrivals' demands


class PeriodDraws:
    """Draws a period's arrivals and their demands at every tier: a class's in its
    requests' order, a tier's own by class, then time."""

    def __init__(
        self,
        feeder: Feeder,
        tier_dists: Sequence[Distribution | None],
        tier_rngs: Sequence[np.random.Generator],
        class_demands: ClassDemands,
    ) -> None:
        self.classes = feeder.classes
        self.tier_dists, self.tier_rngs = tier_dists, tier_rngs
        self.class_demands = class_demands
        self.n_shared = sum(d is None for d in tier_dists)

    def draw(self, t0: float, t1: float) -> Period:
        parts = [c.arrivals.between(c.arrival_rng, t0, t1) for c in self.classes]
        self.class_demands.top_up([len(p) * self.n_shared for p in parts])
        if len(parts) == 1:
            return Period(t1, parts[0], None, self._one_class_demands(len(parts[0])))
        order = np.argsort(np.concatenate(parts), kind="stable")
        klass = np.repeat(np.arange(len(parts)), [len(p) for p in parts])[order]
        return Period(t1, np.concatenate(parts)[order], klass, self.demands(klass, len(parts)))

    def demands(self, klass: S.I64, n_classes: int) -> list[S.F64]:
        """Per tier, the demands of arrivals of classes ``klass`` (the class pools topped
        up for them)."""
        if n_classes == 1:
            return self._one_class_demands(len(klass))
        by_class = np.argsort(klass, kind="stable")
        masks = [klass == c for c in range(n_classes)]
        counts = [int(np.count_nonzero(mask)) for mask in masks]
        columns = []
        for dist, rng in zip(self.tier_dists, self.tier_rngs, strict=True):
            column = np.empty(len(klass))
            if dist is not None:
                column[by_class] = dist.sample(rng, len(klass))
            else:
                for c, mask in enumerate(masks):
                    column[mask] = self.class_demands.take(c, counts[c])
            columns.append(column)
        return columns

    def _one_class_demands(self, n: int) -> list[S.F64]:
        return [
            dist.sample(rng, n) if dist is not None else self.class_demands.take(0, n)
            for dist, rng in zip(self.tier_dists, self.tier_rngs, strict=True)
        ]


def as_rows(columns: list[S.F64], n: int) -> S.F64:
    """Per-tier columns of ``n`` arrivals' demands as the loop's (arrivals x tiers) array."""
    demands = np.empty((n, len(columns)))
    for t, column in enumerate(columns):
        demands[:, t] = column
    return demands


def joined(state: S.TierState, periods: list[Period]) -> S.TierState:
    """The periods' arrivals as one segment; the loop closes its time integral at each
    period's end (``arr_cuts``) as a call per period did, so the results do not change."""
    times = np.concatenate([p.times for p in periods])
    n_tiers = len(periods[0].demands)
    columns = [np.concatenate([p.demands[t] for p in periods]) for t in range(n_tiers)]
    demands = as_rows(columns, len(times))
    if periods[0].klass is None:
        klass = np.zeros(len(times), dtype=np.int64)
    else:
        klass = np.concatenate([p.klass for p in periods if p.klass is not None])
    state.ic[S.IC_ARR_PTR] = 0
    return state._replace(
        arr_t=times,
        arr_c=klass,
        arr_d=demands,
        arr_n=np.zeros((len(times), 2), dtype=np.int64),
        arr_cuts=np.array([p.end_s for p in periods[:-1]]),
    )
