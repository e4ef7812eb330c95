"""A real Prometheus server for tests: its TSDB backfilled by `promtool tsdb
create-blocks-from openmetrics` from series with known truth, started on a free port with
no scrape targets."""

from __future__ import annotations

import contextlib
import math
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

from support.services import die_with_parent, free_port

SCRAPE_S = 15
START_S = 1_767_225_600  # 2026-01-01T00:00:00Z
HOURS = 3
RATES_PER_S = {("/a", "200"): 10.0, ("/b", "200"): 4.0, ("/b", "500"): 1.0}
RESET_AFTER_S = 3600  # /a restarts right after the scrape this long after the start
GAP_AFTER_S = (7200, 7200 + 1200)  # /b is down (no traffic, no scrapes) in this span
RESET_AT_S = START_S + RESET_AFTER_S
GAP_S = (START_S + GAP_AFTER_S[0], START_S + GAP_AFTER_S[1])
MEAN_LATENCY_S = 0.1  # exponential latencies: the true p95 is 0.1 * ln 20
BOUNDS_S = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 1.0)


@dataclass(frozen=True)
class Truth:
    start_s: int
    end_s: int
    requests_by_route: dict[str, float]
    errors_total: float

    @property
    def requests_total(self) -> float:
        return sum(self.requests_by_route.values())

    @property
    def p95_s(self) -> float:
        return MEAN_LATENCY_S * math.log(20)


def _served_s(route: str, t: int) -> float:
    """Seconds route has been serving since its counter last started, at t (from start)."""
    if route == "/a":
        return t - (RESET_AFTER_S if t > RESET_AFTER_S else 0)
    return t - max(0, min(t, GAP_AFTER_S[1]) - GAP_AFTER_S[0])


def _up(route: str, t: int) -> bool:
    return route == "/a" or not GAP_AFTER_S[0] < t < GAP_AFTER_S[1]


def openmetrics(start_s: int = START_S) -> tuple[str, Truth]:
    """Series from ``start_s`` (a multiple of 60 s) for HOURS hours."""
    span = HOURS * 3600
    end = start_s + span
    times = range(0, span + 1, SCRAPE_S)
    lines = ["# TYPE http_requests counter"]
    for (route, code), rate in RATES_PER_S.items():
        for t in times:
            if _up(route, t):
                value = rate * _served_s(route, t)
                lines.append(
                    f'http_requests_total{{route="{route}",code="{code}"}} {value} {start_s + t}'
                )
    lines.append("# TYPE http_request_duration_seconds histogram")
    for route in ("/a", "/b"):
        rate = sum(r for (name, _), r in RATES_PER_S.items() if name == route)
        for bound in (*BOUNDS_S, math.inf):
            share = 1 - math.exp(-bound / MEAN_LATENCY_S)
            le = "+Inf" if math.isinf(bound) else repr(bound)
            for t in times:
                if _up(route, t):
                    value = rate * _served_s(route, t) * share
                    lines.append(
                        f'http_request_duration_seconds_bucket{{route="{route}",le="{le}"}}'
                        f" {value} {start_s + t}"
                    )
    lines.append("# EOF")
    served = {"/a": span, "/b": span - (GAP_AFTER_S[1] - GAP_AFTER_S[0])}
    by_route = {
        route: sum(r for (name, _), r in RATES_PER_S.items() if name == route) * s
        for route, s in served.items()
    }
    errors = RATES_PER_S[("/b", "500")] * served["/b"]
    return "\n".join(lines) + "\n", Truth(start_s, end, by_route, errors)


MU_PER_S = 100.0  # the rising series: an M/M/1 server, p95 = ln 20 / (MU - load)
RISING_LOADS_PER_S = tuple(10.0 + 82.0 * k / 19 for k in range(20))
RISING_MINUTES = 6  # minutes at each load, the loads ascending
RISING_BOUNDS_S = (*(round(0.005 * i, 3) for i in range(1, 201)),)


def rising_p95_s(load_per_s: float) -> float:
    return math.log(20) / (MU_PER_S - load_per_s)


def rising_openmetrics(start_s: int) -> tuple[str, Truth]:
    """An M/M/1 server whose load steps up every RISING_MINUTES minutes through
    RISING_LOADS_PER_S: in minute m the latency is exponential with rate MU - load, so its
    p95 rises past ln 20 / T at the load MU - ln 20 / T. Scraped every 15 s."""
    loads = [x for x in RISING_LOADS_PER_S for _ in range(RISING_MINUTES)]
    span = 60 * len(loads)
    bounds = (*RISING_BOUNDS_S, math.inf)
    counts = [0.0] * (len(loads) * 4 + 1)
    buckets = [[0.0] * len(bounds) for _ in counts]
    for i in range(1, len(counts)):
        load = loads[(i - 1) // 4]
        counts[i] = counts[i - 1] + load * SCRAPE_S
        for j, bound in enumerate(bounds):
            share = 1.0 - math.exp(-(MU_PER_S - load) * bound)
            buckets[i][j] = buckets[i - 1][j] + load * SCRAPE_S * share
    lines = ["# TYPE http_requests counter"]
    lines += [
        f'http_requests_total{{code="200"}} {c} {start_s + SCRAPE_S * i}'
        for i, c in enumerate(counts)
    ]
    lines.append("# TYPE http_request_duration_seconds histogram")
    for j, bound in enumerate(bounds):
        le = "+Inf" if math.isinf(bound) else repr(bound)
        lines += [
            f'http_request_duration_seconds_bucket{{le="{le}"}} {row[j]} {start_s + SCRAPE_S * i}'
            for i, row in enumerate(buckets)
        ]
    lines.append("# EOF")
    return "\n".join(lines) + "\n", Truth(start_s, start_s + span, {"": counts[-1]}, 0.0)


@contextlib.contextmanager
def prometheus_server(
    start_s: int = START_S,
    port: int | None = None,
    series: Callable[[int], tuple[str, Truth]] | None = None,
) -> Iterator[tuple[str, Truth]]:
    binary, promtool = shutil.which("prometheus"), shutil.which("promtool")
    if binary is None or promtool is None:
        raise RuntimeError("prometheus and promtool are not installed (make system-deps)")
    root = Path(tempfile.mkdtemp(prefix="headroom-prometheus-"))
    text, truth = (series or openmetrics)(start_s)
    (root / "series.om").write_text(text)
    subprocess.run(
        [
            promtool,
            "tsdb",
            "create-blocks-from",
            "openmetrics",
            str(root / "series.om"),
            str(root / "data"),
        ],
        check=True,
        capture_output=True,
    )
    (root / "prometheus.yml").write_text("global:\n  scrape_interval: 1h\nscrape_configs: []\n")
    port = port or free_port()
    process = subprocess.Popen(
        [
            binary,
            f"--config.file={root / 'prometheus.yml'}",
            f"--storage.tsdb.path={root / 'data'}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--storage.tsdb.retention.time=100y",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=die_with_parent,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, process)
        yield url, truth
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(root, ignore_errors=True)


def _wait_ready(url: str, process: subprocess.Popen[bytes], timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"prometheus exited with {process.returncode} before ready")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/-/ready", timeout=1).status_code == 200:
                return
        time.sleep(0.2)
    raise TimeoutError(f"prometheus at {url} not ready after {timeout_s} s")
