"""Every real log in data/logs: exact line, reject and status counts against deliberately
simple reference parsers written here (one regex per CLF line; W3C by splitting on blanks
under the latest `#Fields:`; TSV/CSV traces with the csv module). HAProxy, uWSGI, Caddy
and IIS have their own reference tests in test_logs_other_formats.py."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from logs_reference import parse_line

from headroom.engine.logs import detect_format, parse_chunk

CLF_FILES = [
    "apache_combined_elastic.log",
    "apachelogs_vhost_combined_with_bad_line.log",
    "lnav_logfile_access_log.0",
    "lnav_logfile_access_log.1",
    "lnav_logfile_bad_access_log.0",
    "lnav_logfile_regexp_access_log.0",
]
W3C_FILES = [f"lnav_logfile_w3c.{i}" for i in (1, 2, 3, 4, 6)] + ["lnav_iis_w3c_time-taken.log"]
W3C_TOKEN = re.compile(r'"(?:[^"]|"")*"|\S+')  # a quote inside quotes is doubled
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
TIME = re.compile(r"^\d{2}:\d{2}:\d{2}(\.\d+)?$")


@pytest.mark.parametrize("name", CLF_FILES)
def test_clf_counts_equal_reference(data_dir: Path, name: str) -> None:
    data = (data_dir / name).read_bytes()
    parsed = parse_chunk(data, detect_format(data))
    ref = [parse_line(line) for line in data.decode().splitlines()]
    assert parsed.line_count == len(ref)
    assert parsed.reject_count == sum(r is None for r in ref)
    statuses = Counter(r["status"] for r in ref if r is not None)
    assert Counter(parsed.table["status"].to_list()) == statuses
    assert parsed.table["bytes"].sum() == sum(r["bytes"] for r in ref if r is not None)  # type: ignore[misc]


def _w3c_reference(text: str) -> tuple[int, Counter[int | None]]:
    """(requests, status counts): a data line counts when its values match the latest
    #Fields: in number and its date (line or #Date:) and time look like dates and times."""
    fields: list[str] = []
    day = None
    statuses: Counter[int | None] = Counter()
    for line in text.splitlines():
        if line.startswith("#Fields:"):
            fields = line.removeprefix("#Fields:").split()
        elif line.startswith("#Date:"):
            day = line.split()[1]
        elif line.strip() and not line.startswith("#") and fields:
            tokens = [t.strip('"') for t in W3C_TOKEN.findall(line)]
            if len(tokens) != len(fields):
                continue
            values = dict(zip(fields, tokens, strict=True))
            date = values.get("date", values.get("date-local", day)) or ""
            clock = values.get("time", values.get("time-local", ""))
            if DATE.match(date) and TIME.match(clock):
                status = values.get("sc-status", "-")
                statuses[int(status) if status.isdigit() else None] += 1
    return sum(statuses.values()), statuses


@pytest.mark.parametrize("name", W3C_FILES)
def test_w3c_counts_equal_reference(data_dir: Path, name: str) -> None:
    data = (data_dir / name).read_bytes()
    parsed = parse_chunk(data, detect_format(data))
    requests, statuses = _w3c_reference(data.decode("utf-8", "replace"))
    assert parsed.line_count == len(data.decode("utf-8", "replace").splitlines())
    assert parsed.table.height == requests
    assert parsed.reject_count == 0  # directives and blank lines are skipped, not rejected
    assert parsed.line_count - parsed.skip_count == requests
    assert Counter(parsed.table["status"].to_list()) == statuses


@pytest.mark.parametrize("name", ["nasa_19950701_first10k.tsv", "nasa_19950801_first10k.tsv"])
def test_nasa_tsv_counts_and_times_equal_csv_module(data_dir: Path, name: str) -> None:
    """NASA-HTTP converted to TSV (epoch seconds; `host` is the client)."""
    text = (data_dir / name).read_text()
    rows = list(csv.DictReader(io.StringIO(text), delimiter="\t"))
    parsed = parse_chunk(text.encode(), detect_format(text.encode()))
    assert parsed.line_count == len(rows) + 1
    assert (parsed.reject_count, parsed.skip_count) == (0, 1)  # the header is skipped
    table = parsed.table
    assert Counter(table["status"].to_list()) == Counter(int(r["response"]) for r in rows)
    assert table["bytes"].sum() == sum(int(r["bytes"]) for r in rows)
    assert table["client"].to_list() == [r["host"] for r in rows]
    assert table["ts"].dt.epoch("s").to_list() == [int(r["time"]) for r in rows]
    urls = [p + ("?" + q if q is not None else "") for p, q in table.select("path", "query").rows()]
    assert urls == [r["url"] for r in rows]


@pytest.mark.parametrize(
    "name", ["AzureLLMInferenceTrace2023_code.csv", "AzureLLMInferenceTrace2023_conv.csv"]
)
def test_arrival_only_trace_equals_csv_module(data_dir: Path, name: str) -> None:
    """A trace with arrival times only (no duration): one request per row, latency null."""
    text = (data_dir / name).read_text()
    rows = list(csv.DictReader(io.StringIO(text)))
    parsed = parse_chunk(text.encode(), detect_format(text.encode()[: 1 << 20]))
    assert parsed.line_count == len(rows) + 1
    assert (parsed.reject_count, parsed.skip_count) == (0, 1)  # the header is skipped
    assert parsed.table["latency_s"].null_count() == len(rows)
    # 7 fractional digits (100 ns): parsed to the nanosecond, compared in microseconds
    expected = [datetime.fromisoformat(r["TIMESTAMP"][:26]).replace(tzinfo=UTC) for r in rows]
    assert parsed.table["ts"].dt.truncate("1us").to_list() == expected
