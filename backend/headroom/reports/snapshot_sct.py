"""An SCT analysis (concurrency of a latency trace) as a report item: the pool size figures
and the app's two scatters (throughput and response time against concurrency) with the
rational range [Q_lower, Q_upper] shaded."""

from headroom.analyses.documents import SctReportDoc, SctServer, UslFit
from headroom.analyses.schemas import SctParamsIn
from headroom.reports.schemas import Chart, Figure, ItemContent, Mark, Range, Series
from headroom.reports.snapshots import SnapshotError, XAxis, fig

X_AXIS: XAxis = {
    "x_label": "concurrency (requests in the server)",
    "x_unit": "count",
}


def _given(params: SctParamsIn) -> dict[str, object]:
    """The parameters as the user gave them: the service and the slice only when set."""
    unset = {name for name in ("service", "slice") if getattr(params, name) is None}
    return params.model_dump(mode="json", exclude={"kind", *unset})


def sct(document: SctReportDoc, params: SctParamsIn, view: str | None) -> ItemContent:
    servers = document.servers
    if not servers:
        raise SnapshotError("the SCT analysis found no server with enough intervals")
    name = view if view is not None else next(iter(servers))
    if name not in servers:
        known = ", ".join(servers)
        raise SnapshotError(f"no server {name!r} in the SCT analysis (it has {known})")
    server = servers[name]
    return ItemContent(
        source_label="",
        params={**_given(params), "server": name},
        figures=_figures(server),
        charts=[_throughput_chart(name, server), _response_chart(name, server)],
        notes=list(server.warnings),
    )


def _figures(server: SctServer) -> list[Figure]:
    usl = server.usl
    return [
        fig("q_lower", "Best pool size (Q_lower)", server.q_lower, "count"),
        fig("q_upper", "Largest pool keeping the peak (Q_upper)", server.q_upper, "count"),
        fig("q_max", "Highest concurrency observed", server.q_max_observed, "count"),
        fig("tp_max", "Peak throughput", server.tp_max_per_s, "req/s", "higher"),
        fig("usl_sigma", "USL contention (sigma)", usl and usl.sigma, "ratio", "lower"),
        fig("usl_kappa", "USL coherency (kappa)", usl and usl.kappa, "ratio", "lower"),
        fig("usl_n_star", "USL peak concurrency (N*)", usl and usl.n_star, "count"),
    ]


def usl_throughput(usl: UslFit, lambda_per_s: float, n: float) -> float:
    """X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)) (docs/methods/concurrency.md)."""
    sigma, kappa = usl.sigma or 0.0, usl.kappa or 0.0
    return float(lambda_per_s * n / (1 + sigma * (n - 1) + kappa * n * (n - 1)))


def rational_range(server: SctServer) -> list[Range]:
    """[Q_lower, Q_upper], to the highest level observed when no decline was seen."""
    lower, upper = server.q_lower, server.q_upper
    if lower is None:
        return []
    label = "rational range" if upper is not None else "rational range (no decline seen)"
    top = upper if upper is not None else (server.q_max_observed or lower)
    return [Range(label=label, x1=lower, x2=top)]


def _throughput_series(server: SctServer) -> list[Series]:
    levels, trend, usl = server.levels, server.trend, server.usl
    n = [float(level.n) for level in levels]
    series = [
        Series(
            key="tp",
            label="measured mean",
            x=n,
            y=[level.throughput_per_s for level in levels],
            points=True,
        )
    ]
    if trend:
        x, y = [k.n for k in trend], [k.throughput_per_s for k in trend]
        series.append(Series(key="trend", label="three-stage fit", x=x, y=y))
    if usl is not None and usl.lambda_per_s is not None:
        y = [usl_throughput(usl, usl.lambda_per_s, v) for v in n]
        series.append(Series(key="usl", label="USL model", x=n, y=y, dashed=True))
    return series


def _throughput_marks(server: SctServer) -> list[Mark]:
    lower, upper = server.q_lower, server.q_upper
    marks = [] if lower is None else [Mark(label=f"Q_lower {lower}: pool size", x=lower)]
    if upper is not None:
        marks.append(Mark(label=f"Q_upper {upper}", x=upper))
    usl = server.usl
    n_star = None if usl is None else usl.n_star
    fitted = usl is not None and usl.lambda_per_s is not None
    if fitted and n_star is not None and n_star <= (server.q_max_observed or 0):
        marks.append(Mark(label=f"USL N* {n_star:.1f}", x=n_star))
    return marks


def _throughput_chart(name: str, server: SctServer) -> Chart:
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


def _response_chart(name: str, server: SctServer) -> Chart:
    levels, lower = server.levels, server.q_lower
    response = Series(
        key="rt",
        label="measured mean",
        x=[float(level.n) for level in levels],
        y=[level.response_s for level in levels],
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
