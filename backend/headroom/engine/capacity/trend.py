"""Does latency rise with load? The knee-curve method reads capacity off how latency
grows as more requests arrive, which holds for open arrivals (users who do not wait for
each other). In a closed loop (each user waits for its answer before asking again), a
warm-up, or windows of unlike servers pooled together, latency does not rise with the
offered load, and a knee, MaxRate(T) or model extrapolated from such a curve means
nothing: the Concurrency analysis (throughput against concurrency) is the method then.

The test: Spearman's rank correlation of the windows' offered load and mean latency,
one-sided at the 5% level. "rises": significantly positive; "falls": significantly
negative; "flat": neither."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import stats

FloatArray = NDArray[np.float64]
ALPHA = 0.05
MIN_WINDOWS = 8

WHY = {
    "falls": "latency falls as load rises in this log",
    "flat": "latency does not rise with load in this log",
}
TOO_LITTLE = (
    "the offered load in this log varies too little, or over too few windows, to tell "
    "whether latency rises with load: a longer log, or one that covers busier periods, "
    "would help"
)
CAUSES = (
    "a closed loop (users who wait for each answer before the next request), "
    "a warm-up, or servers of different sizes pooled together"
)
ADVICE = (
    "the knee, MaxRate and the queueing model need latency that grows with load; "
    "for a latency trace, the Concurrency analysis (throughput against concurrency) applies"
)


@dataclass(frozen=True)
class LatencyTrend:
    direction: str  # "rises", "flat", "falls", or "unknown" (too little load variation)
    spearman_rho: float
    p_value: float  # one-sided, in the direction of rho
    windows: int

    @property
    def rises(self) -> bool:
        return self.direction == "rises"

    def message(self) -> str | None:
        """Why the knee-curve method does not apply, or None when it does."""
        if self.rises:
            return None
        if self.direction == "unknown":
            return TOO_LITTLE
        return (
            f"{WHY[self.direction]} (rank correlation {self.spearman_rho:+.2f} over "
            f"{self.windows} windows): {CAUSES}; {ADVICE}"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "direction": self.direction,
            "spearman_rho": self.spearman_rho,
            "p_value": self.p_value,
            "windows": self.windows,
        }


def latency_trend(load_per_s: FloatArray, mean_latency_s: FloatArray) -> LatencyTrend:
    """The direction of latency against offered load over the windows."""
    ok = np.isfinite(load_per_s) & np.isfinite(mean_latency_s)
    load, lat = load_per_s[ok], mean_latency_s[ok]
    if load.size < MIN_WINDOWS or np.unique(load).size < 3:
        return LatencyTrend("unknown", 0.0, 1.0, int(load.size))
    if np.unique(lat).size < 2:
        return LatencyTrend("flat", 0.0, 1.0, int(load.size))
    rho = float(stats.spearmanr(load, lat).statistic)
    p = float(stats.spearmanr(load, lat, alternative="greater" if rho >= 0 else "less").pvalue)
    direction = "flat" if p >= ALPHA else ("rises" if rho > 0 else "falls")
    return LatencyTrend(direction, rho, p, int(load.size))
