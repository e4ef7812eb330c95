"""A real Prometheus server holding native histograms, fed through its remote-write
receiver: the `WriteRequest` protobuf (prompb/types.proto) is encoded by hand here, and
framed as a snappy block of literals only (a valid snappy stream that is simply not
compressed), so no compression library is needed."""

from __future__ import annotations

import contextlib
import math
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

from support.prometheus import _wait_ready
from support.services import die_with_parent, free_port

START_S = 1_767_225_600  # 2026-01-01T00:00:00Z
SPAN_S = 2 * 3600
SCRAPE_S = 15
RATES_PER_S = {"/a": 10.0, "/b": 5.0}
MEAN_LATENCY_S = 0.1  # exponential latencies
SCHEMA = 3  # bucket i is (2^((i-1)/8), 2^(i/8)]
INDEXES = range(-60, 25)  # 2^(-7.5) s .. 2^3 s: beyond it the share rounds to nothing


# protobuf wire format ------------------------------------------------------------------


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _zigzag(value: int) -> int:
    return (value << 1) ^ (value >> 63)


def _key(field: int, wire: int) -> bytes:
    return _varint(field << 3 | wire)


def _uint(field: int, value: int) -> bytes:
    return _key(field, 0) + _varint(value)


def _sint(field: int, value: int) -> bytes:
    return _key(field, 0) + _varint(_zigzag(value))


def _double(field: int, value: float) -> bytes:
    return _key(field, 1) + struct.pack("<d", value)


def _bytes(field: int, value: bytes) -> bytes:
    return _key(field, 2) + _varint(len(value)) + value


def _packed_sint(field: int, values: Sequence[int]) -> bytes:
    return _bytes(field, b"".join(_varint(_zigzag(v)) for v in values))


def snappy_block(data: bytes) -> bytes:
    """The snappy block format with literal elements only: the uncompressed length, then
    literals of at most 65,536 bytes (tag 61: a two-byte length follows)."""
    out = bytearray(_varint(len(data)))
    for first in range(0, len(data), 65536):
        chunk = data[first : first + 65536]
        size = len(chunk) - 1
        if size < 60:
            out.append(size << 2)
        elif size < 256:
            out += bytes([60 << 2, size])
        else:
            out += bytes([61 << 2]) + size.to_bytes(2, "little")
        out += chunk
    return bytes(out)


@dataclass(frozen=True)
class NativeSample:
    """An integer native histogram: positive buckets by index (one span from `first`)."""

    t_ms: int
    first: int
    counts: tuple[int, ...]
    sum_s: float
    zero_count: int = 0

    @property
    def count(self) -> int:
        return sum(self.counts) + self.zero_count

    def encode(self) -> bytes:
        deltas, previous = [], 0
        for value in self.counts:
            deltas.append(value - previous)
            previous = value
        span = _sint(1, self.first) + _uint(2, len(self.counts))
        return (
            _uint(1, self.count)
            + _double(3, self.sum_s)
            + _sint(4, SCHEMA)
            + _double(5, 2.0**-128)
            + _uint(6, self.zero_count)
            + _bytes(11, span)
            + _packed_sint(12, deltas)
            + _key(15, 0)
            + _varint(self.t_ms)
        )


def _labels(labels: dict[str, str]) -> bytes:
    return b"".join(
        _bytes(1, _bytes(1, name.encode()) + _bytes(2, value.encode()))
        for name, value in sorted(labels.items())
    )


def float_series(labels: dict[str, str], points: Sequence[tuple[int, float]]) -> bytes:
    samples = b"".join(_bytes(2, _double(1, v) + _key(2, 0) + _varint(t)) for t, v in points)
    return _labels(labels) + samples


def histogram_series(labels: dict[str, str], points: Sequence[NativeSample]) -> bytes:
    return _labels(labels) + b"".join(_bytes(4, p.encode()) for p in points)


def write_request(series: Sequence[bytes]) -> bytes:
    return snappy_block(b"".join(_bytes(1, one) for one in series))


# the data ------------------------------------------------------------------------------


def upper_bound(index: int) -> float:
    """Prometheus' exponential schema: bucket `index` ends at 2^(index * 2^-schema)."""
    return 2.0 ** (index * 2.0**-SCHEMA)


def shares() -> list[float]:
    """Each bucket's share of an exponential latency distribution."""
    cdf = [1 - math.exp(-upper_bound(i) / MEAN_LATENCY_S) for i in INDEXES]
    below = [1 - math.exp(-upper_bound(INDEXES[0] - 1) / MEAN_LATENCY_S), *cdf[:-1]]
    return [a - b for a, b in zip(cdf, below, strict=True)]


def native_sample(rate: float, t: int) -> NativeSample:
    """The cumulative histogram after `t` seconds at `rate` requests per second: each
    bucket rounded down from its cumulative share, so every bucket only grows."""
    counts = tuple(math.floor(rate * t * share) for share in shares())
    return NativeSample((START_S + t) * 1000, INDEXES[0], counts, rate * t * MEAN_LATENCY_S)


@dataclass(frozen=True)
class NativeTruth:
    start_s: int
    end_s: int
    requests_by_route: dict[str, float]
    final: dict[str, NativeSample]  # each route's last histogram

    @property
    def requests_total(self) -> float:
        return sum(self.requests_by_route.values())


def _write(url: str) -> NativeTruth:
    times = list(range(0, SPAN_S + 1, SCRAPE_S))
    with httpx.Client(base_url=url, timeout=30) as http:
        for first in range(0, len(times), 40):  # in time order: the head refuses old samples
            batch = times[first : first + 40]
            series = []
            for route, rate in RATES_PER_S.items():
                series.append(
                    float_series(
                        {"__name__": "http_requests_total", "route": route, "code": "200"},
                        [((START_S + t) * 1000, rate * t) for t in batch],
                    )
                )
                series.append(
                    histogram_series(
                        {"__name__": "http_request_duration_seconds", "route": route},
                        [native_sample(rate, t) for t in batch],
                    )
                )
            response = http.post(
                "/api/v1/write",
                content=write_request(series),
                headers={
                    "Content-Encoding": "snappy",
                    "Content-Type": "application/x-protobuf",
                    "X-Prometheus-Remote-Write-Version": "0.1.0",
                },
            )
            if response.status_code >= 300:
                raise RuntimeError(f"remote write refused: {response.status_code} {response.text}")
    return NativeTruth(
        START_S,
        START_S + SPAN_S,
        {route: rate * SPAN_S for route, rate in RATES_PER_S.items()},
        {route: native_sample(rate, SPAN_S) for route, rate in RATES_PER_S.items()},
    )


@contextlib.contextmanager
def native_prometheus() -> Iterator[tuple[str, NativeTruth]]:
    binary = shutil.which("prometheus")
    if binary is None:
        raise RuntimeError("prometheus is not installed (make system-deps)")
    root = Path(tempfile.mkdtemp(prefix="headroom-prometheus-native-"))
    (root / "prometheus.yml").write_text("global:\n  scrape_interval: 1h\nscrape_configs: []\n")
    port = free_port()
    process = subprocess.Popen(
        [
            binary,
            f"--config.file={root / 'prometheus.yml'}",
            f"--storage.tsdb.path={root / 'data'}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--storage.tsdb.retention.time=100y",
            "--enable-feature=native-histograms",
            "--web.enable-remote-write-receiver",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=die_with_parent,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, process)
        yield url, _write(url)
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(root, ignore_errors=True)
