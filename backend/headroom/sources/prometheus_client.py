"""Reads a Prometheus server's `query_range` API page by page (docs/sources.md): each page
asks for at most PAGE_POINTS grid points (Prometheus refuses more than 11,000), pages
overlap by one point so no interval is lost between them, and each page is reduced to
per-interval rows before the next is asked for."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict, cast

import httpx
import numpy as np

from headroom.engine.prometheus import (
    Grid,
    IntervalSeries,
    NativeHistogram,
    NativeSeries,
    Series,
    Split,
    classic_buckets,
    concat,
    interval_series,
)


class SampleJson(TypedDict, total=False):  # an element of data.result
    metric: dict[str, str]
    values: list[list[float | str]]  # a range query's [unix seconds, "value"] pairs
    value: list[float | str]  # an instant query's pair
    histograms: list[list[object]]  # a native histogram's [unix seconds, histogram] pairs


class DataJson(TypedDict, total=False):  # the data of a query or of status/buildinfo
    resultType: str
    result: list[SampleJson]
    version: str


class ResponseJson(TypedDict, total=False):  # the HTTP API's envelope
    status: str
    data: DataJson
    errorType: str
    error: str


PAGE_POINTS = 10_000  # under Prometheus' 11,000 points per series and query
TIMEOUT_S = 60.0


class PrometheusError(Exception):
    """The server could not be reached, refused the query, or the selector matched
    nothing; the message says which, in words for the person who configured it."""


@dataclass(frozen=True)
class Auth:
    bearer_token: str | None = None
    username: str | None = None
    password: str | None = None


@dataclass(frozen=True)
class Query:
    """What to read: the request counter and the latency histogram, over ``[start, end]``
    at ``step_s``: a classic histogram's `_bucket` series or a native histogram (the
    server's answer tells which; raw counters either way: the increases are computed
    here)."""

    requests: str
    latency_histogram: str | None
    start: datetime
    end: datetime
    step_s: float = 60.0
    split: Split = field(default_factory=Split)

    def grid(self) -> Grid:
        start_s, end_s = self.start.timestamp(), self.end.timestamp()
        if end_s <= start_s:
            raise PrometheusError("the range is empty: --end must be after --start")
        if self.step_s <= 0:
            raise PrometheusError("the step must be positive")
        return Grid(start_s, self.step_s, math.floor((end_s - start_s) / self.step_s) + 1)


def pages(grid: Grid, points: int = PAGE_POINTS) -> Iterator[Grid]:
    """Sub-grids of at most `points` points, each starting on the previous one's last."""
    first = 0
    while True:
        count = min(points, grid.points - first)
        yield Grid(grid.start_s + first * grid.step_s, grid.step_s, count)
        if first + count >= grid.points:
            return
        first += count - 1


def client(
    base_url: str, auth: Auth = Auth(), transport: httpx.BaseTransport | None = None
) -> httpx.Client:
    headers = {"Authorization": f"Bearer {auth.bearer_token}"} if auth.bearer_token else {}
    basic = (auth.username, auth.password or "") if auth.username else None
    return httpx.Client(
        base_url=base_url.rstrip("/"),
        headers=headers,
        auth=basic,
        timeout=TIMEOUT_S,
        transport=transport,
    )


def read(
    http: httpx.Client,
    query: Query,
    progress: Callable[[float], None] = lambda _: None,
    page_points: int = PAGE_POINTS,
) -> IntervalSeries:
    """Every page of the range, reduced and joined; raises before returning anything when
    a page fails or a selector matches no series in the whole range."""
    grid = query.grid()
    parts, seen_requests, seen_buckets = [], False, False
    all_pages = list(pages(grid, page_points))
    for number, page in enumerate(all_pages):
        requests = range_query(http, query.requests, page)
        buckets = (
            range_query(http, query.latency_histogram, page) if query.latency_histogram else []
        )
        seen_requests, seen_buckets = seen_requests or bool(requests), seen_buckets or bool(buckets)
        parts.append(interval_series(requests, buckets, page, query.split))
        progress((number + 1) / len(all_pages))
    if not seen_requests:
        raise PrometheusError(f"the selector {query.requests!r} matched no series in the range")
    if query.latency_histogram and not seen_buckets:
        raise PrometheusError(
            f"the selector {query.latency_histogram!r} matched no series in the range"
        )
    return concat(parts)


def range_query(http: httpx.Client, selector: str, page: Grid) -> list[Series]:
    params = {
        "query": selector,
        "start": _number(page.start_s),
        "end": _number(page.start_s + (page.points - 1) * page.step_s),
        "step": _number(page.step_s),
    }
    data = _get(http, "/api/v1/query_range", params)
    if data.get("resultType") != "matrix":
        raise PrometheusError(
            f"the selector {selector!r} gave a {data.get('resultType')}, not a range of series"
        )
    items = data.get("result") or []
    floats = [_series(item) for item in items if "values" in item]
    natives = [_native(item) for item in items if "histograms" in item]
    return floats + classic_buckets(natives)


def check(http: httpx.Client) -> str:
    """The server's version, proving it answers with these credentials."""
    data = _get(http, "/api/v1/status/buildinfo", {})
    return str(data.get("version", "unknown"))


def _get(http: httpx.Client, path: str, params: dict[str, str]) -> DataJson:
    where = f"{http.base_url}"
    try:
        response = http.get(path, params=params)
    except httpx.TimeoutException as error:
        raise PrometheusError(f"Prometheus at {where} did not answer in time ({error})") from error
    except httpx.TransportError as error:
        raise PrometheusError(f"cannot reach Prometheus at {where}: {error}") from error
    if response.status_code in (401, 403):
        raise PrometheusError(
            f"Prometheus at {where} refused the credentials (HTTP {response.status_code})"
        )
    body = _json(response)
    if response.status_code >= 400 or body.get("status") != "success":
        kind = body.get("errorType") or "error"
        message = body.get("error") or response.text[:200]
        meaning = {
            400: "the query is not valid PromQL",
            422: "the query could not be executed",
            503: "the server is unavailable or the query timed out or was cancelled",
        }.get(response.status_code, "the server refused the query")
        raise PrometheusError(
            f"Prometheus at {where} answered HTTP {response.status_code} ({kind}): "
            f"{meaning}: {message}"
        )
    return body.get("data") or {}


def _json(response: httpx.Response) -> ResponseJson:
    try:
        body = response.json()
    except ValueError:
        return {}
    return cast(ResponseJson, body) if isinstance(body, dict) else {}  # as documented


def _series(item: SampleJson) -> Series:
    values = np.array(item.get("values") or [], dtype=np.float64).reshape(-1, 2)
    return Series(dict(item.get("metric") or {}), values[:, 0], values[:, 1])


def _native(item: SampleJson) -> NativeSeries:
    """A native histogram series: each sample's count and its buckets (the API's
    ``[boundary rule, lower, upper, count]``, the bounds as strings)."""
    times, histograms = [], []
    for point in item.get("histograms") or []:
        t_s, body = point[0], point[1]
        found = cast(dict[str, object], body) if isinstance(body, dict) else {}
        buckets = cast(list[list[object]], found.get("buckets") or [])
        times.append(float(cast(float, t_s)))
        histograms.append(
            NativeHistogram(
                float(cast(str, found.get("count", "0"))),
                tuple(
                    (float(cast(str, b[1])), float(cast(str, b[2])), float(cast(str, b[3])))
                    for b in buckets
                ),
            )
        )
    return NativeSeries(dict(item.get("metric") or {}), tuple(times), tuple(histograms))


def _number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def instant_count(http: httpx.Client, selector: str, window_s: float) -> int:
    """How many series the selector matches within the last `window_s` seconds."""
    query = f"count(last_over_time({selector}[{int(window_s)}s]))"
    data = _get(http, "/api/v1/query", {"query": query})
    result = data.get("result") or []
    return int(float(result[0]["value"][1])) if result else 0
