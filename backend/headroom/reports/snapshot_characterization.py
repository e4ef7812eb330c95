"""Report items of a characterization, one per dataset tab: the workload (figures and fitted
histograms), the traffic (arrivals over time) or the latency (percentiles over time)."""

from headroom.characterizations.documents import (
    ArrivalView,
    CharacterizationDoc,
    Display,
    PercentileColumns,
)
from headroom.engine.workload import Rules
from headroom.reports.schemas import Chart, ItemContent, Series
from headroom.reports.snapshots import SnapshotError, characterization, fig

VIEWS = ("workload", "traffic", "latency")
PERCENTILES = ("p50", "p90", "p95", "p99")


def characterization_view(
    document: CharacterizationDoc, rules: Rules, view: str | None
) -> ItemContent:
    """The tab's figures and charts; the workload when no view is named."""
    if view in (None, "workload"):
        return characterization(document, rules)
    if view == "traffic":
        return _traffic(document)
    if view == "latency":
        return _latency(document)
    raise SnapshotError(f"no view {view!r} of a characterization: pick one of {', '.join(VIEWS)}")


def _traffic(document: CharacterizationDoc) -> ItemContent:
    arrivals = _default_arrivals(document)
    seconds = [t / 1000 for t in arrivals.t_ms]
    stats = document.arrivals
    return ItemContent(
        source_label="",
        params={"view": "traffic", "every_s": arrivals.every_s},
        figures=[
            fig("requests", "Requests", document.requests, "count"),
            fig("mean_rate", "Mean arrival rate", stats.mean_per_min, "req/min"),
            fig("peak_rate", "Peak arrival rate", stats.peak_per_min, "req/min"),
            fig("peak_to_mean", "Peak to mean", stats.peak_to_mean, "ratio"),
        ],
        charts=[
            Chart(
                key="arrivals",
                title=f"Requests per {arrivals.every_s} s",
                kind="line",
                x_label="time",
                x_unit="time",
                y_label=f"requests per {arrivals.every_s} s",
                y_unit="count",
                series=[Series(key="requests", label="requests", x=seconds, y=arrivals.count)],
            )
        ],
    )


def _display(document: CharacterizationDoc) -> Display:
    if document.display is None or not document.display.arrivals:
        raise SnapshotError("this characterization predates its chart data: run it again")
    return document.display


def _default_arrivals(document: CharacterizationDoc) -> ArrivalView:
    display = _display(document)
    every = str(display.default_every_s)
    return display.arrivals.get(every) or next(iter(display.arrivals.values()))


def _latency(document: CharacterizationDoc) -> ItemContent:
    latency = _display(document).latency
    if latency is None or document.latency is None:
        raise SnapshotError("this log records no response times: it has no latency to add")
    overall, stats = latency.overall, document.latency
    return ItemContent(
        source_label="",
        params={"view": "latency", "every_s": latency.every_s},
        figures=[
            fig(f"latency_{k}", f"Latency {k}", getattr(stats, f"{k}_s", None), "s", "lower")
            for k in PERCENTILES
        ],
        charts=[_percentile_chart(overall, latency.every_s)],
    )


def _percentile_chart(columns: PercentileColumns, every_s: int) -> Chart:
    seconds = [t / 1000 for t in columns.t_ms]
    return Chart(
        key="latency",
        title=f"Latency percentiles per {every_s} s",
        kind="line",
        x_label="time",
        x_unit="time",
        y_label="latency",
        y_unit="s",
        series=[
            Series(key=k, label=k, x=seconds, y=list(getattr(columns, f"{k}_s")))
            for k in PERCENTILES
        ],
    )
