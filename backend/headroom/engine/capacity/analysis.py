"""The capacity/SLA analysis of a request table: `analyze(table, params) -> CapacityReport`."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import polars as pl
from numpy.typing import NDArray

from headroom.engine.capacity import knee as kn
from headroom.engine.capacity.models import MmcFit, ModelCurve, fit_mmc, model_curve
from headroom.engine.capacity.partitions import servers_needed
from headroom.engine.capacity.power import NOT_REACHED, PowerCapacity, power_capacity
from headroom.engine.capacity.report import (
    BreakingPoint,
    CapacityParams,
    CapacityReport,
    ClassReport,
    KneePoint,
    virtual_queue_advice,
)
from headroom.engine.capacity.sla import LoadCurve, SlaTarget, sla_target, threshold_for_stance
from headroom.engine.capacity.trend import LatencyTrend, latency_trend
from headroom.engine.capacity.usl import UslFit, fit_usl
from headroom.engine.capacity.windows import (
    FloatArray,
    IntArray,
    WindowStats,
    concat_windows,
    key_codes,
    row_groups,
    window_stats,
)

ALL = "all"
NO_SERVERS = "the log names no servers: the whole site is analysed as one server"
MODEL_KNEE = "the log stops before the knee: knee extrapolated with an M/M/c model"
SET_SERVERS = "set the servers in this log to fix it"
NO_THRESHOLD = "no SLA threshold: no knee or breaking point was found; set a threshold"
THROUGHPUT_SLACK = 1.03  # offered load may run 3% ahead of throughput in a window
_MODEL_GRID = 400


def _class_expr(columns: list[str]) -> pl.Expr:
    parts = [pl.col(c).fill_null("unknown") for c in ("cls_request", "cls_user") if c in columns]
    if not parts:
        return pl.lit(ALL)
    return pl.concat_str(parts, separator=":") if len(parts) > 1 else parts[0]


def _prepare(table: pl.DataFrame) -> pl.DataFrame:
    for col in ("ts", "latency_s"):
        if col not in table.columns:
            raise ValueError(f"request table has no column {col!r}")
    if not isinstance(table.schema["ts"], pl.Datetime):
        raise ValueError(f"column 'ts' must be a Datetime, got {table.schema['ts']}")
    if table.height == 0 or table["latency_s"].null_count() == table.height:
        raise ValueError("column 'latency_s' has no values: knee curves need latencies")
    t0 = table["ts"].min()
    status = pl.col("status") if "status" in table.columns else pl.lit(200)
    server = pl.col("server") if "server" in table.columns else pl.lit(None, dtype=pl.Utf8)
    client = [pl.col("client").cast(pl.Utf8)] if "client" in table.columns else []
    return table.select(
        *client,
        t_s=(pl.col("ts") - pl.lit(t0)).dt.total_nanoseconds().cast(pl.Float64) / 1e9,
        latency_s=pl.col("latency_s").cast(pl.Float64).fill_null(float("nan")),
        ok=status.fill_null(200) < 500,  # served without a server error
        server=server.cast(pl.Utf8),
        cls=_class_expr(table.columns),
    )


@dataclass(frozen=True)
class _Columns:
    t_s: FloatArray
    latency_s: FloatArray
    ok: NDArray[np.bool_]
    client: IntArray | None  # client codes (-1 unknown), when the table names clients

    @classmethod
    def of(cls, rows: pl.DataFrame) -> _Columns:
        client = key_codes(rows, "client", null_code=-1) if "client" in rows.columns else None
        t_s, lat, ok = (rows[c].to_numpy() for c in ("t_s", "latency_s", "ok"))
        return cls(t_s, lat, ok, client)


def _pooled_windows(
    cols: _Columns, streams: list[IntArray], params: CapacityParams, n_windows: int
) -> WindowStats:
    """Windows of every stream (one per server, or the whole class), pooled."""
    w, pct = params.window_s, params.percentile
    parts = []
    for i in streams:
        client = None if cols.client is None else cols.client[i]
        parts.append(
            window_stats(cols.t_s[i], cols.latency_s[i], cols.ok[i], w, n_windows, pct, client)
        )
    return concat_windows(parts)


def _peak_load(t_s: FloatArray, params: CapacityParams, n_windows: int) -> float:
    idx = np.floor(t_s / params.window_s).astype(np.int64)
    counts = np.bincount(idx[idx < n_windows], minlength=n_windows)
    return float(counts.max()) / params.window_s


def _class_streams(rows: pl.DataFrame, split: bool) -> dict[str, list[IntArray]]:
    """Row indices of each class ("all" first), split into one stream per server."""
    keys = ["server"] if split else []
    out: dict[str, list[IntArray]] = {ALL: list(row_groups(rows, keys).values())}
    by_class = row_groups(rows, ["cls", *keys])
    for key, idx in sorted(by_class.items(), key=lambda kv: str(kv[0])):
        name = str(key[0])
        if name != ALL:
            out.setdefault(name, []).append(idx)
    return out


def _measured_knee(curve: kn.KneeCurve, upto: float, params: CapacityParams) -> KneePoint | None:
    sel = curve.load_per_s <= upto  # only the stable part, below the breaking point
    x, y = curve.load_per_s[sel], curve.latency_iso_s[sel]
    found = kn.kneedle(x, y)
    if found is None or found.strength < params.knee_min_strength:
        return None
    if y[-1] < params.knee_min_rise * y[0]:
        return None
    return KneePoint(found.load_per_s, found.latency_s, "measured", found.strength)


def _model_knee(curve: kn.KneeCurve, fit: MmcFit) -> KneePoint | None:
    load = np.linspace(curve.load_per_s[0], 0.97 * fit.saturation_per_s, _MODEL_GRID)
    found = kn.kneedle(load, fit.latency_s(load))
    if found is None:
        return None
    return KneePoint(found.load_per_s, found.latency_s, "model", found.strength)


def _load_curve(curve: kn.KneeCurve, model: ModelCurve | None) -> LoadCurve:
    load, lat = curve.load_per_s, curve.latency_iso_s
    x, q = curve.throughput_per_s, curve.concurrency
    is_model = np.zeros(load.size, dtype=bool)
    if model is not None:
        beyond = model.load_per_s > load[-1]
        load = np.concatenate((load, model.load_per_s[beyond]))
        lat = np.concatenate((lat, model.latency_s[beyond]))
        x = np.concatenate((x, model.throughput_per_s[beyond]))
        q = np.concatenate((q, model.concurrency[beyond]))
        is_model = np.concatenate((is_model, np.ones(int(beyond.sum()), dtype=bool)))
    lat = np.maximum.accumulate(lat)  # model points never dip below the measured curve
    return LoadCurve(load, lat, x, q, is_model)


def _usl(windows: WindowStats) -> UslFit | None:
    try:
        return fit_usl(windows.concurrency, windows.throughput_per_s)
    except (ValueError, RuntimeError):
        return None


def _sla(
    params: CapacityParams, curve: LoadCurve, knee: KneePoint | None, bp: BreakingPoint | None
) -> tuple[SlaTarget | None, str | None]:
    if params.threshold_s is not None:
        return sla_target(curve, "user", params.percentile, params.threshold_s), None
    if knee is None or bp is None:
        return None, NO_THRESHOLD
    t = threshold_for_stance(curve, params.stance, knee.load_per_s, bp.load_per_s)
    return sla_target(curve, params.stance, params.percentile, t), None


def _cross_check(
    sla: SlaTarget | None, trend: LatencyTrend, max_tp: float
) -> tuple[SlaTarget | None, str | None]:
    """MaxRate(T) against the most the log saw a server complete: refused above it, except
    a model value extrapolated from an open queue whose latency rises with load."""
    if sla is None or sla.max_rate_per_s <= THROUGHPUT_SLACK * max_tp:
        return sla, None
    over = f"MaxRate(T) = {sla.max_rate_per_s:.4g}/s is above the {max_tp:.4g}/s"
    if sla.source == "model" and trend.rises:
        return sla, f"{over} measured per server: a model value, not seen in this log"
    return None, f"{over} measured per server, so it is not shown"


@dataclass(frozen=True)
class _Shape:
    """Where the curve bends and where it stops: measured when seen, else from the model."""

    knee: KneePoint | None
    breaking_point: BreakingPoint | None
    fit: MmcFit | None
    saturated: bool
    warnings: tuple[str, ...]


def _shape(
    curve: kn.KneeCurve, params: CapacityParams, c: int | None, trend: LatencyTrend
) -> _Shape:
    saturated = kn.is_saturated(curve)
    bp_measured = kn.breaking_point_per_s(curve)
    stable_upto = bp_measured if saturated else float(curve.load_per_s[-1])
    fit = fit_mmc(curve, stable_upto, c) if trend.rises else None
    warnings = []
    knee = _measured_knee(curve, stable_upto, params)
    if knee is None and fit is not None:
        knee = _model_knee(curve, fit)
        warnings.append(MODEL_KNEE)
    bp = BreakingPoint(bp_measured, "measured") if saturated else None
    if bp is None and fit is not None:
        bp = BreakingPoint(0.97 * fit.saturation_per_s, "model")
    sources = {p.source for p in (knee, bp) if p is not None}
    if "model" in sources and fit is not None and fit.c_source == "fitted":
        warnings.append(f"the queueing model fitted {fit.servers_c} servers; {SET_SERVERS}")
    return _Shape(knee, bp, fit, saturated, tuple(warnings))


def class_report(
    name: str, windows: WindowStats, params: CapacityParams, c: int | None, peak: float
) -> ClassReport:
    """Knee curve, knee, breaking point, model, SLA target and MaxConn of one class."""
    rng = np.random.default_rng(params.seed)
    curve = kn.knee_curve(
        windows, params.percentile, params.bins, params.min_windows_per_bin, rng,
        params.bootstrap_resamples, params.confidence,
    )  # fmt: skip
    trend = latency_trend(windows.load_per_s, windows.mean_latency_s)
    max_tp = float(np.max(windows.throughput_per_s))
    shape = _shape(curve, params, c, trend)
    fit, bp = shape.fit, shape.breaking_point
    model = model_curve(fit, curve.load_per_s[0], _MODEL_GRID) if fit is not None else None
    load_curve = _load_curve(curve, None if shape.saturated else model)
    sla, why = _sla(params, load_curve, shape.knee, bp) if trend.rises else (None, None)
    sla, refused = _cross_check(sla, trend, max_tp)
    rate = sla.max_rate_per_s if sla is not None else 0.0
    notes = tuple(n for n in (trend.message(), why, refused) if n)
    return ClassReport(
        name=name,
        curve=curve,
        knee=shape.knee,
        breaking_point=bp,
        sla=sla,
        max_conn=None if bp is None else load_curve.concurrency_at(bp.load_per_s),
        mmc=fit,
        model=model,
        usl=_usl(windows),
        peak_load_per_s=peak,
        servers_needed=servers_needed(peak, rate) if rate > 0 else None,
        warnings=shape.warnings + notes,
        latency_trend=trend,
        max_throughput_per_s=max_tp,
    )


def _checked_power(capacity: PowerCapacity, all_class: ClassReport) -> PowerCapacity:
    """No power-ratio capacity when latency does not rise with load, nor above the most
    the log saw a server complete."""
    trend, max_tp = all_class.latency_trend, all_class.max_throughput_per_s
    peak = capacity.power_peak_load_per_s
    if (
        trend is not None
        and not trend.rises
        and (peak is not None or capacity.reason == NOT_REACHED)
    ):
        return replace(capacity, power_peak_load_per_s=None, reason=trend.message())
    if peak is not None and max_tp is not None and peak > THROUGHPUT_SLACK * max_tp:
        why = f"the power-ratio peak ({peak:.4g}/s) is above the {max_tp:.4g}/s measured"
        return replace(capacity, power_peak_load_per_s=None, reason=why)
    return capacity


def _binned_power(win: WindowStats, params: CapacityParams) -> tuple[FloatArray, FloatArray]:
    """Per load bin: mean load, and mean goodput over the mean latency of its requests."""
    ok = np.isfinite(win.mean_latency_s)
    load, good, lat = win.load_per_s[ok], win.goodput_per_s[ok], win.mean_latency_s[ok]
    if load.size < params.min_windows_per_bin:
        return np.empty(0), np.empty(0)
    bins = kn.load_bins(load, params.bins, params.min_windows_per_bin)
    n = int(bins.max()) + 1
    count = np.bincount(bins, minlength=n)
    arrivals = np.bincount(bins, weights=load, minlength=n)
    mean_lat = np.bincount(bins, weights=load * lat, minlength=n) / arrivals
    gamma = np.bincount(bins, weights=good, minlength=n) / count / mean_lat
    return arrivals / count, gamma


def _window_count(rows: pl.DataFrame, params: CapacityParams) -> int:
    """Complete windows in the log (a partial last window would understate its load)."""
    span_s = float(rows["t_s"].to_numpy().max())
    n_windows = math.floor(span_s / params.window_s)
    if n_windows < params.min_windows_per_bin:
        raise ValueError(
            f"the log spans {n_windows} complete windows of {params.window_s} s; "
            f"need at least {params.min_windows_per_bin}"
        )
    return n_windows


def analyze(table: pl.DataFrame, params: CapacityParams | None = None) -> CapacityReport:
    """Knee curves, SLA targets and capacity of every class of a request table.

    When the table names servers, each server's windows are computed apart and pooled, so
    loads and limits are per server (the SLA is per server); otherwise the whole site is
    one server and the report says so.
    """
    params = params or CapacityParams()
    params.validate()
    rows = _prepare(table)
    n_windows = _window_count(rows, params)
    servers = tuple(sorted(s for s in rows["server"].unique().to_list() if s is not None))
    split = params.per_server and bool(servers)
    c = params.model_servers or (len(servers) if servers and not params.per_server else None)
    cols = _Columns.of(rows)
    classes, pooled, skipped = {}, {}, []
    for name, streams in _class_streams(rows, split).items():
        pooled[name] = _pooled_windows(cols, streams, params, n_windows)
        peak = _peak_load(cols.t_s[np.concatenate(streams)], params, n_windows)
        try:
            classes[name] = class_report(name, pooled[name], params, c, peak)
        except ValueError as err:
            if name == ALL:
                raise
            skipped.append(f"class {name!r} skipped: {err}")
    capacity = _site_capacity(pooled[ALL], params, classes[ALL])
    return CapacityReport(
        params=params,
        classes=classes,
        capacity=capacity,
        per_server=split,
        servers=servers,
        warnings=(*(() if split else (NO_SERVERS,)), *skipped),
        virtual_queue=virtual_queue_advice(
            cols.t_s, capacity.power_peak_load_per_s, len(servers) if split else 1, classes[ALL]
        ),
    )


def _site_capacity(
    win: WindowStats, params: CapacityParams, all_requests: ClassReport
) -> PowerCapacity:
    """The power-based capacity of the whole site, checked against its knee."""
    return _checked_power(
        power_capacity(
            win.load_per_s, win.goodput_per_s, win.mean_latency_s, _binned_power(win, params)
        ),
        all_requests,
    )


def analyze_windows(
    windows: dict[str, WindowStats],
    params: CapacityParams | None = None,
    warnings: tuple[str, ...] = (),
    histogram: dict[str, Any] | None = None,
) -> CapacityReport:
    """Knee curves, SLA targets and capacity from windows measured elsewhere than in a
    request table (a metrics system's intervals: engine/capacity/prometheus.py), one
    server for the whole site; ``windows`` per class, ``all`` among them. No virtual-queue
    advice: it replays arrivals, which intervals do not record."""
    params = params or CapacityParams()
    params.validate()
    if ALL not in windows:
        raise ValueError("no windows of all requests")
    classes: dict[str, ClassReport] = {}
    skipped = []
    for name, win in sorted(windows.items(), key=lambda item: item[0] != ALL):
        try:
            if win.load_per_s.size < params.min_windows_per_bin:
                raise ValueError(
                    f"{win.load_per_s.size} intervals with traffic and latencies; "
                    f"need at least {params.min_windows_per_bin}"
                )
            peak = float(win.load_per_s.max())
            classes[name] = class_report(name, win, params, params.model_servers, peak)
        except ValueError as err:
            if name == ALL:
                raise
            skipped.append(f"class {name!r} skipped: {err}")
    capacity = _site_capacity(windows[ALL], params, classes[ALL])
    return CapacityReport(
        params=params,
        classes=classes,
        capacity=capacity,
        per_server=False,
        servers=(),
        warnings=(*warnings, *skipped),
        histogram=histogram,
    )
