"""A multi-tier run's per-tier series as a part of the stored run document.

The engine keeps per tick and per tier the allocated and active VMs, utilisation,
concurrency (pool slots in use), accept-queue length and pool size (tiers.py). The run
page draws VMs and pool sizes as step functions (exact up to ``STEP_POINTS`` changes),
the others as bucket means, and marks each pool change the concurrency-aware policy made.
"""

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from headroom.analyses.tables import jsonable
from headroom.engine.sim.tiers.sct import PoolChange
from headroom.simulations.admission_docs import k_steps
from headroom.simulations.result_models import PoolChangeOut, Steps, TiersDocument, TierSeries

STEP_POINTS = 2000  # per tier and step series
BUCKETS = 500  # per tier and averaged series
POOL_CHANGES = 1000  # the first ones kept; ``pool_changes_total`` counts them all
STEPS = ("allocated", "active", "pool")
MEANS = ("utilization", "concurrency", "waiting")


def tiers_document(
    tier_series: Mapping[str, Any] | None,
    names: Sequence[str],
    scaled: str | None,
    monitor_s: float,
    end_s: float,
) -> TiersDocument | None:
    """Per tier: step series from each tick's start, bucket means ending at ``t_s``,
    and the pool changes; None for a single-tier run."""
    if not tier_series or not names:
        return None
    ends = np.asarray(tier_series["t_s"], dtype=np.float64)
    starts = ends - monitor_s
    size = max(1, -(-len(ends) // BUCKETS))
    firsts = np.arange(0, len(ends), size)
    changes = list(tier_series.get("pool_changes", ()))
    return TiersDocument(
        scaled=scaled,
        bucket_s=size * monitor_s,
        t_s=ends[np.minimum(firsts + size, len(ends)) - 1].tolist() if len(ends) else [],
        tiers=[_tier(tier_series, name, starts, firsts, end_s) for name in names],
        pool_changes=[_change(c) for c in changes[:POOL_CHANGES]],
        pool_changes_total=len(changes),
    )


def _tier(
    series: Mapping[str, Any], name: str, starts: np.ndarray, firsts: np.ndarray, end_s: float
) -> TierSeries:
    steps = {key: _steps(series[f"{name}.{key}"], starts, end_s) for key in STEPS}
    means = {
        key: _means(np.asarray(series[f"{name}.{key}"], dtype=np.float64), firsts) for key in MEANS
    }
    return TierSeries(name=name, **steps, **means)


def _steps(series: Any, starts: np.ndarray, end_s: float) -> Steps:
    # pool: inf (unbounded) and nan (no active VM) as -1 for the change test, then null
    values = np.asarray(series, dtype=np.float64)
    steps = k_steps(starts, np.where(np.isfinite(values), values, -1.0), end_s, STEP_POINTS)
    return Steps(t_s=steps["t_s"], value=[None if v < 0 else v for v in steps["k"]])


def _means(values: np.ndarray, firsts: np.ndarray) -> list[float]:
    if not len(values):
        return []
    clean = np.nan_to_num(values, posinf=0.0)
    counts = np.diff(np.append(firsts, len(values)))
    return (np.add.reduceat(clean, firsts) / counts).tolist()


def _change(change: PoolChange) -> PoolChangeOut:
    keys = ("t_s", "tier", "vm", "from_pool", "to_pool", "rule", "q_lower", "q_upper")
    return PoolChangeOut.model_validate(jsonable({key: getattr(change, key) for key in keys}))
