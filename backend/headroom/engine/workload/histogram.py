"""Histograms of fitted quantities with the fitted density on top (for the UI's
"fitted distributions" charts): a few dozen bins, never the raw samples.

Log-spaced bins when the positive values span more than two decades (sizes, think
times), linear otherwise. ``density`` is count / (n * width), directly comparable with
the fitted pdf evaluated at the bin centres (geometric centres for log bins); the pdf
is scaled by the share of positive values when zeros were split off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .fitting import FitReport, frozen


@dataclass(frozen=True)
class Histogram:
    edges: list[float]
    counts: list[int]
    density: list[float]
    fitted_pdf: list[float] | None
    fitted_dist: str | None
    log_x: bool
    zeros: int

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def histogram(values: ArrayLike, report: FitReport | None = None, bins: int = 40) -> Histogram:
    x = np.asarray(values, dtype=np.float64)
    x = x[np.isfinite(x) & (x >= 0)]
    pos = x[x > 0]
    zeros = int(len(x) - len(pos))
    if len(pos) == 0:
        return Histogram([], [], [], None, None, False, zeros)
    lo, hi = float(pos.min()), float(pos.max())
    log_x = hi / lo > 100
    edges = np.geomspace(lo, hi, bins + 1) if log_x else np.linspace(lo, hi, bins + 1)
    if hi == lo:
        edges = np.array([lo * 0.5, lo * 1.5]) if lo > 0 else np.array([0.0, 1.0])
    counts, edges = np.histogram(pos, bins=edges)
    widths = np.diff(edges)
    density = counts / (len(x) * widths)
    centres = np.sqrt(edges[:-1] * edges[1:]) if log_x else (edges[:-1] + edges[1:]) / 2
    best = report.best if report is not None else None
    pdf = None
    if best is not None:
        pdf = (frozen(best.dist, best.params).pdf(centres) * len(pos) / len(x)).tolist()
    return Histogram(
        edges=edges.tolist(),
        counts=counts.tolist(),
        density=density.tolist(),
        fitted_pdf=pdf,
        fitted_dist=best.dist if best else None,
        log_x=bool(log_x),
        zeros=zeros,
    )
