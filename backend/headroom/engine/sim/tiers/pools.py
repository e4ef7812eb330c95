"""The pools of draws a tiered run with pages reads in its loop (pages.draw_demands,
pages.schedule_client): a page's other requests are made as the loop goes, so their
demands and the client's gaps cannot be drawn with the arrivals. As the FCFS fast
path's (feed.py): per class, the service demands and the client gaps, each from the
class's own generator and read in drawn order, so how the draws are split between
top-ups changes no value; a tier with its own ``service_s`` has a demand row of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from headroom.engine.sim.distributions import Constant, Distribution, sample_runs
from headroom.engine.sim.feed import MIN_POOL, Feeder, fresh_count, top_up_rows, topped_up
from headroom.engine.sim.tiers import state as S


class PagePools:
    def __init__(
        self,
        feeder: Feeder,
        tier_dists: Sequence[Distribution | None],
        tier_rngs: Sequence[np.random.Generator],
    ) -> None:
        own = [(d or Constant(0.0), rng) for d, rng in zip(tier_dists, tier_rngs, strict=True)]
        self.demands = [(c.service, c.demand_rng) for c in feeder.classes] + own
        self.gaps = [(c.gap, c.gap_rng) for c in feeder.classes]
        self.own = [d is not None for d in tier_dists]
        self.n_shared = sum(not own for own in self.own)  # the tiers reading the class's

    def segment(self, state: S.TierState, requests: list[int], gaps: list[int]) -> S.TierState:
        """Top up for a segment whose pages drew ``requests`` (1 + objects) and ``gaps``
        (the objects the client asks for) per class."""
        demands = [n * self.n_shared for n in requests]
        demands += [sum(requests) if own else 0 for own in self.own]
        return self._top_up(state, demands, gaps)

    def refill(self, state: S.TierState) -> S.TierState:
        """The loop ran short mid-segment: enlarge every pool."""
        demands = [int(n) + MIN_POOL for n in state.qc[:, S.QC_DEM_LEN]]
        gaps = [int(n) + MIN_POOL for n in state.qc[: len(self.gaps), S.QC_GAP_LEN]]
        return self._top_up(state, demands, gaps)

    def _top_up(self, state: S.TierState, demands: list[int], gaps: list[int]) -> S.TierState:
        qc, n_classes = state.qc, len(self.gaps)
        dem_cursor = qc[:, [S.QC_DEM_PTR, S.QC_DEM_LEN]]
        gap_cursor = qc[:n_classes, [S.QC_GAP_PTR, S.QC_GAP_LEN]]
        qd = top_up_rows(state.qd, dem_cursor, demands, list(self.demands))
        qg = top_up_rows(state.qg, gap_cursor, gaps, list(self.gaps))
        qc[:, [S.QC_DEM_PTR, S.QC_DEM_LEN]] = dem_cursor
        qc[:n_classes, [S.QC_GAP_PTR, S.QC_GAP_LEN]] = gap_cursor
        return state._replace(qd=qd, qg=qg)


class ClassDemands:
    """Each class's service demands for runs without pages, drawn as the pools are: the
    segment's need and a spare, read in drawn order."""

    def __init__(self, feeder: Feeder) -> None:
        self.draws = [(c.service, c.demand_rng) for c in feeder.classes]
        self.pools = [np.zeros(0) for _ in self.draws]
        self.read = [0 for _ in self.draws]

    def top_up(self, need: list[int]) -> None:
        """Per class: keep the unread values, draw what ``need`` and a spare lack (the
        same draws as top_up_rows)."""
        for c, (dist, rng) in enumerate(self.draws):
            self.pools[c] = topped_up(self.pools[c][self.read[c] :], need[c], dist, rng)
            self.read[c] = 0

    def take(self, c: int, n: int) -> S.F64:
        """Class c's next ``n`` demands."""
        start = self.read[c]
        self.read[c] = start + n
        return self.pools[c][start : start + n]

    def take_periods(self, c: int, needs: list[int]) -> S.F64:
        """Class c's demands for consecutive periods needing ``needs`` each, in one array:
        what top_up and take give period after period (the same draws, of the same sizes)."""
        dist, rng = self.draws[c]
        unread = len(self.pools[c]) - self.read[c]
        sizes = []
        for need in needs:
            sizes.append(fresh_count(unread, need))
            unread += sizes[-1] - need
        fresh = sample_runs(dist, rng, sizes)
        self.pools[c] = np.concatenate([self.pools[c][self.read[c] :], fresh])
        self.read[c] = sum(needs)
        return self.pools[c][: self.read[c]]
