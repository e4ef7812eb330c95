"""Parameters and results of a capacity analysis, and their JSON form."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from headroom.engine.capacity.knee import KneeCurve
from headroom.engine.capacity.models import MmcFit, ModelCurve
from headroom.engine.capacity.params import CapacityParams
from headroom.engine.capacity.power import PowerCapacity
from headroom.engine.capacity.sla import SlaTarget
from headroom.engine.capacity.trend import LatencyTrend
from headroom.engine.capacity.usl import UslFit

MODEL_POINTS = 40  # model points sent to a chart
VQ_MAX_WAIT_S = 86_400  # the advice's queue may schedule a day ahead (its slot array)


@dataclass(frozen=True)
class KneePoint:
    load_per_s: float
    latency_s: float
    source: str  # "measured" or "model"
    strength: float  # Kneedle distance below the diagonal (0..1)


@dataclass(frozen=True)
class BreakingPoint:
    load_per_s: float
    source: str


@dataclass(frozen=True)
class ClassReport:
    name: str
    curve: KneeCurve
    knee: KneePoint | None
    breaking_point: BreakingPoint | None
    sla: SlaTarget | None
    max_conn: float | None  # largest sustainable concurrency (at the breaking point)
    mmc: MmcFit | None
    model: ModelCurve | None  # extrapolated points (source "model"), when fitted
    usl: UslFit | None
    peak_load_per_s: float  # site-wide peak window load of this class
    servers_needed: int | None  # ceil(peak / MaxRate(T))
    warnings: tuple[str, ...] = ()
    latency_trend: LatencyTrend | None = None  # does latency rise with load?
    max_throughput_per_s: float | None = None  # the highest window throughput, per server

    @property
    def method(self) -> str:
        """ "knee" when latency rises with load (open arrivals), else "concurrency"."""
        return "knee" if self.latency_trend is None or self.latency_trend.rises else "concurrency"

    def curve_points(self) -> list[dict[str, Any]]:
        """The chart's points: measured bins, then model points past the last of them."""
        points = _measured_points(self.curve)
        if self.model is not None and self.mmc is not None:
            last = float(self.curve.load_per_s[-1])
            extra = _model_points(self.model, self.mmc.fit_error_rel)
            points += [p for p in extra if p["load_per_s"] > last]
        return points

    def to_dict(self) -> dict[str, Any]:
        knee = self.knee
        sla = self.sla
        return {
            "knee": None
            if knee is None
            else {
                "load_per_s": knee.load_per_s,
                "latency_s": knee.latency_s,
                "source": knee.source,
            },
            "breaking_point_per_s": None
            if self.breaking_point is None
            else self.breaking_point.load_per_s,
            "breaking_point_source": None
            if self.breaking_point is None
            else self.breaking_point.source,
            "sla": None
            if sla is None
            else {
                "percentile": sla.percentile,
                "threshold_s": sla.threshold_s,
                "max_rate_per_s": sla.max_rate_per_s,
                "max_conn": sla.max_conn,
                "stance": sla.stance,
                "source": sla.source,
                "capped": sla.capped,
            },
            "max_conn": self.max_conn,
            "model": None if self.mmc is None else _model_dict(self.mmc, self.usl),
            "peak_load_per_s": self.peak_load_per_s,
            "servers_needed": self.servers_needed,
            "curve": self.curve_points(),
            "warnings": list(self.warnings),
            "method": self.method,
            "latency_trend": None if self.latency_trend is None else self.latency_trend.to_dict(),
            "max_throughput_per_s": self.max_throughput_per_s,
        }


def _measured_points(curve: KneeCurve) -> list[dict[str, Any]]:
    return [
        {
            "load_per_s": float(curve.load_per_s[i]),
            "latency_s": float(curve.latency_s[i]),
            "latency_low_s": float(curve.latency_low_s[i]),
            "latency_high_s": float(curve.latency_high_s[i]),
            "latency_fit_s": float(curve.latency_iso_s[i]),
            "throughput_per_s": float(curve.throughput_per_s[i]),
            "concurrency": float(curve.concurrency[i]),
            "new_clients_per_s": _finite(float(curve.new_clients_per_s[i])),
            "windows": int(curve.n_windows[i]),
            "source": "measured",
        }
        for i in range(curve.load_per_s.size)
    ]


def _model_points(model: ModelCurve, fit_error: float) -> list[dict[str, Any]]:
    step = max(1, model.load_per_s.size // MODEL_POINTS)
    return [
        {
            "load_per_s": float(model.load_per_s[i]),
            "latency_s": float(model.latency_s[i]),
            "throughput_per_s": float(model.throughput_per_s[i]),
            "concurrency": float(model.concurrency[i]),
            "fit_error_rel": fit_error,
            "source": "model",
        }
        for i in range(0, model.load_per_s.size, step)
    ]


def _finite(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else x


def _model_dict(mmc: MmcFit, usl: UslFit | None) -> dict[str, Any]:
    return {
        "servers_c": mmc.servers_c,
        "c_source": mmc.c_source,
        "service_time_s": mmc.service_time_s,
        "fit_error_rel": mmc.fit_error_rel,
        "usl": None
        if usl is None
        else {"sigma": usl.sigma, "kappa": usl.kappa, "n_star": _finite(usl.n_star)},
    }


@dataclass(frozen=True)
class VirtualQueueAdvice:
    """docs/methods/admission.md's advice: a virtual queue releasing ``capacity_per_s`` (the
    power-ratio capacity, for the whole site) keeps the curve's percentile under
    ``latency_s`` (the all-requests knee curve at that load); replayed over the log's
    arrivals, the longest wait it tells a user is ``max_wait_s``, at ``peak_at_s``."""

    capacity_per_s: float
    latency_s: float
    latency_source: str  # "measured", "model", or "beyond the curve" (its last point)
    percentile: float
    max_wait_s: float
    peak_at_s: float  # seconds from the log's first request
    refused: int  # arrivals that found no slot within VQ_MAX_WAIT_S

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))


def virtual_queue_advice(
    arrival_t_s: np.ndarray, capacity_per_s: float | None, servers: int, all_class: ClassReport
) -> VirtualQueueAdvice | None:
    """The advice at the power-ratio capacity C (per server when the report is per server:
    the queue then releases C x servers for the site); None without C or arrivals."""
    if capacity_per_s is None or not capacity_per_s > 0 or arrival_t_s.size == 0:
        return None
    from headroom.engine.admission.virtual_queue import vq_assign_all, vq_new  # numba: lazy

    site_per_s = capacity_per_s * max(servers, 1)
    t = np.sort(np.asarray(arrival_t_s, dtype=np.float64))
    t = t - t[0]
    slots, state = vq_new(VQ_MAX_WAIT_S, site_per_s)
    waits = vq_assign_all(slots, state, t, np.ones(t.size))
    peak = int(np.argmax(waits))
    latency_s, source = _curve_at(all_class, capacity_per_s)
    return VirtualQueueAdvice(
        capacity_per_s=site_per_s,
        latency_s=latency_s,
        latency_source=source,
        percentile=all_class.curve.percentile,
        max_wait_s=float(max(waits[peak], 0)),
        peak_at_s=float(t[peak]),
        refused=int(np.count_nonzero(waits < 0)),
    )


def _curve_at(cls: ClassReport, load_per_s: float) -> tuple[float, str]:
    """The curve's latency at a load (linear between its points, measured then model)."""
    points = cls.curve_points()
    loads = np.array([p["load_per_s"] for p in points])
    latency = np.array([p["latency_s"] for p in points])
    if load_per_s > loads[-1]:
        return float(latency[-1]), "beyond the curve"
    above = int(np.searchsorted(loads, load_per_s))
    return float(np.interp(load_per_s, loads, latency)), str(points[above]["source"])


@dataclass(frozen=True)
class CapacityReport:
    params: CapacityParams
    classes: dict[str, ClassReport]
    capacity: PowerCapacity
    per_server: bool
    servers: tuple[str, ...]
    warnings: tuple[str, ...] = field(default=())
    virtual_queue: VirtualQueueAdvice | None = None
    histogram: dict[str, Any] | None = None  # read off a latency histogram: its bounds, limits

    def to_dict(self) -> dict[str, Any]:
        cap = self.capacity
        vq = self.virtual_queue
        return {
            "classes": {name: rep.to_dict() for name, rep in self.classes.items()},
            "capacity": None
            if cap.power_peak_load_per_s is None
            else {"power_peak_load_per_s": cap.power_peak_load_per_s, "r2": cap.r2},
            "capacity_reason": cap.reason,
            "power": cap.to_chart(),
            "per_server": self.per_server,
            "servers": list(self.servers),
            "warnings": list(self.warnings),
            "virtual_queue": None if vq is None else vq.to_dict(),
            "histogram": self.histogram,
        }
