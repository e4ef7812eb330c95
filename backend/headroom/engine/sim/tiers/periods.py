"""Periods drawn ahead of one loop call, for runs without pages or an admission stage:
each period draws its arrivals and demands as a call of its own would (the same draws,
the same sizes, in the same order), and their arrays are built once, for the joined
call, instead of once per period. With one class, its arrivals and demands are drawn
for all the periods at once (arrivals.periods_between, pools.ClassDemands.take_periods)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from headroom.engine.sim.arrivals import periods_between
from headroom.engine.sim.distributions import Distribution, sample_runs
from headroom.engine.sim.feed import Feeder
from headroom.engine.sim.tiers import state as S
from headroom.engine.sim.tiers.pools import ClassDemands


class Joined(NamedTuple):
    """Consecutive periods' arrivals, for one loop call."""

    ends_s: S.F64  # each period's end
    times: S.F64  # the arrivals, in time order
    klass: S.I64  # their classes
    demands: list[S.F64]  # per tier, the arrivals' demands


class PeriodDraws:
    """Draws periods' arrivals and their demands at every tier: a class's in its
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

    def draw(self, bounds: Sequence[tuple[float, float]], limit: int) -> Joined:
        """The consecutive periods ``bounds``, drawn one after another until they hold
        ``limit`` arrivals or more (then the periods left are not drawn)."""
        edges = np.array([bounds[0][0], *(t1 for _, t1 in bounds)])
        if len(self.classes) == 1:
            c = self.classes[0]
            times, counts = periods_between(c.arrivals, c.arrival_rng, edges, limit)
            klass = np.zeros(len(times), dtype=np.int64)
            return Joined(edges[1 : len(counts) + 1], times, klass, self._one_class_periods(counts))
        periods, total = [], 0
        for t0, t1 in bounds:
            periods.append(self._period(t0, t1))
            total += len(periods[-1][0])
            if total >= limit:
                break
        return Joined(
            edges[1 : len(periods) + 1],
            np.concatenate([times for times, _, _ in periods]),
            np.concatenate([klass for _, klass, _ in periods]),
            [np.concatenate([p[2][t] for p in periods]) for t in range(len(self.tier_dists))],
        )

    def _period(self, t0: float, t1: float) -> tuple[S.F64, S.I64, list[S.F64]]:
        """A period of several classes: its arrivals, their classes and demands."""
        parts = [c.arrivals.between(c.arrival_rng, t0, t1) for c in self.classes]
        self.class_demands.top_up([len(p) * self.n_shared for p in parts])
        merged = np.concatenate(parts)
        order = np.argsort(merged, kind="stable")
        klass = np.repeat(np.arange(len(parts)), [len(p) for p in parts])[order]
        return merged[order], klass, self.demands(klass, len(parts))

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

    def _one_class_periods(self, counts: S.I64) -> list[S.F64]:
        """Per tier, the demands of one class's arrivals over consecutive periods of
        ``counts`` arrivals each (the class's pool topped up period by period)."""
        shared = self.class_demands.take_periods(0, (counts * self.n_shared).tolist())
        columns, shared_before = [], 0
        for dist, rng in zip(self.tier_dists, self.tier_rngs, strict=True):
            if dist is None:
                columns.append(_shared_column(shared, counts, self.n_shared, shared_before))
                shared_before += 1
            else:
                columns.append(sample_runs(dist, rng, counts.tolist()))
        return columns


def _shared_column(values: S.F64, counts: S.I64, n_shared: int, tier: int) -> S.F64:
    """What tier ``tier`` took of ``values``, the class's demands read by ``n_shared``
    tiers: each period took its arrivals' demands for every such tier, a tier after
    another (``tier``: how many such tiers come before it)."""
    if n_shared == 1:
        return values
    firsts = np.repeat(np.cumsum(counts) - counts, counts)
    sizes = np.repeat(counts, counts)
    return values[np.arange(len(firsts)) + (n_shared - 1) * firsts + tier * sizes]


def as_rows(columns: list[S.F64], n: int) -> S.F64:
    """Per-tier columns of ``n`` arrivals' demands as the loop's (arrivals x tiers) array."""
    demands = np.empty((n, len(columns)))
    for t, column in enumerate(columns):
        demands[:, t] = column
    return demands


def joined(state: S.TierState, periods: Joined) -> S.TierState:
    """The periods' arrivals as one segment; the loop closes its time integral at each
    period's end (``arr_cuts``) as a call per period did, so the results do not change."""
    state.ic[S.IC_ARR_PTR] = 0
    return state._replace(
        arr_t=periods.times,
        arr_c=periods.klass,
        arr_d=as_rows(periods.demands, len(periods.times)),
        arr_n=np.zeros((len(periods.times), 2), dtype=np.int64),
        arr_cuts=periods.ends_s[:-1],
    )
