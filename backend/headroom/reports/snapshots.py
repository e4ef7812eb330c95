"""Result documents (capacity reports, simulation runs, characterizations, traffic summaries)
turned into report items: the figures and charts a reader needs, with units."""

import itertools
from typing import Any, TypedDict

from headroom.analyses.documents import CapacityReportDoc, ClassReport, MeasuredPoint, ModelPoint
from headroom.analyses.schemas import CapacityParamsIn
from headroom.characterizations.documents import (
    CharacterizationDoc,
    FittedHistogram,
    LatencyPercentiles,
)
from headroom.datasets.schemas import TrafficSummaryOut
from headroom.engine.workload import Rules
from headroom.reports.schemas import Better, Chart, Figure, ItemContent, Mark, Series, Unit
from headroom.simulations.result_models import Rates as RateColumns
from headroom.simulations.result_models import (
    RunDocument,
    RunSummary,
    SweepDocument,
    VmSteps,
    WindowSeries,
)
from headroom.simulations.scenario_json import ScenarioJson


def fig(key: str, label: str, value: Any, unit: Unit, better: Better | None = None) -> Figure:
    number = float(value) if isinstance(value, int | float) else None
    return Figure(key=key, label=label, value=number, unit=unit, better=better)


class SnapshotError(ValueError):
    """The result cannot become a report item (no such class, a sweep, ...)."""


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _p(percentile: float) -> str:
    return f"p{percentile:g}"


def _unset_slice(params: CapacityParamsIn) -> set[str]:
    """A capacity item lists the slice it analysed only when it had one."""
    return {"slice"} if params.slice is None else set()


def capacity(
    document: CapacityReportDoc, params: CapacityParamsIn, view: str | None
) -> ItemContent:
    classes = document.classes
    if not classes:
        raise SnapshotError("the analysis found no request class with enough windows")
    name = view if view is not None else next(iter(classes))
    if name not in classes:
        raise SnapshotError(f"no class {name!r} in the analysis (it has {', '.join(classes)})")
    cls, p = classes[name], _p(params.percentile)
    charts = [_knee_chart(cls, name, p)]
    if any(pt.throughput_per_s is not None for pt in cls.curve):
        charts.append(_throughput_chart(cls, name))
    return ItemContent(
        source_label="",
        params={**params.model_dump(mode="json", exclude=_unset_slice(params)), "class": name},
        figures=_capacity_figures(cls, document, p),
        charts=charts,
        notes=[*document.warnings, *cls.warnings],
    )


def _capacity_figures(cls: ClassReport, document: CapacityReportDoc, p: str) -> list[Figure]:
    knee, sla, power = cls.knee, cls.sla, document.capacity
    return [
        fig("knee_load", "Knee load", knee and knee.load_per_s, "req/s", "higher"),
        fig("knee_latency", f"{p} latency at the knee", knee and knee.latency_s, "s", "lower"),
        fig("breaking_point", "Breaking point", cls.breaking_point_per_s, "req/s", "higher"),
        fig("sla_threshold", f"SLA threshold ({p})", sla and sla.threshold_s, "s"),
        fig("max_rate", "MaxRate within the SLA", sla and sla.max_rate_per_s, "req/s", "higher"),
        fig("max_conn", "MaxConn within the SLA", sla and sla.max_conn, "count", "higher"),
        fig("peak_load", "Peak load observed", cls.peak_load_per_s, "req/s"),
        fig("servers_needed", "Servers needed at the peak", cls.servers_needed, "count", "lower"),
        fig(
            "power_peak",
            "Power-ratio capacity",
            power and power.power_peak_load_per_s,
            "req/s",
            "higher",
        ),
    ]


def _curve_series(curve: list[MeasuredPoint | ModelPoint], field: str, label: str) -> list[Series]:
    """Measured and model points as two series; the model line starts at the last
    measured point so that the two meet."""
    points = sorted(
        ((pt.load_per_s, getattr(pt, field), pt.source) for pt in curve),
        key=lambda pt: pt[0],
    )
    points = [pt for pt in points if isinstance(pt[1], int | float)]
    measured = [pt for pt in points if pt[2] != "model"]
    model = [pt for pt in points if pt[2] == "model"]
    out = [
        Series(
            key="measured",
            label=f"{label} measured",
            x=[pt[0] for pt in measured],
            y=[pt[1] for pt in measured],
        )
    ]
    if model:
        joined = measured[-1:] + model
        out.append(
            Series(
                key="model",
                label=f"{label} model",
                dashed=True,
                x=[pt[0] for pt in joined],
                y=[pt[1] for pt in joined],
            )
        )
    return out


def _knee_chart(cls: ClassReport, name: str, p: str) -> Chart:
    marks = []
    if cls.knee is not None:
        marks.append(Mark(label="Knee", x=cls.knee.load_per_s, y=cls.knee.latency_s))
    if cls.breaking_point_per_s is not None:
        marks.append(Mark(label="Breaking point", x=cls.breaking_point_per_s))
    sla = cls.sla
    if sla is not None and sla.max_rate_per_s > 0:
        marks.append(Mark(label="MaxRate", x=sla.max_rate_per_s, y=sla.threshold_s))
    return Chart(
        key="knee",
        title=f"{p} latency against load — {name}",
        kind="line",
        x_label="load",
        x_unit="req/s",
        y_label=f"{p} latency",
        y_unit="s",
        series=_curve_series(cls.curve, "latency_s", p),
        marks=_merged(marks),
    )


def _merged(marks: list[Mark]) -> list[Mark]:
    """Marks at one point become one ("Knee = MaxRate"), so their labels don't overprint."""
    out: list[Mark] = []
    for mark in marks:
        twin = next((m for m in out if (m.x, m.y) == (mark.x, mark.y)), None)
        if twin is None:
            out.append(mark)
        else:
            out[out.index(twin)] = twin.model_copy(update={"label": f"{twin.label} = {mark.label}"})
    return out


def _throughput_chart(cls: ClassReport, name: str) -> Chart:
    breaking = cls.breaking_point_per_s
    marks = [Mark(label="Breaking point", x=breaking)] if breaking is not None else []
    return Chart(
        key="throughput",
        title=f"Throughput against load — {name}",
        kind="line",
        x_label="load",
        x_unit="req/s",
        y_label="throughput",
        y_unit="req/s",
        series=_curve_series(cls.curve, "throughput_per_s", "throughput"),
        marks=marks,
    )


def simulation(document: RunDocument | SweepDocument, scenario: ScenarioJson) -> ItemContent:
    if isinstance(document, SweepDocument):
        raise SnapshotError("a sweep cannot be added yet: add one of its runs instead")
    summary, series = document.summary, document.series
    vms = {"allocated_vms": "allocated", "active_vms": "active"}
    rates = {"arrivals_per_s": "arrivals", "completions_per_s": "completions"}
    charts = [
        Chart(
            key="vms",
            title="VMs over simulated time",
            kind="step",
            y_label="VMs",
            y_unit="VMs",
            series=_columns(document.vm_steps, "t_s", vms),
            **SIM_TIME,
        ),
        Chart(
            key="traffic",
            title="Arrivals and completions",
            kind="line",
            y_label="rate",
            y_unit="req/s",
            series=_columns(document.rates, "t_s", rates),
            **SIM_TIME,
        ),
        Chart(
            key="window_p95",
            title="p95 latency per SLA window",
            kind="line",
            y_label="p95 latency",
            y_unit="s",
            **SIM_TIME,
            series=_columns(series, "window_t_s", {"window_p95_latency_s": "p95 latency"}),
        ),
        Chart(
            key="latency_cdf",
            title="Latency distribution (CDF)",
            kind="line",
            x_label="latency",
            x_unit="s",
            y_label="share of requests",
            y_unit="fraction",
            series=_cdf_series(document),
        ),
    ]
    return ItemContent(
        source_label="",
        params={"scenario": scenario, "seed": summary.seed},
        figures=_simulation_figures(summary),
        charts=[c for c in charts if c.series],
    )


class XAxis(TypedDict):  # Chart's x-axis keyword arguments, as ** passes them
    x_label: str
    x_unit: str


SIM_TIME: XAxis = {"x_label": "simulated time", "x_unit": "s"}


def _columns(
    table: VmSteps | RateColumns | WindowSeries, x_key: str, names: dict[str, str]
) -> list[Series]:
    """The named columns (fields) of a table of columns, against its column `x_key`."""
    x = getattr(table, x_key)
    return [Series(key=k, label=label, x=x, y=getattr(table, k)) for k, label in names.items()]


def _cdf_series(document: RunDocument) -> list[Series]:
    """The run's CDF, and each class's when there are several."""
    cdfs = [("all", "all requests", document.latency_cdf)]
    classes = document.classes
    if len(classes) > 1:
        cdfs += [(f"class_{i}", c.name, c.latency_cdf) for i, c in enumerate(classes)]
    return [
        Series(key=key, label=label, x=cdf.x_s, y=list(cdf.fraction))
        for key, label, cdf in cdfs
        if cdf
    ]


def _simulation_figures(summary: RunSummary) -> list[Figure]:
    latency, vms = summary.latency_s, summary.vms
    return [
        fig("requests", "Requests", summary.requests, "count"),
        *(
            fig(f"latency_{k}", f"Latency {k}", getattr(latency, k), "s", "lower")
            for k in ("mean", "median", "p95", "p99")
        ),
        fig("mean_vms", "Mean allocated VMs", vms.mean_allocated, "VMs", "lower"),
        fig("max_vms", "Most VMs allocated", vms.max_allocated, "VMs", "lower"),
        fig("vm_hours", "VM time", vms.vm_hours, "VM-hours", "lower"),
        fig("rejected", "Rejected requests", summary.rejected_fraction, "fraction", "lower"),
        fig(
            "sla_violations",
            "Windows violating the SLA",
            summary.sla_violation_fraction,
            "fraction",
            "lower",
        ),
    ]


HISTOGRAMS = {
    "service_time_s": ("Service time", "s"),
    "think_time_s": ("Think time", "s"),
    "requests_per_session": ("Requests per session", "count"),
    "objects_per_page": ("Objects per page", "count"),
    "html_bytes": ("HTML size", "bytes"),
    "object_bytes": ("Object size", "bytes"),
    "object_gap_s": ("Gap between objects", "s"),
}


def characterization(document: CharacterizationDoc, rules: Rules) -> ItemContent:
    histograms = document.histograms
    charts = [
        _histogram_chart(name, histograms[name])
        for name in HISTOGRAMS
        if name in histograms and len(histograms[name].counts) >= 2
    ]
    return ItemContent(
        source_label="",
        params={"rules": rules.model_dump(mode="json")},
        figures=_workload_figures(document),
        charts=charts,
    )


def _workload_figures(document: CharacterizationDoc) -> list[Figure]:
    arrivals, latency, sessions = document.arrivals, document.latency, document.sessions
    return [
        fig("requests", "Requests", document.requests, "count"),
        fig("mean_rate", "Mean arrival rate", arrivals.mean_per_min, "req/min"),
        fig("peak_rate", "Peak arrival rate", arrivals.peak_per_min, "req/min"),
        fig("peak_to_mean", "Peak to mean", arrivals.peak_to_mean, "ratio"),
        fig("sessions", "Sessions", sessions.count, "count"),
        fig(
            "pages_per_session",
            "Pages per session (mean)",
            sessions.pages_per_session_mean,
            "ratio",
        ),
        *(
            fig(
                f"latency_{k}", f"Latency {k}", latency and getattr(latency, f"{k}_s"), "s", "lower"
            )
            for k in ("p50", "p95", "p99")
        ),
    ]


def _percentiles(latency: LatencyPercentiles | None) -> list[tuple[str, float | None]]:
    if latency is None:
        return [("p50", None), ("p95", None), ("p99", None)]
    return [("p50", latency.p50_s), ("p95", latency.p95_s), ("p99", latency.p99_s)]


def _histogram_chart(name: str, histogram: FittedHistogram) -> Chart:
    """Counts per bin as bars at the bin centres, and the fitted distribution as the count
    it predicts per bin (pdf x n x bin width), so both read on one axis."""
    label, unit = HISTOGRAMS[name]
    edges, counts = histogram.edges, histogram.counts
    centres = [(lo + hi) / 2 for lo, hi in itertools.pairwise(edges)]
    series = [Series(key="observed", label="observed", x=centres, y=counts)]
    pdf, total = histogram.fitted_pdf, sum(counts)
    if pdf:
        widths = [hi - lo for lo, hi in itertools.pairwise(edges)]
        expected = [
            f * total * w if f is not None else None for f, w in zip(pdf, widths, strict=True)
        ]
        fitted = f"fitted {histogram.fitted_dist or 'distribution'}"
        series.append(Series(key="fitted", label=fitted, x=centres, y=expected, dashed=True))
    return Chart(
        key=f"hist_{name}",
        title=f"{label} distribution",
        kind="bar",
        x_label=label.lower(),
        x_unit=unit,
        y_label="count",
        y_unit="count",
        series=series,
    )


def traffic(summary: TrafficSummaryOut) -> ItemContent:
    latency, points = summary.latency, summary.series
    times = [pt.t.timestamp() for pt in points]
    per_bucket = f"per {summary.bucket_s} s"
    return ItemContent(
        source_label="",
        params={"format": summary.format, "bucket_s": summary.bucket_s},
        figures=[
            fig("requests", "Requests", summary.request_count, "count"),
            fig("mean_rate", "Mean rate", summary.mean_rate_per_s, "req/s"),
            fig("peak_rate", "Peak rate", summary.peak_rate_per_min, "req/min"),
            fig("error_rate", "Server errors (5xx)", summary.error_rate, "fraction", "lower"),
            fig(
                "client_error_rate",
                "Client errors (4xx)",
                summary.client_error_rate,
                "fraction",
                "lower",
            ),
            *(
                fig(f"latency_{k}", f"Latency {k}", value, "s", "lower")
                for k, value in (
                    [("p50", None), ("p95", None), ("p99", None)]
                    if latency is None
                    else [("p50", latency.p50_s), ("p95", latency.p95_s), ("p99", latency.p99_s)]
                )
            ),
        ],
        charts=[
            Chart(
                key="rate",
                title="Request rate",
                kind="line",
                x_label="time",
                x_unit="time",
                y_label="rate",
                y_unit="req/min",
                series=[
                    Series(
                        key="rate",
                        label="requests",
                        x=times,
                        y=[pt.rate_per_min for pt in points],
                    )
                ],
            ),
            *_status_chart(summary, times, per_bucket),
        ],
    )


def _status_chart(summary: TrafficSummaryOut, times: list[float], per_bucket: str) -> list[Chart]:
    """None when the log has no status codes (its series would be all zeros)."""
    if summary.status_counts is None:
        return []
    points = summary.series
    return [
        Chart(
            key="status",
            title=f"Responses by status class ({per_bucket})",
            kind="line",
            x_label="time",
            x_unit="time",
            y_label="responses",
            y_unit="count",
            series=[
                Series(key=k, label=k[1:], x=times, y=[getattr(pt, k) for pt in points])
                for k in ("s2xx", "s3xx", "s4xx", "s5xx")
            ],
        )
    ]
