"""characterize(table): classification, arrivals, latency, sessions and pages, fits and
the workload model, in one pass over a request table.

``Characterization.to_dict()`` is the ``headroom characterize --json`` contract:
``arrivals`` (peak_per_min, trough_per_min, mean_per_min, peak_to_mean over the gap-filled
per-minute grid, plus ``hourly``), ``classes`` (``{"request": {cls: share},
"user": {cls: share}}``, shares of requests), ``pages`` (count, objects_per_page_mean),
``sessions`` (count, pages_per_session_mean), ``arrivals.pages_hourly`` and
``arrivals.sessions_hourly`` (the same statistics of page and session starts per hour),
``fits`` (name -> ``{dist, params, aic, ks}`` and details), ``latency`` (p50..max, null
without latencies), ``latency_by_class`` (per request class), ``model`` and
``fields_recorded`` (which fields the log holds). A figure built on a field the log does
not record is null, never 0: pages without paths, sessions without clients, bytes per page
without sizes (and ``pages_hourly``/``sessions_hourly`` are left out).

Service time is the latency at low load: the latencies of requests in the quietest
quarter of the busy minutes (at most the 25th percentile of per-minute counts), or all
latencies when that leaves fewer than 50.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import polars as pl

from headroom.engine.logs.recorded import FieldsRecorded, fields_recorded

from .arrivals import ArrivalStats, arrival_series, arrival_stats
from .buckets import annotated, bucket_rows
from .classify import Rules
from .coverage import Coverage, frame_coverage, granularity_notice, supported_every_s
from .fitting import FitReport, fit_distribution, not_fitted
from .histogram import Histogram, histogram
from .latency import latency_percentiles
from .model import ClassModel, WorkloadModel
from .sessions import SessionSettings, object_gaps_s, sessions, think_times_s

MIN_LOW_LOAD = 50
SIZE_FITS = ("html_bytes", "object_bytes")
PAGE_FIGURES = (
    "count",
    "with_base",
    "objects_per_page_mean",
    "bytes_per_page_mean",
    "load_time_s_mean",
)
# an exact sum of nanoseconds that cannot overflow (Int64 could, on a long log)
LOAD_TIME_SUM = pl.Decimal(38, 0)
SESSION_FIGURES = ("count", "pages_per_session_mean", "requests_per_session_mean")
PROFILE_STEPS_S = (60, 300, 900, 3600)
# what a user class's own fits read of the annotated table (samples and sessions)
CLASS_FIT_COLUMNS = (
    "session_id",
    "page_id",
    "page_role",
    "client",
    "user_agent",
    "ts",
    "bytes",
    "latency_s",
)
PROFILE_MAX_STEPS = 360


@dataclass(frozen=True)
class Characterization:
    requests: int
    arrivals: ArrivalStats
    arrivals_hourly: ArrivalStats
    classes: dict[str, dict[str, float]]
    pages: dict[str, float | int | None]
    sessions: dict[str, float | int | None]
    latency: dict[str, float] | None
    latency_by_class: dict[str, dict[str, float]]
    fits: dict[str, FitReport]
    model: WorkloadModel
    unit_arrivals_hourly: dict[str, ArrivalStats] = field(default_factory=dict)
    fields_recorded: FieldsRecorded | None = None
    timestamp_granularity_s: float = 0.0
    tables: dict[str, pl.DataFrame] = field(repr=False, compare=False, default_factory=dict)
    observed: dict[str, np.ndarray] = field(repr=False, compare=False, default_factory=dict)
    # the chart data (display.py) when made from partial results, without request tables
    display: dict[str, Any] | None = field(repr=False, compare=False, default=None)

    def histogram(self, name: str, bins: int = 40) -> Histogram:
        """The histogram of one fitted quantity (a key of ``fits``) with its fitted pdf."""
        return histogram(self.observed[name], self.fits[name], bins)

    def replay_workload(
        self, service_s: Mapping[str, Any] | None = None, time_scale: float = 1.0
    ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """A scenario ``workload`` that replays the logged page arrivals per class (the
        fitted page shapes and service times), and the ``datasets`` it names. The
        simulator multiplies replayed times by ``time_scale``: 1/3 is 3x the traffic."""
        workload = self.model.scenario_workload(service_s)
        page_table = self.tables["pages"].with_columns(pl.col("cls_user").fill_null("normal"))
        origin = self.model.start
        datasets: dict[str, np.ndarray] = {}
        for spec in workload["classes"]:
            mine = page_table.filter(pl.col("cls_user") == spec["name"])
            offsets = (pl.col("ts") - pl.lit(origin)).dt.total_nanoseconds() / 1e9
            name = f"pages_{spec['name']}"
            datasets[name] = np.sort(mine.select(offsets)["ts"].to_numpy())
            spec["arrivals"] = {"dataset": name, "time_scale": time_scale}
        return workload, datasets

    def to_dict(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "arrivals": {
                **self.arrivals.per_minute(),
                "every_s": self.arrivals.every_s,
                "span_s": self.arrivals.covered_s,
                "timestamp_granularity_s": self.timestamp_granularity_s,
                "timestamp_notice": granularity_notice(
                    self.timestamp_granularity_s, self.arrivals.every_s
                ),
                "hourly": self.arrivals_hourly.to_dict(),
                **{f"{k}_hourly": v.to_dict() for k, v in self.unit_arrivals_hourly.items()},
            },
            "classes": self.classes,
            "pages": self.pages,
            "sessions": self.sessions,
            "latency": self.latency,
            "latency_by_class": self.latency_by_class,
            "fits": {name: report.to_dict() for name, report in self.fits.items()},
            "model": self.model.model_dump(mode="json"),
            "fields_recorded": self.fields_recorded.to_dict() if self.fields_recorded else None,
        }


def characterize(
    table: pl.DataFrame | pl.LazyFrame,
    rules: Rules | None = None,
    settings: SessionSettings | None = None,
    profile_step_s: int | None = None,
    rng: np.random.Generator | None = None,
    name: str = "workload",
    memory_budget_mb: int | None = None,
) -> Characterization:
    """Characterize a request table (classified by ``rules``, default rules when None and
    the table is not yet classified). The arrival statistics are per minute, or per the
    finest interval the timestamps support; the model's profile step follows the data
    (:func:`profile_step_for`) unless ``profile_step_s`` is given. With a
    ``memory_budget_mb``, sessions and pages are made one range of clients at a time
    (buckets.py), with the same result; a LazyFrame is then read range by range."""
    lazy = table.lazy()
    del table
    cover = frame_coverage(lazy)
    granularity_s = cover.granularity_s if cover else 0.0
    held = fields_recorded(lazy)
    rows = bucket_rows(memory_budget_mb)
    parts = annotated(lazy, rules, _unclassified(lazy, rules), settings, rows)
    ann, page_table, session_table = parts.requests, parts.pages, parts.sessions
    del parts
    rng = rng or np.random.default_rng(0)
    observed = samples(ann, page_table, session_table)
    fits = fit_samples(observed, rng)
    step_s = profile_step_s or profile_step_for(cover)
    model = build_model(ann, page_table, fits, step_s, rng, name, cover)
    units = {"pages": (page_table, held.path), "sessions": (session_table, held.sessions)}
    return Characterization(
        requests=ann.height,
        arrivals=arrival_stats(ann, supported_every_s(granularity_s, (60, 3600)), cover),
        arrivals_hourly=arrival_stats(ann, 3600, cover),
        classes={"request": _shares(ann, "cls_request"), "user": _shares(ann, "cls_user")},
        pages=_page_summary(page_table, held),
        sessions=_session_summary(session_table, held),
        latency=_latency(ann),
        latency_by_class=_latency_by_class(ann),
        fits=fits,
        model=model,
        unit_arrivals_hourly={
            k: arrival_stats(t, 3600, cover) for k, (t, ok) in units.items() if ok
        },
        fields_recorded=held,
        timestamp_granularity_s=granularity_s,
        tables={"annotated": ann, "pages": page_table, "sessions": session_table},
        observed=observed,
    )


def profile_step_for(cover: Coverage | None) -> int:
    """The model's profile step: the finest of 1 min, 5 min, 15 min and 1 h that is no
    finer than the timestamps and gives at most PROFILE_MAX_STEPS steps (a 20-minute log
    per minute, a day per 5 minutes, days per hour)."""
    if cover is None:
        return PROFILE_STEPS_S[-1]
    fits = [
        s
        for s in PROFILE_STEPS_S
        if s >= cover.granularity_s and cover.span_s / s <= PROFILE_MAX_STEPS
    ]
    return fits[0] if fits else PROFILE_STEPS_S[-1]


def _unclassified(table: pl.LazyFrame, rules: Rules | None) -> bool:
    """Whether the rules are to be applied: given, or some request is not classified."""
    if rules is not None:
        return True
    counted = table.select(pl.col("cls_request", "cls_user").null_count())
    nulls = counted.collect(engine="streaming")
    return int(nulls.sum_horizontal().item()) > 0


def _shares(df: pl.DataFrame, column: str) -> dict[str, float]:
    counts = df.group_by(column).agg(pl.len().alias("n")).sort(column)
    return {str(k): n / max(df.height, 1) for k, n in counts.iter_rows()}


def _mean(series: pl.Series) -> float | None:
    return float(series.mean()) if series.len() else None  # type: ignore[arg-type]


def _page_summary(page_table: pl.DataFrame, held: FieldsRecorded) -> dict[str, float | int | None]:
    """Pages are told apart by their paths: without paths every figure is null (an empty
    table has 0 pages)."""
    if not held.path and page_table.height:
        return dict.fromkeys(PAGE_FIGURES)
    return {
        "count": page_table.height,
        "with_base": int(page_table["has_base"].sum()),
        "objects_per_page_mean": _mean(page_table["objects"]),
        "bytes_per_page_mean": _mean(page_table["bytes"]) if held.bytes else None,
        "load_time_s_mean": load_time_s_mean(*load_time_sum_ns(page_table)),
    }


def load_time_sum_ns(page_table: pl.DataFrame) -> tuple[int, int]:
    """The pages' load times added exactly, in integer nanoseconds, and their number: a
    float sum's last bits would follow the order of the additions (polars' threads, the
    parts of a map-reduce), the same log giving different documents."""
    timed = page_table.filter(pl.col("load_time_s").is_not_null())
    ns = (timed["end_ts"] - timed["ts"]).dt.total_nanoseconds().cast(LOAD_TIME_SUM)
    return int(ns.sum()), timed.height


def load_time_s_mean(sum_ns: int, n: int) -> float | None:
    return sum_ns / (n * 10**9) if n else None  # ints: one correctly rounded division


def _session_summary(
    session_table: pl.DataFrame, held: FieldsRecorded
) -> dict[str, float | int | None]:
    """Sessions are one client's requests: without clients every figure is null (an empty
    table has 0 sessions)."""
    if not held.sessions and session_table.height:
        return dict.fromkeys(SESSION_FIGURES)
    return {
        "count": session_table.height,
        "pages_per_session_mean": _mean(session_table["pages"]) if held.path else None,
        "requests_per_session_mean": _mean(session_table["requests"]),
    }


def _latency(df: pl.DataFrame) -> dict[str, float] | None:
    row = latency_percentiles(df)
    return row.row(0, named=True) if row.height else None


def _latency_by_class(df: pl.DataFrame) -> dict[str, dict[str, float]]:
    rows = latency_percentiles(df, "cls_request").iter_rows(named=True)
    return {str(r.pop("cls_request")): r for r in rows}


def samples(
    ann: pl.DataFrame, page_table: pl.DataFrame, session_table: pl.DataFrame
) -> dict[str, np.ndarray]:
    """The observed values of each fitted quantity."""
    role = pl.col("page_role")
    sizes = ann.select("page_role", "bytes")
    return {
        "requests_per_session": session_table["requests"].to_numpy().astype(float),
        "think_time_s": think_times_s(page_table).to_numpy(),
        "objects_per_page": page_table["objects"].to_numpy().astype(float),
        "html_bytes": sizes.filter(role == "base")["bytes"].drop_nulls().to_numpy().astype(float),
        "object_bytes": sizes.filter(role != "base")["bytes"].drop_nulls().to_numpy().astype(float),
        "object_gap_s": object_gaps_s(ann).to_numpy(),
        "service_time_s": low_load_latencies(ann),
    }


def low_load_latencies(ann: pl.DataFrame) -> np.ndarray:
    with_latency = ann.select("ts", "latency_s").filter(pl.col("latency_s").is_not_null())
    if with_latency.height == 0:
        return np.empty(0)
    minute = pl.col("ts").dt.truncate("1m")
    counts = ann.group_by(minute.alias("m")).agg(pl.len().alias("n"))
    quiet = counts.filter(pl.col("n") <= pl.col("n").quantile(0.25, "lower"))["m"]
    low = with_latency.filter(minute.is_in(quiet.implode()))["latency_s"]
    chosen = low if low.len() >= MIN_LOW_LOAD else with_latency["latency_s"]
    return chosen.to_numpy()


def fit_all(
    ann: pl.DataFrame,
    page_table: pl.DataFrame,
    session_table: pl.DataFrame,
    rng: np.random.Generator,
) -> dict[str, FitReport]:
    return fit_samples(samples(ann, page_table, session_table), rng)


def fit_samples(values: Mapping[str, np.ndarray], rng: np.random.Generator) -> dict[str, FitReport]:
    """The fit of each quantity's observed values (sizes with a lognormal body/Pareto tail);
    each on its own, so one that cannot be made leaves the others and the model intact."""
    return {name: _fit_one(name, x, rng) for name, x in values.items()}


def _fit_one(name: str, x: np.ndarray, rng: np.random.Generator) -> FitReport:
    try:
        return fit_distribution(x, body_tail=name in SIZE_FITS, rng=rng)
    except (ValueError, ArithmeticError, RuntimeError, np.linalg.LinAlgError) as exc:
        return not_fitted(x, f"the fit failed on these values ({exc})")


def build_model(
    ann: pl.DataFrame,
    page_table: pl.DataFrame,
    fits: dict[str, FitReport],
    profile_step_s: int,
    rng: np.random.Generator,
    name: str,
    cover: Coverage | None = None,
) -> WorkloadModel:
    """Per user class: its page profile and, with several classes, its own fits. The
    model starts where the log's coverage starts and lasts its covered span; each step's
    rate is its pages over the seconds of the step the log covers."""
    cover = cover or frame_coverage(page_table)
    pages_by_class = page_table.with_columns(pl.col("cls_user").fill_null("normal"))
    grid = arrival_series(pages_by_class, profile_step_s, "cls_user", cover)

    def class_fits(cls: str) -> dict[str, FitReport]:
        pages_c = page_table.filter(pl.col("cls_user") == cls)
        ann_c = ann.select(CLASS_FIT_COLUMNS).filter(
            pl.col("page_id").is_in(pages_c["page_id"].implode())
        )
        return fit_all(ann_c, pages_c, sessions(ann_c, pages_c), rng)

    return model_from_grid(grid, fits, class_fits, profile_step_s, name, cover)


def model_from_grid(
    grid: pl.DataFrame,
    fits: dict[str, FitReport],
    class_fits: Callable[[str], dict[str, FitReport]],
    profile_step_s: int,
    name: str,
    cover: Coverage | None,
) -> WorkloadModel:
    """The model of a gap-filled page grid (``t``, ``cls_user``, ``count``): the whole
    log's ``fits`` with one class, ``class_fits(name)`` per class with several."""
    if cover is None or grid.height == 0:
        start, duration_s = None, float(profile_step_s)
        grid = grid.with_columns(pl.lit(0.0).alias("t_s"), pl.lit(0.0).alias("rate"))
    else:
        start = _utc(cover.start_ns)
        duration_s = cover.span_s
        bucket_ns = grid["t"].dt.epoch("ns").to_numpy()
        covered = cover.covered_s(bucket_ns, profile_step_s)
        t_s = np.maximum(bucket_ns - cover.start_ns, 0) / 1e9
        rate = grid["count"].to_numpy() / np.maximum(covered, 1e-9)
        grid = grid.with_columns(pl.Series("t_s", t_s), pl.Series("rate", rate))
    names = sorted(set(grid["cls_user"].to_list())) or ["normal"]
    only = len(names) == 1
    classes = [_class_model(c, grid, fits if only else class_fits(c)) for c in names]
    return WorkloadModel(
        name=name,
        start=start,
        profile_step_s=profile_step_s,
        duration_s=duration_s,
        classes=classes,
    )


def _utc(epoch_ns: int) -> datetime:
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=epoch_ns // 1000)


def _class_model(name: str, grid: pl.DataFrame, fits: dict[str, FitReport]) -> ClassModel:
    mine = grid.filter(pl.col("cls_user") == name).sort("t_s")
    profile = [(float(t), float(r)) for t, r in mine.select("t_s", "rate").iter_rows()]
    profile = profile or [(0.0, 0.0)]
    share = int(mine["count"].sum()) / max(int(grid["count"].sum()), 1)
    service = fits["service_time_s"]
    has_service = service.n > 0
    return ClassModel.model_validate(
        {
            "name": name,
            "share": share,
            "profile": profile,
            "page": {
                "objects": fits["objects_per_page"].sim_spec(),
                "gap_s": fits["object_gap_s"].sim_spec(),
            },
            "service_s": service.sim_spec() if has_service else None,
            "fitted": {k: f.sim_spec() for k, f in fits.items() if k != "service_time_s"},
        }
    )
