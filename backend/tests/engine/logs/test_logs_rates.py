"""The real request-rate series in data/rates (see NOTICE), read by read_rate_series and
checked against a deliberately simple line-by-line reading here and the figures their
sources state for them."""

from __future__ import annotations

import gzip
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from headroom.engine.logs import LogInputError
from headroom.engine.logs.rates import read_rate_series

RATES = Path(__file__).resolve().parents[4] / "data" / "rates"
PROFILES = Path(__file__).resolve().parents[4] / "data" / "profiles"


def text_of(path: Path) -> str:
    raw = path.read_bytes()
    return (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode()


def simple_minute_index(path: Path) -> tuple[list[float], list[int]]:
    starts, counts = [], []
    for line in text_of(path).split("\r\n"):
        minute, count = line.split("\t")
        starts.append((int(minute) - 1) * 60.0)
        counts.append(int(count))
    return starts, counts


def simple_periods(path: Path) -> tuple[list[float], list[int]]:
    starts, counts = [], []
    for line in text_of(path).splitlines()[1:]:
        period, count = line.split(",")
        when = datetime.strptime(period, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
        starts.append(when.timestamp())
        counts.append(int(count))
    return starts, counts


def simple_deltas(path: Path) -> tuple[list[float], list[int]]:
    lines = text_of(path).splitlines()
    header = lines[0].split(",")
    starts, counts = [], []
    for line in lines[1:]:
        row = dict(zip(header, line.split(","), strict=True))
        starts.append(int(row["timestamp_ms"]) / 1000 - float(row["interval_s"]))
        counts.append(int(row["delta_requests"]))
    return starts, counts


CASES = {
    # file: (simple reader, rows, requests, first start, last start, absolute times)
    "sdsc_http_requests_per_minute.tsv": (simple_minute_index, 1440, 28_338, 0.0, 86_340.0, False),
    "nginxplus_request_rate_derived.csv": (
        simple_deltas, 499, 28_384, 1_446_249_499.322, 1_446_252_048.262, True,
    ),
    "worldcup98_requests_per_minute_utc.csv.gz": (
        simple_periods, 125_300, 1_352_804_107,
        datetime(1998, 4, 30, 21, 30, tzinfo=UTC).timestamp(),
        datetime(1998, 7, 26, 21, 59, tzinfo=UTC).timestamp(), True,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_rate_series_match_a_simple_reading(name: str) -> None:
    reader, rows, requests, first, last, absolute = CASES[name]
    series = read_rate_series(RATES / name)
    starts, counts = reader(RATES / name)
    assert (len(counts), sum(counts)) == (rows, requests)
    assert (series.requests.size, series.total_requests) == (rows, requests)
    assert series.requests.tolist() == counts
    np.testing.assert_allclose(series.start_s, starts, rtol=0, atol=1e-6)
    assert series.start_s[0] == pytest.approx(first, abs=1e-3)
    assert series.start_s[-1] == pytest.approx(last, abs=1e-3)
    assert series.absolute is absolute


def test_worldcup_peak_minute_is_the_manifests() -> None:
    series = read_rate_series(RATES / "worldcup98_requests_per_minute_utc.csv.gz")
    assert series.requests.max() == 229_426
    assert series.rate_per_s.max() == pytest.approx(229_426 / 60)


def test_nginx_counter_deltas_add_up_to_the_counter() -> None:
    """requests.total went from 18,853,899 (first snapshot) to 18,882,283 (last)."""
    series = read_rate_series(RATES / "nginxplus_request_rate_derived.csv")
    assert series.total_requests == 18_882_283 - 18_853_899
    assert series.rate_per_s.min() >= 8.2 and series.rate_per_s.max() <= 19.02


def test_epa_profile_reads_the_same_way() -> None:
    series = read_rate_series(PROFILES / "epa_http_requests_per_minute.tsv")
    assert (series.requests.size, series.total_requests, series.requests.max()) == (
        1440, 47_742, 158,
    )  # fmt: skip


def test_a_file_that_is_not_a_rate_series_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("hello,world\n1,2\n")
    with pytest.raises(LogInputError):
        read_rate_series(path)
    path.write_text("1\t5\r\n1\t6")
    with pytest.raises(LogInputError, match="row 2"):
        read_rate_series(path)
