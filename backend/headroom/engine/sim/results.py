"""Results of a run: frozen dataclasses with units in field names, plus downsampling."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from headroom.engine.sim import sketch
from headroom.engine.sim.scenario import Scenario

F64 = NDArray[np.float64]


@dataclass(frozen=True)
class LatencyStats:
    """Exact count, mean and max; quantiles from the sketch (< 0.5% relative error)."""

    count: int
    mean_s: float
    p50_s: float
    p95_s: float
    p99_s: float
    max_s: float

    @classmethod
    def from_sketch(cls, hist: NDArray[np.int64], total_s: float, max_s: float) -> LatencyStats:
        n = int(hist.sum())
        qs = sketch.sketch_quantiles(hist, sketch.FINE_ALPHA, np.array([0.5, 0.95, 0.99]))
        mean = total_s / n if n else math.nan
        return cls(n, mean, float(qs[0]), float(qs[1]), float(qs[2]), max_s if n else math.nan)

    def summary(self) -> dict[str, float]:
        return {"mean": self.mean_s, "median": self.p50_s, "p95": self.p95_s, "p99": self.p99_s}


@dataclass(frozen=True)
class ClassStats:
    """One request class: latency and (with pages) page-load-time statistics, with the
    sketches' bucket counts (the empirical CDFs, a few thousand integers each)."""

    name: str
    latency: LatencyStats
    plt: LatencyStats | None
    latency_counts: NDArray[np.int64]
    plt_counts: NDArray[np.int64] | None
    arrived: int = 0  # requests of the class that reached the front end
    rejected: int = 0  # of those, refused (admission, pool bound, no VM)

    @property
    def rejected_fraction(self) -> float:
        return self.rejected / self.arrived if self.arrived else 0.0

    def latency_cdf(self) -> tuple[F64, F64]:
        """(latency_s, fraction of requests at or below it), one point per non-empty bucket."""
        return sketch.sketch_cdf(self.latency_counts, sketch.FINE_ALPHA)

    def plt_cdf(self) -> tuple[F64, F64]:
        """(plt_s, fraction of pages at or below it); empty without pages."""
        if self.plt_counts is None:
            return np.zeros(0), np.zeros(0)
        return sketch.sketch_cdf(self.plt_counts, sketch.FINE_ALPHA)


@dataclass(frozen=True)
class ScalingAction:
    t_s: float
    from_vms: int
    to_vms: int


@dataclass(frozen=True)
class UtilizationBox:
    """Box-plot statistics of per-tick VM utilisation while ``allocated_vms`` were allocated."""

    allocated_vms: int
    samples: int
    min: float
    q1: float
    median: float
    q3: float
    max: float


@dataclass(frozen=True)
class VmStats:
    mean_allocated: float
    mean_active: float
    max_allocated: int
    vm_hours: float
    cost: float
    scaling_actions: int


@dataclass(frozen=True)
class LittleCheck:
    """Finite-horizon Little's law: L = time-average in system, W counts time up to the end."""

    mean_in_system: float
    arrival_rate_per_s: float
    mean_time_in_system_s: float

    @property
    def relative_error(self) -> float:
        lw = self.arrival_rate_per_s * self.mean_time_in_system_s
        return abs(self.mean_in_system - lw) / max(lw, 1e-300)


@dataclass(frozen=True)
class TimeSeries:
    """One row per monitoring tick (``t_s`` = end of the tick); latency per SLA window."""

    monitor_s: float
    t_s: F64
    allocated_vms: NDArray[np.int32]
    active_vms: NDArray[np.int32]
    arrivals_per_s: NDArray[np.float32]
    completions_per_s: NDArray[np.float32]
    rejected_per_s: NDArray[np.float32]
    utilization: NDArray[np.float32]
    waiting: NDArray[np.int32]
    in_system: NDArray[np.int32]
    window_s: float
    window_p95_latency_s: F64
    window_violated: NDArray[np.bool_]
    # p50 and p99 per SLA window (the same windows as window_p95_latency_s, which holds
    # the SLA's percentile); empty when the runner did not compute them.
    window_p50_latency_s: F64 = field(default_factory=lambda: np.zeros(0))
    window_p99_latency_s: F64 = field(default_factory=lambda: np.zeros(0))

    def downsample(self, max_points: int = 2000) -> dict[str, F64]:
        """Every tick series reduced to at most ``max_points`` points by LTTB."""
        names: tuple[str, ...] = ("allocated_vms", "active_vms", "arrivals_per_s")
        names += ("completions_per_s", "rejected_per_s", "utilization", "waiting", "in_system")
        out: dict[str, F64] = {}
        for name in names:
            y = np.asarray(getattr(self, name), dtype=np.float64)
            idx = lttb_indices(self.t_s, y, max_points)
            out[f"{name}_t_s"], out[name] = self.t_s[idx], y[idx]
        return out


@njit(cache=True)
def _lttb(x: F64, y: F64, n_out: int) -> NDArray[np.int64]:
    n = len(x)
    idx = np.empty(n_out, dtype=np.int64)
    idx[0], idx[n_out - 1] = 0, n - 1
    width = (n - 2) / (n_out - 2)
    a = 0
    for i in range(n_out - 2):
        lo, hi = int(i * width) + 1, int((i + 1) * width) + 1
        nlo, nhi = hi, min(int((i + 2) * width) + 1, n)
        mx, my = x[nlo:nhi].mean(), y[nlo:nhi].mean()
        best, best_area = lo, -1.0
        for j in range(lo, hi):
            area = abs((x[a] - mx) * (y[j] - y[a]) - (x[a] - x[j]) * (my - y[a]))
            if area > best_area:
                best, best_area = j, area
        idx[i + 1] = best
        a = best
    return idx


def lttb_indices(x: F64, y: F64, max_points: int) -> NDArray[np.int64]:
    """Largest-Triangle-Three-Buckets: indices of the points to keep for display."""
    if len(x) <= max_points or max_points < 3:
        return np.arange(len(x), dtype=np.int64)
    return _lttb(np.asarray(x, np.float64), np.asarray(y, np.float64), max_points)


def utilization_boxes(box_hist: NDArray[np.int64]) -> tuple[UtilizationBox, ...]:
    """Box statistics per allocated-VM count from the binned utilisation histogram."""
    bins = box_hist.shape[1] - 1
    centres = np.minimum((np.arange(bins + 1) + 0.5) / bins, 1.0)
    boxes = []
    for vms in np.nonzero(box_hist.sum(axis=1))[0]:
        row = box_hist[vms]
        cum = np.cumsum(row)
        q = np.searchsorted(cum, np.array([0.25, 0.5, 0.75]) * (cum[-1] - 1), side="right")
        nz = np.nonzero(row)[0]
        lo, mid, hi = centres[q]
        boxes.append(
            UtilizationBox(int(vms), int(cum[-1]), centres[nz[0]], lo, mid, hi, centres[nz[-1]])
        )
    return tuple(boxes)


def sla_windows(
    s: Scenario, window_s: float, win: NDArray[np.int64], win_hist: NDArray[np.int32], p50_p99: bool
) -> dict[str, Any]:
    """A run's SLA-window fields of its TimeSeries from the loop's per-window counts
    (``win``: requests, requests over the threshold) and coarse latency sketches; with
    ``p50_p99``, the windows' median and p99 too."""
    n_windows = math.ceil(s.duration_s / window_s - 1e-9)
    q = s.sla.percentile / 100 if s.sla else 0.95
    count, over, hist = win[:n_windows, 0], win[:n_windows, 1], win_hist[:n_windows]
    out: dict[str, Any] = {
        "window_s": window_s,
        "window_p95_latency_s": sketch.window_quantile(hist, sketch.COARSE_ALPHA, q),
        "window_violated": (count > 0) & (over > (1 - q) * count),
    }
    if p50_p99:
        out["window_p50_latency_s"] = sketch.window_quantile(hist, sketch.COARSE_ALPHA, 0.5)
        out["window_p99_latency_s"] = sketch.window_quantile(hist, sketch.COARSE_ALPHA, 0.99)
    return out


@dataclass(frozen=True)
class RequestTrace:
    """Per-request times (only with ``trace=True``; for tests and small runs)."""

    arrival_s: F64
    start_s: F64  # service start (after any queueing)
    end_s: F64
    demand_s: F64  # service demand on one core at speed 1
    vm: NDArray[np.int64]
    page_arrival_s: F64  # the page's base arrival (NaN for single requests)
    klass: NDArray[np.int64]  # index into the scenario's classes

    @classmethod
    def from_rows(cls, rows: F64) -> RequestTrace:
        """From a loop's trace rows (arrival, start, end, demand, vm, page arrival, class)."""
        col = [rows[:, i].copy() for i in range(7)]
        vm, klass = col[4].astype(np.int64), col[6].astype(np.int64)
        return cls(col[0], col[1], col[2], col[3], vm, col[5], klass)


@dataclass(frozen=True)
class SimulationResult:
    scenario: Scenario
    seed: int
    engine_version: str
    duration_s: float
    requests: int
    completed: int
    rejected: int
    in_system_at_end: int
    pages: int
    pages_completed: int
    pages_failed: int
    latency: LatencyStats
    plt: LatencyStats | None
    classes: tuple[ClassStats, ...]
    sla_violation_fraction: float | None
    vms: VmStats
    actions: tuple[ScalingAction, ...]
    utilization_boxes: tuple[UtilizationBox, ...]
    series: TimeSeries
    little: LittleCheck
    events: int
    wall_s: float
    trace: RequestTrace | None = None
    # The admission stage's figures, None without a stage:
    # virtual queue {capacity_estimate_per_s, converged_at_s, served, dropped,
    # wait_s: {mean, p95, max}}; partitions {k_mean, k_min, k_max}. Series for charts
    # live in ``admission_series`` (numpy arrays by name), never in the summary.
    admission: dict[str, Any] | None = None
    admission_series: dict[str, Any] | None = None
    # Multi-tier runs (cluster.tiers; tiers/runner.py documents the keys): per tier figures
    # (in the summary) and per tier series with the pool changes (not in the summary).
    tiers: dict[str, Any] | None = None
    tier_series: dict[str, Any] | None = None

    @property
    def rejected_fraction(self) -> float:
        return self.rejected / self.requests if self.requests else 0.0

    def summary(self) -> dict[str, Any]:
        """The CLI's JSON contract."""
        v = self.vms
        return {
            "requests": self.requests,
            "pages": self.pages,
            "plt_s": self.plt.summary() if self.plt else None,
            "latency_s": self.latency.summary(),
            "vms": {
                "mean_allocated": v.mean_allocated,
                "mean_active": v.mean_active,
                "max_allocated": v.max_allocated,
                "vm_hours": v.vm_hours,
                "scaling_actions": v.scaling_actions,
            },
            "classes": {
                c.name: {
                    "latency_s": c.latency.summary(),
                    "plt_s": c.plt.summary() if c.plt else None,
                    "rejected_fraction": c.rejected_fraction,
                }
                for c in self.classes
            },
            "admission": self.admission,
            "tiers": self.tiers,
            "rejected_fraction": self.rejected_fraction,
            "sla_violation_fraction": self.sla_violation_fraction,
            "events": self.events,
            "wall_s": self.wall_s,
            "seed": self.seed,
            "engine_version": self.engine_version,
        }
