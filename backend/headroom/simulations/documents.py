"""Engine results as the JSON documents stored in a job's Result (a few thousand numbers)."""

from collections.abc import Sequence
from typing import Any

import numpy as np

from headroom.analyses.tables import jsonable
from headroom.engine.sim import SimulationResult
from headroom.engine.sim.results import lttb_indices

SERIES_POINTS = 400  # per tick series: 8 series of (t, y) pairs, ~6,400 numbers in all
CDF_POINTS = 200


def summary(result: SimulationResult) -> dict[str, Any]:
    """The CLI's summary (issue 5 keys) plus the run's cost."""
    document = result.summary()
    document["vms"]["cost"] = result.vms.cost
    return jsonable(document)


def run_document(result: SimulationResult) -> dict[str, Any]:
    series = result.series
    ticks = {k: v.tolist() for k, v in series.downsample(SERIES_POINTS).items()}
    windows = np.arange(1, len(series.window_p95_latency_s) + 1) * series.window_s
    keep = lttb_indices(
        windows.astype(np.float64), np.nan_to_num(series.window_p95_latency_s), SERIES_POINTS
    )
    document = {
        "kind": "run",
        "summary": summary(result),
        "series": {
            "monitor_s": series.monitor_s,
            **ticks,
            "window_s": series.window_s,
            "window_t_s": windows[keep].tolist(),
            "window_p95_latency_s": series.window_p95_latency_s[keep].tolist(),
        },
        "actions": [
            {"t_s": a.t_s, "from_vms": a.from_vms, "to_vms": a.to_vms} for a in result.actions
        ],
        "utilization_boxes": [vars(box) for box in result.utilization_boxes],
        "classes": [_class_cdfs(c) for c in result.classes],
    }
    return jsonable(document)


def _class_cdfs(stats: Any) -> dict[str, Any]:
    return {
        "name": stats.name,
        "latency_cdf": _thin(*stats.latency_cdf()),
        "plt_cdf": _thin(*stats.plt_cdf()) if stats.plt_counts is not None else None,
    }


def _thin(x: np.ndarray, p: np.ndarray) -> dict[str, list[float]]:
    if len(x) > CDF_POINTS:
        keep = np.unique(np.linspace(0, len(x) - 1, CDF_POINTS).round().astype(np.int64))
        x, p = x[keep], p[keep]
    return {"x_s": x.tolist(), "fraction": p.tolist()}


def sweep_row(index: int, point: dict[str, Any], run_summary: dict[str, Any]) -> dict[str, Any]:
    """One run of a sweep: its values, the frontier's two coordinates, its whole summary."""
    vms = run_summary["vms"]
    return {
        "index": index,
        "values": point,
        "cost": vms.get("cost"),
        "vm_hours": vms["vm_hours"],
        "sla_violation_fraction": run_summary["sla_violation_fraction"],
        "rejected_fraction": run_summary["rejected_fraction"],
        "latency_p95_s": run_summary["latency_s"]["p95"],
        "plt_p95_s": (run_summary["plt_s"] or {}).get("p95"),
        "summary": run_summary,
    }


def sweep_document(
    axes: Sequence[tuple[str, list[Any]]], rows: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "kind": "sweep",
        "axes": [{"path": path, "values": values} for path, values in axes],
        "runs": sorted(rows, key=lambda row: int(row["index"])),
    }
