"""Latency traces from CSV / JSON lines: time units, departure vs duration, bad input."""

from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from headroom.analyses.traces import read_trace
from headroom.engine.logs import LogInputError

T0 = datetime(2026, 1, 1, tzinfo=UTC)
T0_S = T0.timestamp()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("scale", [1, 1_000, 1_000_000, 1_000_000_000])
def test_epoch_units_are_told_apart_by_size(tmp_path: Path, scale: int) -> None:
    rows = "\n".join(f"{int((T0_S + i) * scale)},250" for i in range(3))
    trace = read_trace(write(tmp_path, "t.csv", "arrival,duration_ms\n" + rows + "\n"))
    assert trace["ts"].to_list() == [T0.replace(second=i) for i in range(3)]
    assert trace["latency_s"].to_list() == [0.25, 0.25, 0.25]
    assert trace.schema["ts"] == pl.Datetime("ns", "UTC")


def test_iso_times_with_offsets_and_departures(tmp_path: Path) -> None:
    text = (
        '{"start": "2026-01-01T01:00:00+01:00", "end": "2026-01-01T00:00:00.5Z", "server": "a"}\n'
        '{"start": "2026-01-01T00:00:01Z", "end": "2026-01-01T00:00:01.125Z", "server": "b"}\n'
    )
    trace = read_trace(write(tmp_path, "t.jsonl", text))
    assert trace["ts"].to_list() == [T0, T0.replace(second=1)]
    assert trace["latency_s"].to_list() == [0.5, 0.125]
    assert trace["server"].to_list() == ["a", "b"]


@pytest.mark.parametrize(
    "column, value, latency_s",
    [("duration", "2", 2.0), ("latency_s", "0.5", 0.5), ("duration_us", "1500", 0.0015)],
)
def test_duration_units_come_from_the_column_name(
    tmp_path: Path, column: str, value: str, latency_s: float
) -> None:
    trace = read_trace(write(tmp_path, "t.csv", f"ts,{column}\n{T0_S},{value}\n"))
    assert trace["latency_s"].to_list() == [pytest.approx(latency_s)]


@pytest.mark.parametrize(
    "text, code",
    [
        ("when,duration\n1,2\n", "no_arrival"),
        ("arrival,server\n1,a\n", "no_latency"),
        ("arrival,duration\n1,fast\n", "bad_number"),
        ("arrival,duration\nyesterday,1\n", "bad_timestamp"),
        ('{"arrival": 1, "duration": \n', "unparseable_trace"),
    ],
)
def test_unusable_traces_name_the_problem(tmp_path: Path, text: str, code: str) -> None:
    with pytest.raises(LogInputError) as caught:
        read_trace(write(tmp_path, "t.csv", text))
    assert caught.value.code == code
