"""The admission stage's figures as parts of the stored documents: the run's
``admission_series`` thinned for charts, and the per-class figures of a sweep row.

Partitions: K(t) as a step function, exact up to ``STEP_POINTS`` changes. Virtual queue:
the discovery epochs as they are (one per 8 s: a day is 10,800), the per-second series
in at most ``SECOND_BUCKETS`` buckets: rates as bucket means, the mean wait weighted by
the requests that arrived in each second, the longest wait as the bucket's maximum."""

from collections.abc import Mapping
from typing import Any

import numpy as np
from pydantic import TypeAdapter

from headroom.analyses.tables import jsonable
from headroom.engine.admission.discovery import PHASE_NAMES
from headroom.simulations.result_models import (
    AdmissionFigures,
    ClassFigures,
    PartitionSeries,
    QueueSeries,
    RunSummary,
)

FIGURES: TypeAdapter[AdmissionFigures] = TypeAdapter(AdmissionFigures)

STEP_POINTS = 4000
SECOND_BUCKETS = 600
EPOCH_KEYS = (
    "epoch_t_s",
    "epoch_rate_per_s",
    "epoch_goodput_per_s",
    "epoch_response_s",
    "epoch_power",
    "epoch_estimate_per_s",
)
RATE_KEYS = ("second_offered", "second_admitted", "second_dropped")


def figures(summary: Mapping[str, Any] | None) -> AdmissionFigures | None:
    """The engine's summary of the stage (partition K, or a virtual queue's figures)."""
    return FIGURES.validate_python(jsonable(dict(summary))) if summary else None


def series_document(
    series: Mapping[str, Any] | None, end_s: float
) -> PartitionSeries | QueueSeries | None:
    """What the charts of an admission stage need; None without a stage."""
    if not series:
        return None
    if "k" in series:
        steps = k_steps(series["t_s"], series["k"], end_s, STEP_POINTS)
        return PartitionSeries(kind="partition", **steps)
    document = {**_epochs(series), **second_buckets(series, SECOND_BUCKETS)}
    return QueueSeries.model_validate({"kind": "virtual_queue", **document})


def k_steps(t_s: Any, k: Any, end_s: float, max_points: int) -> dict[str, list[float]]:
    """K from t_s[i] on, with a closing point at ``end_s``; change points kept exactly up
    to ``max_points``, every n-th one beyond (the value shown is then the one in force)."""
    t = np.asarray(t_s, dtype=np.float64)
    values = np.asarray(k, dtype=np.float64)
    if t.size == 0:
        return {"t_s": [], "k": []}
    changed = np.concatenate(([0], np.flatnonzero(np.diff(values) != 0) + 1))
    if changed.size > max_points - 1:
        changed = changed[:: -(-changed.size // (max_points - 1))]
    end = max(end_s, float(t[-1]))
    return {
        "t_s": [*t[changed].tolist(), end],
        "k": [*values[changed].tolist(), float(values[-1])],
    }


def _epochs(series: Mapping[str, Any]) -> dict[str, list[float | None] | list[str]]:
    out: dict[str, list[float | None] | list[str]] = {
        key: _floats(series.get(key, ())) for key in EPOCH_KEYS
    }
    phases = np.asarray(series.get("epoch_phase", ()), dtype=np.int64)
    out["epoch_phase"] = [PHASE_NAMES[int(p)] for p in phases]
    return out


def second_buckets(
    series: Mapping[str, Any], buckets: int
) -> dict[str, float | list[float] | list[float | None]]:
    """The per-second series in at most ``buckets`` equal runs of seconds: rates (per s)
    as means, the mean wait weighted by arrivals, the longest wait as the maximum;
    ``bucket_t_s`` is each bucket's end."""
    t = np.asarray(series.get("second_t_s", ()), dtype=np.float64)
    n = t.size
    out: dict[str, float | list[float] | list[float | None]] = {"bucket_s": 0.0, "bucket_t_s": []}
    if n == 0:
        return {**out, **{k: [] for k in (*RATE_KEYS, "wait_mean_s", "wait_max_s")}}
    size = max(1, -(-n // buckets))
    starts = np.arange(0, n, size)
    counts = np.diff(np.append(starts, n))
    out["bucket_s"] = float(size * (t[1] - t[0])) if n > 1 else float(size)
    out["bucket_t_s"] = (t[np.minimum(starts + size, n) - 1] + 1.0).tolist()
    for key in RATE_KEYS:
        values = np.nan_to_num(np.asarray(series[key], dtype=np.float64))
        out[key] = (np.add.reduceat(values, starts) / counts).tolist()
    out["wait_mean_s"] = _weighted_means(series, starts)
    wait_max = np.asarray(series["second_wait_max_s"], dtype=np.float64)
    out["wait_max_s"] = _nullable(np.fmax.reduceat(wait_max, starts))
    return out


def _weighted_means(series: Mapping[str, Any], starts: np.ndarray) -> list[float | None]:
    """Each bucket's mean wait over the requests that arrived in it and were given a
    wait (offered minus dropped); None when there were none."""
    mean = np.asarray(series["second_wait_mean_s"], dtype=np.float64)
    offered = np.nan_to_num(np.asarray(series["second_offered"], dtype=np.float64))
    dropped = np.nan_to_num(np.asarray(series["second_dropped"], dtype=np.float64))
    weight = np.maximum(offered - dropped, 0.0)
    weight = np.where(np.isfinite(mean), weight, 0.0)
    total = np.add.reduceat(np.where(weight > 0, mean, 0.0) * weight, starts)
    count = np.add.reduceat(weight, starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _nullable(np.where(count > 0, total / count, np.nan))


def _floats(values: Any) -> list[float | None]:
    return _nullable(np.asarray(values, dtype=np.float64))


def _nullable(values: np.ndarray) -> list[float | None]:
    """NaN (not converged yet, no request) as null: JSON has no NaN."""
    return [None if not np.isfinite(v) else float(v) for v in values.tolist()]


def class_figures(run_summary: RunSummary) -> dict[str, ClassFigures]:
    """Per class of a run's summary: p95 latency (and PLT with pages), rejected fraction."""
    return {
        name: ClassFigures(
            latency_p95_s=figures.latency_s.p95,
            plt_p95_s=figures.plt_s.p95 if figures.plt_s else None,
            rejected_fraction=figures.rejected_fraction or 0.0,
        )
        for name, figures in run_summary.classes.items()
    }
