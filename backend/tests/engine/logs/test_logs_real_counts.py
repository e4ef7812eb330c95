"""Every real Common/Combined-family and W3C log in data/logs: exact line, reject and status
counts against deliberately simple reference parsers written here (one regex per line;
W3C by splitting on blanks under the latest `#Fields:`)."""

from __future__ import annotations

import re
from collections import Counter
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
W3C_TOKEN = re.compile(r'"[^"]*"|\S+')
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
    assert parsed.line_count - parsed.reject_count == requests
    assert Counter(parsed.table["status"].to_list()) == statuses
