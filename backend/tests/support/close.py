"""Two characterization documents compared field by field: exact, except the percentiles
(within the log-bucket sketch's relative error), the fits (the same values added in
another order) and means of float sums."""

from __future__ import annotations

import math
from typing import Any

from headroom.engine.workload.sketch import ALPHA

# the fits' optimisers add the same values in another order
FIT_RTOL = 1e-6
# standard errors: finite differences of that log-likelihood amplify its rounding
HESSIAN_RTOL = 1e-4
PERCENTILE = ("p50_s", "p90_s", "p95_s", "p99_s")


def compare(one: Any, other: Any, path: str = "") -> list[str]:
    """Where two documents differ beyond each field's tolerance: exact, except the
    percentiles (relative ALPHA) and the fits (FIT_RTOL)."""
    if isinstance(one, dict) and isinstance(other, dict):
        if set(one) != set(other):
            return [f"{path}: keys {sorted(set(one) ^ set(other))}"]
        return [d for k in one for d in compare(one[k], other[k], f"{path}/{k}")]
    if isinstance(one, list | tuple) and isinstance(other, list | tuple):
        if len(one) != len(other):
            return [f"{path}: length {len(one)} != {len(other)}"]
        return [
            d
            for i, (a, b) in enumerate(zip(one, other, strict=True))
            for d in compare(a, b, f"{path}[{i}]")
        ]
    if isinstance(one, float) and isinstance(other, float):
        if math.isnan(one) and math.isnan(other):
            return []
        tol = _tolerance(path)
        ok = one == other if tol == 0 else math.isclose(one, other, rel_tol=tol, abs_tol=1e-12)
        return [] if ok else [f"{path}: {one!r} != {other!r} (rel {tol})"]
    return [] if one == other else [f"{path}: {one!r} != {other!r}"]


def _tolerance(path: str) -> float:
    leaf = path.rsplit("/", 1)[-1].split("[")[0]
    if leaf in PERCENTILE:
        return ALPHA * (1 + 1e-9)
    if "/se/" in path or "/ci95/" in path:
        return HESSIAN_RTOL
    if path.startswith(("/fits", "/model")):
        return FIT_RTOL
    if leaf.endswith("_mean") or leaf in ("load_time_s_mean",):
        return 1e-12  # a sum of floats added part by part
    return 0.0
