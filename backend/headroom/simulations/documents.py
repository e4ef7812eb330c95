"""Engine results as the typed documents stored in a job's Result (a few thousand numbers):
the one place where the engine's dataclasses and arrays become result_models."""

from collections.abc import Sequence

import numpy as np

from headroom.analyses.tables import jsonable
from headroom.engine.sim import SimulationResult, TimeSeries
from headroom.engine.sim.results import ClassStats, lttb_indices
from headroom.engine.sim.sketch import FINE_ALPHA, sketch_cdf
from headroom.engine.sim.tiers.runner import scaled_tier
from headroom.simulations import admission_docs, tier_docs
from headroom.simulations.result_models import (
    Cdf,
    ClassCdfs,
    Rates,
    RunDocument,
    RunSummary,
    ScalingActionOut,
    SweepAxis,
    SweepDocument,
    SweepRow,
    SweepValue,
    TiersDocument,
    UtilizationBoxOut,
    VmSteps,
    WindowSeries,
)

SERIES_POINTS = 400  # per tick series (LTTB): 8 series of (t, y) pairs, ~6,400 numbers
SERIES_BUCKETS = 500  # display buckets of the per-tick rate series (means and maxima)
STEP_POINTS = 4000  # change points of the VM step function kept exactly up to this many
WINDOW_POINTS = 1500  # SLA windows (a day of 60 s windows is 1,440)
CDF_POINTS = 200
RATE_SERIES = ("arrivals_per_s", "completions_per_s", "rejected_per_s", "waiting", "in_system")


def summary(result: SimulationResult) -> RunSummary:
    """The CLI's summary plus the run's cost."""
    document = result.summary()
    document["vms"]["cost"] = result.vms.cost
    return RunSummary.model_validate(jsonable(document))


def run_document(result: SimulationResult) -> RunDocument:
    """What the run page draws, each part a few thousand numbers at most."""
    classes = result.classes
    return RunDocument(
        kind="run",
        summary=summary(result),
        series=_lttb_series(result.series, _sla_percentile(result)),
        rates=bucket_means(result.series, SERIES_BUCKETS),
        vm_steps=vm_steps(result.series, STEP_POINTS),
        actions=[ScalingActionOut.model_validate(jsonable(vars(a))) for a in result.actions],
        utilization_boxes=[
            UtilizationBoxOut.model_validate(jsonable(vars(box)))
            for box in result.utilization_boxes
        ],
        latency_cdf=_overall_cdf([c.latency_counts for c in classes]),
        plt_cdf=_overall_cdf([c.plt_counts for c in classes if c.plt_counts is not None]),
        classes=[_class_cdfs(c) for c in classes],
        admission=admission_docs.figures(result.admission),
        admission_series=admission_docs.series_document(
            result.admission_series, result.scenario.duration_s
        ),
        tiers=_tiers(result),
    )


def _tiers(result: SimulationResult) -> TiersDocument | None:
    tiers = result.scenario.cluster.tiers
    if result.tier_series is None or not tiers:
        return None
    return tier_docs.tiers_document(
        result.tier_series,
        [t.name for t in tiers],
        tiers[scaled_tier(result.scenario)].name,
        result.series.monitor_s,
        result.duration_s,
    )


def bucket_means(series: TimeSeries, buckets: int) -> Rates:
    """Per-tick series averaged over at most ``buckets`` equal runs of ticks (a rate's
    honest downsample: no spike of one 0.1 s tick poses as the rate); utilisation also
    keeps each bucket's maximum. ``t_s`` is each bucket's end."""
    n = len(series.t_s)
    size = max(1, -(-n // buckets))
    starts = np.arange(0, n, size)
    counts = np.diff(np.append(starts, n))
    utilization = np.nan_to_num(np.asarray(series.utilization, dtype=np.float64))
    means = {
        name: (np.add.reduceat(values, starts) / counts).tolist() if n else []
        for name in (*RATE_SERIES, "utilization")
        for values in [np.nan_to_num(np.asarray(getattr(series, name), dtype=np.float64))]
    }
    return Rates(
        monitor_s=series.monitor_s,
        bucket_s=size * series.monitor_s,
        t_s=series.t_s[np.minimum(starts + size, n) - 1].tolist() if n else [],
        **means,
        utilization_max=np.maximum.reduceat(utilization, starts).tolist() if n else [],
    )


def vm_steps(series: TimeSeries, max_points: int) -> VmSteps:
    """Allocated and active VMs as a step function: a point where either changes (the
    start of that tick), plus the first and the end of the run; exact up to
    ``max_points`` changes, every k-th change beyond."""
    allocated, active = series.allocated_vms, series.active_vms
    n = len(series.t_s)
    if n == 0:
        return VmSteps(t_s=[], allocated_vms=[], active_vms=[])
    changed = np.flatnonzero((np.diff(allocated) != 0) | (np.diff(active) != 0)) + 1
    if len(changed) > max_points - 2:
        changed = changed[:: -(-len(changed) // (max_points - 2))]
    idx = np.concatenate(([0], changed, [n - 1]))
    t_s = series.t_s[idx] - series.monitor_s
    t_s[-1] = series.t_s[-1]
    return VmSteps(
        t_s=t_s.tolist(), allocated_vms=allocated[idx].tolist(), active_vms=active[idx].tolist()
    )


def _sla_percentile(result: SimulationResult) -> float:
    sla = result.scenario.sla
    return sla.percentile if sla is not None else 95.0


def _lttb_series(series: TimeSeries, percentile: float) -> WindowSeries:
    """Every tick series by LTTB, and the SLA windows' latency percentiles (p50, the
    SLA's percentile under ``window_p95_latency_s``, p99) and violations, all thinned
    at the windows LTTB keeps for the SLA percentile."""
    ticks = {k: v.tolist() for k, v in series.downsample(SERIES_POINTS).items()}
    ends = np.arange(1, len(series.window_p95_latency_s) + 1) * series.window_s
    p95 = series.window_p95_latency_s
    keep = lttb_indices(ends.astype(np.float64), np.nan_to_num(p95), WINDOW_POINTS)
    return WindowSeries.model_validate(
        jsonable(
            {
                "monitor_s": series.monitor_s,
                **ticks,
                "window_s": series.window_s,
                "window_percentile": percentile,
                "window_t_s": ends[keep].tolist(),
                "window_p50_latency_s": _at(series.window_p50_latency_s, keep),
                "window_p95_latency_s": p95[keep].tolist(),
                "window_p99_latency_s": _at(series.window_p99_latency_s, keep),
                "window_violated": series.window_violated[keep].tolist(),
            }
        )
    )


def _at(values: np.ndarray, keep: np.ndarray) -> list[float] | None:
    """The kept windows of a per-window series; None when the engine gave none."""
    return values[keep].tolist() if len(values) else None


def _overall_cdf(counts: list[np.ndarray]) -> Cdf | None:
    """Every class's sketch added up: the run's empirical CDF."""
    if not counts:
        return None
    return _thin(*sketch_cdf(np.sum(counts, axis=0), FINE_ALPHA))


def _class_cdfs(stats: ClassStats) -> ClassCdfs:
    return ClassCdfs(
        name=stats.name,
        latency_cdf=_thin(*stats.latency_cdf()),
        plt_cdf=_thin(*stats.plt_cdf()) if stats.plt_counts is not None else None,
        arrived=stats.arrived,
        rejected=stats.rejected,
        rejected_fraction=stats.rejected_fraction,
    )


def _thin(x: np.ndarray, p: np.ndarray) -> Cdf:
    if len(x) > CDF_POINTS:
        keep = np.unique(np.linspace(0, len(x) - 1, CDF_POINTS).round().astype(np.int64))
        x, p = x[keep], p[keep]
    return Cdf(x_s=x.tolist(), fraction=p.tolist())


def sweep_row(index: int, point: dict[str, SweepValue], run_summary: RunSummary) -> SweepRow:
    """One run of a sweep: its values, the frontier's two coordinates, its whole summary."""
    vms = run_summary.vms
    return SweepRow(
        index=index,
        values=point,
        cost=vms.cost,
        vm_hours=vms.vm_hours,
        sla_violation_fraction=run_summary.sla_violation_fraction,
        rejected_fraction=run_summary.rejected_fraction,
        latency_p95_s=run_summary.latency_s.p95,
        plt_p95_s=run_summary.plt_s.p95 if run_summary.plt_s else None,
        classes=admission_docs.class_figures(run_summary),
        admission=run_summary.admission,
        summary=run_summary,
    )


def sweep_document(
    axes: Sequence[tuple[str, list[SweepValue]]], rows: Sequence[SweepRow]
) -> SweepDocument:
    return SweepDocument(
        kind="sweep",
        axes=[SweepAxis(path=path, values=values) for path, values in axes],
        runs=sorted(rows, key=lambda row: row.index),
    )
