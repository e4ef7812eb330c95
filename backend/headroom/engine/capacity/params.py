"""Parameters of the capacity analyses: plain dataclasses without numeric imports, so the
API process can validate and store them without loading numpy, polars or numba."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Stance = Literal["strict", "balanced", "loose"]
STANCES: tuple[Stance, ...] = ("strict", "balanced", "loose")
MIN_INTERVAL_MS = 0.1
MAX_INTERVAL_MS = 60_000.0


@dataclass(frozen=True)
class CapacityParams:
    window_s: float = 10.0
    percentile: float = 95.0
    bins: int = 20
    min_windows_per_bin: int = 5
    stance: Stance = "balanced"
    threshold_s: float | None = None  # a user threshold overrides the stance
    model_servers: int | None = None  # c of the M/M/c model; None = host count or fitted
    per_server: bool = True  # pool per-server windows when the table names servers
    bootstrap_resamples: int = 400  # whole-window resamples per bin (pooled percentile)
    confidence: float = 0.90
    knee_min_strength: float = 0.35  # Kneedle distance below the diagonal to trust a knee
    knee_min_rise: float = 2.0  # latency at the top / at the bottom to trust a knee
    seed: int = 0

    def validate(self) -> None:
        if not self.window_s > 0:
            raise ValueError(f"window_s must be > 0, got {self.window_s}")
        if not 50.0 <= self.percentile <= 99.9:
            raise ValueError(f"percentile must be in [50, 99.9], got {self.percentile}")
        if self.bins < 2:
            raise ValueError(f"bins must be >= 2, got {self.bins}")
        if self.threshold_s is not None and not self.threshold_s > 0:
            raise ValueError(f"threshold_s must be > 0, got {self.threshold_s}")
        if self.model_servers is not None and self.model_servers < 1:
            raise ValueError(f"model_servers must be >= 1, got {self.model_servers}")


@dataclass(frozen=True)
class SctParams:
    interval_ms: float = 50.0
    window_s: float | None = 180.0  # the most recent window; None = the whole trace
    min_intervals: int = 10  # per concurrency level
    alpha: float = 0.05  # level of the slope tests

    def validate(self) -> None:
        # below 0.1 ms the intervals outnumber any trace's requests (1e-7 ms: 1e12 per
        # 100 s, allocated before the first is counted)
        if not MIN_INTERVAL_MS <= self.interval_ms <= MAX_INTERVAL_MS:
            raise ValueError(
                f"interval_ms must be between {MIN_INTERVAL_MS:g} and {MAX_INTERVAL_MS:g}, "
                f"got {self.interval_ms:g}"
            )
        if self.window_s is not None and not 0 < self.window_s < math.inf:
            raise ValueError(f"window_s must be > 0, got {self.window_s}")
