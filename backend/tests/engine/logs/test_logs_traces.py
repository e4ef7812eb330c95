"""Latency traces (CSV and JSON lines): arrival + departure or duration, time kinds."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest

from headroom.engine.logs import detect_format, parse_chunk
from headroom.engine.logs.traces import time_kind

T0 = datetime(2024, 3, 1, 10, tzinfo=UTC)


def test_csv_arrival_departure_epoch_seconds() -> None:
    data = (
        b"arrival,departure,server,class,status\n"
        b"1709287200.5,1709287200.75,web1,dynamic,200\n"
        b"1709287201.0,1709287201.125,web2,static,404\n"
        b"bad,row\n"
    )
    detection = detect_format(data)
    assert detection.format == "trace_csv:epoch_s:arrival,departure,server,class,status"
    parsed = parse_chunk(data, detection)
    assert [r.reason for r in parsed.rejects] == ["wrong number of values"]
    assert parsed.skip_count == 1  # the header line
    t = parsed.table
    assert t["latency_s"].to_list() == [0.25, 0.125]
    assert t["ts"][0] == datetime(2024, 3, 1, 10, 0, 0, 500_000, tzinfo=UTC)
    assert t["server"].to_list() == ["web1", "web2"]
    assert t["cls_request"].to_list() == ["dynamic", "static"]
    assert t["status"].to_list() == [200, 404]


def test_csv_iso_times_and_duration_in_ms() -> None:
    data = b"timestamp,latency_ms\n2024-03-01T10:00:00Z,12\n2024-03-01 11:00:01.5+01:00,7.5\n"
    detection = detect_format(data)
    assert detection.format.startswith("trace_csv:iso8601:")
    t = parse_chunk(data, detection).table
    assert t["ts"].to_list() == [T0, datetime(2024, 3, 1, 10, 0, 1, 500_000, tzinfo=UTC)]
    assert t["latency_s"].to_list() == [0.012, 0.0075]


def test_later_chunk_without_header() -> None:
    t = parse_chunk(b"1709287200000,5\n", "trace_csv:epoch_ms:ts,duration_ms").table
    assert t["ts"].to_list() == [T0] and t["latency_s"].to_list() == [0.005]


def test_jsonl_epoch_ms() -> None:
    data = (
        b'{"ts": 1709287200000, "duration_ms": 5, "host": "a"}\n'
        b'{"ts": 1709287200500, "duration_ms": 7, "host": "b"}\n'
    )
    detection = detect_format(data)
    assert detection.format == "trace_jsonl:epoch_ms"
    t = parse_chunk(data, detection).table
    assert t["latency_s"].to_list() == [0.005, 0.007] and t["server"].to_list() == ["a", "b"]
    assert t["ts"][1] == datetime(2024, 3, 1, 10, 0, 0, 500_000, tzinfo=UTC)


@pytest.mark.parametrize(
    ("values", "kind"),
    [
        (["1709287200.5"], "epoch_s"),
        (["1709287200500"], "epoch_ms"),
        (["1709287200500000"], "epoch_us"),
        (["1709287200500000000"], "epoch_ns"),
        (["2024-03-01T10:00:00Z"], "iso8601"),
    ],
)
def test_time_kind_by_magnitude(values: list[str], kind: str) -> None:
    assert time_kind(pl.Series(values)) == kind
