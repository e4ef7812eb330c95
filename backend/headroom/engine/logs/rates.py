"""Request-rate series: requests counted per interval, the form in which many public web
traces survive (ITA's per-minute counts, counters polled from a status API).

Layouts, told apart by the first line:
  ``<minute index>\\t<requests>`` (no header; ITA EPA/SDSC-HTTP: minute 1 = the trace's
  first minute, times relative), ``period,count`` (minute start, UTC), and
  ``timestamp_utc,timestamp_ms,...,delta_requests,interval_s,...`` (counter deltas, each
  row the requests of the `interval_s` seconds ending at `timestamp_ms`), and
  ``timestamp,requests`` (per minute: the minute's start as ISO 8601, UTC unless it names
  its offset, or as epoch seconds).
Plain or compressed (open_log). Vectorised: one CSV read, no loop per row."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from numpy.typing import NDArray

from .compression import open_log
from .records import LogInputError

MINUTE_S = 60.0


@dataclass(frozen=True)
class RateSeries:
    """`start_s`: each interval's start (epoch seconds when `absolute`, else seconds from
    the series' start); `requests`: requests in it; `interval_s`: its length."""

    start_s: NDArray[np.float64]
    requests: NDArray[np.int64]
    interval_s: NDArray[np.float64]
    absolute: bool

    @property
    def total_requests(self) -> int:
        return int(self.requests.sum())

    @property
    def rate_per_s(self) -> NDArray[np.float64]:
        return self.requests / self.interval_s


def read_rate_series(path: str | Path) -> RateSeries:
    with open_log(Path(path)) as stream:
        data = stream.read()
    first = data.split(b"\n", 1)[0].strip()
    if first.startswith(b"period,count"):
        return _periods(data)
    if first.replace(b" ", b"") == b"timestamp,requests":
        return _timestamp_requests(data)
    if b"delta_requests" in first and b"timestamp_ms" in first:
        return _counter_deltas(data)
    if b"\t" in first and first.replace(b"\t", b"").isdigit():
        return _minute_index(data)
    raise LogInputError("unknown_format", f"not a known rate-series layout: {first[:80]!r}")


def _csv(data: bytes, **options: object) -> pl.DataFrame:
    try:
        return pl.read_csv(io.BytesIO(data), **options)  # type: ignore[arg-type]
    except (pl.exceptions.PolarsError, ValueError) as error:
        raise LogInputError("bad_rate_series", f"unreadable rate series: {error}") from None


def _minute_index(data: bytes) -> RateSeries:
    schema = {"minute": pl.Int64, "requests": pl.Int64}
    table = _csv(data.replace(b"\r", b""), separator="\t", has_header=False, schema=schema)
    start = (table["minute"].to_numpy() - 1) * MINUTE_S
    return _series(start, table["requests"].to_numpy(), np.full(table.height, MINUTE_S), False)


def _periods(data: bytes) -> RateSeries:
    table = _csv(data.replace(b"\r", b""), schema={"period": pl.String, "count": pl.Int64})
    when = table["period"].str.to_datetime("%Y-%m-%d %H:%M:%S", time_zone="UTC", strict=True)
    start = when.dt.epoch("s").to_numpy().astype(np.float64)
    return _series(start, table["count"].to_numpy(), np.full(table.height, MINUTE_S), True)


def _timestamp_requests(data: bytes) -> RateSeries:
    table = _csv(data.replace(b"\r", b""), schema={"timestamp": pl.String, "requests": pl.Int64})
    stamps = table["timestamp"].str.strip_chars()
    if stamps.str.contains(r"^\d+(\.\d+)?$").all():
        start = stamps.cast(pl.Float64).to_numpy()
    else:
        try:
            when = stamps.str.to_datetime(time_zone="UTC", time_unit="ms")
        except pl.exceptions.PolarsError as error:
            raise LogInputError("bad_rate_series", f"unreadable timestamp: {error}") from None
        start = when.dt.epoch("ms").to_numpy() / 1000.0
    minutes = np.full(table.height, MINUTE_S)
    return _series(start.astype(np.float64), table["requests"].to_numpy(), minutes, True)


def _counter_deltas(data: bytes) -> RateSeries:
    table = _csv(data.replace(b"\r", b""))
    interval = table["interval_s"].cast(pl.Float64).to_numpy()
    end = table["timestamp_ms"].cast(pl.Int64).to_numpy() / 1000.0
    requests = table["delta_requests"].cast(pl.Int64).to_numpy()
    return _series(end - interval, requests, interval, True)


def _series(
    start: NDArray[np.float64],
    requests: NDArray[np.int64],
    interval: NDArray[np.float64],
    absolute: bool,
) -> RateSeries:
    if start.size == 0:
        raise LogInputError("empty_log", "the rate series has no rows")
    if (requests < 0).any():
        row = int(np.argmax(requests < 0)) + 1
        raise LogInputError("bad_rate_series", f"row {row}: a negative request count")
    if (np.diff(start) <= 0).any():
        row = int(np.argmax(np.diff(start) <= 0)) + 2
        raise LogInputError("bad_rate_series", f"row {row}: interval starts must increase")
    return RateSeries(start.astype(np.float64), requests.astype(np.int64), interval, absolute)
