"""An SCT analysis (concurrency of a latency trace) as a report item: the pool size figures
and the app's two scatters (throughput and response time against concurrency) with the
rational range [Q_lower, Q_upper] shaded."""

from typing import Any

from headroom.reports.schemas import Chart, Figure, ItemContent, Mark, Range, Series
from headroom.reports.snapshots import SnapshotError, fig

X_AXIS: dict[str, Any] = {"x_label": "concurrency (requests in the server)", "x_unit": "count"}


def sct(document: dict[str, Any], params: dict[str, Any], view: str | None) -> ItemContent:
    servers: dict[str, Any] = document.get("servers") or {}
    if not servers:
        raise SnapshotError("the SCT analysis found no server with enough intervals")
    name = view if view is not None else next(iter(servers))
    if name not in servers:
        known = ", ".join(servers)
        raise SnapshotError(f"no server {name!r} in the SCT analysis (it has {known})")
    server = servers[name]
    return ItemContent(
        source_label="",
        params={**params, "server": name},
        figures=_figures(server),
        charts=[_throughput_chart(name, server), _response_chart(name, server)],
        notes=list(server.get("warnings") or []),
    )


def _figures(server: dict[str, Any]) -> list[Figure]:
    usl = server.get("usl") or {}
    return [
        fig("q_lower", "Best pool size (Q_lower)", server.get("q_lower"), "count"),
        fig("q_upper", "Largest pool keeping the peak (Q_upper)", server.get("q_upper"), "count"),
        fig("q_max", "Highest concurrency observed", server.get("q_max_observed"), "count"),
        fig("tp_max", "Peak throughput", server.get("tp_max_per_s"), "req/s", "higher"),
        fig("usl_sigma", "USL contention (sigma)", usl.get("sigma"), "ratio", "lower"),
        fig("usl_kappa", "USL coherency (kappa)", usl.get("kappa"), "ratio", "lower"),
        fig("usl_n_star", "USL peak concurrency (N*)", usl.get("n_star"), "count"),
    ]


def usl_throughput(usl: dict[str, Any], n: float) -> float:
    """X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)) (docs/methods/concurrency.md)."""
    sigma, kappa = usl["sigma"], usl["kappa"]
    return float(usl["lambda_per_s"] * n / (1 + sigma * (n - 1) + kappa * n * (n - 1)))


def rational_range(server: dict[str, Any]) -> list[Range]:
    """[Q_lower, Q_upper], to the highest level observed when no decline was seen."""
    lower, upper = server.get("q_lower"), server.get("q_upper")
    if lower is None:
        return []
    label = "rational range" if upper is not None else "rational range (no decline seen)"
    top = upper if upper is not None else (server.get("q_max_observed") or lower)
    return [Range(label=label, x1=lower, x2=top)]


def _throughput_series(server: dict[str, Any]) -> list[Series]:
    levels, trend, usl = server["levels"], server.get("trend") or [], server.get("usl")
    n = [float(level["n"]) for level in levels]
    series = [
        Series(
            key="tp",
            label="measured mean",
            x=n,
            y=[level["throughput_per_s"] for level in levels],
            points=True,
        )
    ]
    if trend:
        x, y = [k["n"] for k in trend], [k["throughput_per_s"] for k in trend]
        series.append(Series(key="trend", label="three-stage fit", x=x, y=y))
    if usl and usl.get("lambda_per_s") is not None:
        y = [usl_throughput(usl, v) for v in n]
        series.append(Series(key="usl", label="USL model", x=n, y=y, dashed=True))
    return series


def _throughput_marks(server: dict[str, Any]) -> list[Mark]:
    lower, upper = server.get("q_lower"), server.get("q_upper")
    marks = [] if lower is None else [Mark(label=f"Q_lower {lower}: pool size", x=lower)]
    if upper is not None:
        marks.append(Mark(label=f"Q_upper {upper}", x=upper))
    usl = server.get("usl") or {}
    n_star = usl.get("n_star")
    fitted = usl.get("lambda_per_s") is not None
    if fitted and n_star is not None and n_star <= (server.get("q_max_observed") or 0):
        marks.append(Mark(label=f"USL N* {n_star:.1f}", x=n_star))
    return marks


def _throughput_chart(name: str, server: dict[str, Any]) -> Chart:
    return Chart(
        key="sct_throughput",
        title=f"Throughput against concurrency — {name}",
        kind="line",
        y_label="throughput",
        y_unit="req/s",
        series=_throughput_series(server),
        marks=_throughput_marks(server),
        ranges=rational_range(server),
        **X_AXIS,
    )


def _response_chart(name: str, server: dict[str, Any]) -> Chart:
    levels, lower = server["levels"], server.get("q_lower")
    response = Series(
        key="rt",
        label="measured mean",
        x=[float(level["n"]) for level in levels],
        y=[level.get("response_s") for level in levels],
        points=True,
    )
    return Chart(
        key="sct_response",
        title=f"Response time against concurrency — {name}",
        kind="line",
        y_label="mean response time",
        y_unit="s",
        series=[response],
        marks=[] if lower is None else [Mark(label=f"Q_lower {lower}", x=lower)],
        ranges=rational_range(server),
        **X_AXIS,
    )
