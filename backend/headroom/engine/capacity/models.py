"""Queueing models fitted to a measured knee curve, to extrapolate past the observed loads.

M/M/c with Erlang C: the service demand D = 1/mu starts from the low-load latency (at low
load the response time is about Exp(mu), so its p-quantile is about -ln(1 - p) D) and is
refined by weighted least squares of the model percentile against the measured curve;
c is a parameter (e.g. the host count) or chosen among 1..max_c by the same criterion.
Model points are always flagged source="model" and carry the fit's error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import minimize_scalar

from headroom.engine.capacity import queueing
from headroom.engine.capacity.knee import KneeCurve

FloatArray = NDArray[np.float64]
_C_PATIENCE = 4


@dataclass(frozen=True)
class MmcFit:
    servers_c: int
    c_source: str  # "parameter" or "fitted"
    service_time_s: float  # D = 1 / mu
    percentile: float
    fit_error_rel: float  # weighted RMS relative error on the measured bins

    @property
    def mu_per_s(self) -> float:
        return 1.0 / self.service_time_s

    @property
    def saturation_per_s(self) -> float:
        return self.servers_c / self.service_time_s

    def latency_s(self, load_per_s: FloatArray) -> FloatArray:
        return queueing.response_quantile_s(
            load_per_s, self.mu_per_s, self.servers_c, self.percentile
        )

    def concurrency(self, load_per_s: FloatArray) -> FloatArray:
        lam = np.asarray(load_per_s, dtype=np.float64)
        return lam * queueing.mean_response_s(lam, self.mu_per_s, self.servers_c)


@dataclass(frozen=True)
class ModelCurve:
    """Model points (source="model"), from the end of the measured range to saturation."""

    load_per_s: FloatArray
    latency_s: FloatArray
    throughput_per_s: FloatArray
    concurrency: FloatArray


def _rel_error(
    fit_d: float, c: int, load: FloatArray, lat: FloatArray, w: FloatArray, p: float
) -> float:
    model = queueing.response_quantile_s(load, 1.0 / fit_d, c, p)
    rel = model / lat - 1.0
    return float(np.sqrt(np.sum(w * rel**2) / np.sum(w)))


def _fit_demand(
    c: int, load: FloatArray, lat: FloatArray, w: FloatArray, p: float
) -> tuple[float, float] | None:
    d0 = float(lat[0]) / -math.log(1.0 - p / 100.0)
    upper = min(4.0 * d0, 0.999 * c / float(load.max()))
    lower = d0 / 4.0
    if upper <= lower:
        return None
    res = minimize_scalar(
        lambda log_d: _rel_error(math.exp(log_d), c, load, lat, w, p),
        bounds=(math.log(lower), math.log(upper)),
        method="bounded",
        options={"xatol": 1e-5},
    )
    return math.exp(float(res.x)), float(res.fun)


def fit_mmc(
    curve: KneeCurve, upto_per_s: float, c: int | None = None, max_c: int = 32
) -> MmcFit | None:
    """Fit M/M/c to the bins with load <= upto_per_s (the stable part); None if impossible."""
    sel = (curve.load_per_s <= upto_per_s) & (curve.latency_iso_s > 0)
    if int(sel.sum()) < 3:
        return None
    load, lat = curve.load_per_s[sel], curve.latency_iso_s[sel]
    w = curve.n_windows[sel].astype(np.float64)
    best: tuple[float, int, float] | None = None
    for cand in [c] if c is not None else range(1, max_c + 1):
        fitted = _fit_demand(cand, load, lat, w, curve.percentile)
        if fitted is not None and (best is None or fitted[1] < best[0] - 1e-4):
            best = (fitted[1], cand, fitted[0])
        elif best is not None and cand > best[1] + _C_PATIENCE:
            break  # the error has stopped improving: larger c will not win
    if best is None:
        return None
    return MmcFit(
        servers_c=best[1],
        c_source="parameter" if c is not None else "fitted",
        service_time_s=best[2],
        percentile=curve.percentile,
        fit_error_rel=best[0],
    )


def model_curve(fit: MmcFit, from_per_s: float, points: int = 60) -> ModelCurve:
    """Model points from `from_per_s` up to the model breaking point (0.97 c mu)."""
    end = 0.97 * fit.saturation_per_s
    load = np.linspace(from_per_s, max(end, from_per_s), points)
    return ModelCurve(
        load_per_s=load,
        latency_s=fit.latency_s(load),
        throughput_per_s=np.minimum(load, fit.saturation_per_s),
        concurrency=fit.concurrency(load),
    )
