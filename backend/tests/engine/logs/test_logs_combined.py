"""Common/Combined parsing against real logs and an independent reference parser."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from logs_reference import parse_line

from headroom.engine.logs import REQUEST_SCHEMA, Chunk, parse_chunk

ELASTIC_STATUS = {200: 9126, 304: 445, 404: 213, 301: 164, 206: 45, 500: 3, 403: 2, 416: 2}


@pytest.fixture(scope="module")
def elastic(data_dir: Path) -> bytes:
    return (data_dir / "apache_combined_elastic.log").read_bytes()


def test_elastic_counts_match_manifest_and_reference(elastic: bytes) -> None:
    parsed = parse_chunk(elastic, "combined")
    assert parsed.line_count == 10_000 and parsed.reject_count == 0
    assert parsed.table.schema == pl.Schema(REQUEST_SCHEMA)
    ref = [parse_line(line) for line in elastic.decode().splitlines()]
    assert all(r is not None for r in ref)
    assert dict(Counter(parsed.table["status"].to_list())) == ELASTIC_STATUS
    assert Counter(r["status"] for r in ref if r) == ELASTIC_STATUS
    assert parsed.table["bytes"].sum() == sum(r["bytes"] for r in ref if r)  # type: ignore[misc]


def test_elastic_rows_equal_reference_field_by_field(elastic: bytes) -> None:
    table = parse_chunk(elastic, "combined").table
    ref = pl.DataFrame([parse_line(line) for line in elastic.decode().splitlines()])
    ours = table.select(
        pl.col("ts").dt.epoch("ns").alias("ts_ns"),
        "client", "method", "path", "query",
        pl.col("status").cast(pl.Int64), "bytes", "referer", "user_agent",
    )  # fmt: skip
    assert ours.equals(ref.select(ours.columns))


def test_unterminated_user_agent_quote_is_parsed_with_truncated_ua(elastic: bytes) -> None:
    """Decision: a last quoted field cut off before its closing quote keeps the request."""
    table = parse_chunk(elastic, "combined").table
    row = table.row(8898, named=True)
    assert row["path"] == "/scripts/grok-py-test/configlib.py"
    assert row["status"] == 200 and row["bytes"] == 235
    assert (
        row["user_agent"]
        == "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html"
    )


def test_text_after_a_closed_last_quote_is_rejected() -> None:
    line = b'1.2.3.4 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 5 "-" "UA" junk\n'
    parsed = parse_chunk(line, "combined")
    assert parsed.reject_count == 1
    assert "after the last field" in parsed.rejects[0].reason


def test_vhost_fixture_rejects_bad_line_with_number(data_dir: Path) -> None:
    data = (data_dir / "apachelogs_vhost_combined_with_bad_line.log").read_bytes()
    parsed = parse_chunk(Chunk(0, 101, data), "vhost_combined")
    assert (parsed.line_count, parsed.reject_count, parsed.table.height) == (7, 1, 6)
    assert parsed.rejects[0].line_number == 105 and parsed.rejects[0].text == "Bad line"
    assert parsed.table["server"][0] == "www.varonathe.org"
    assert parsed.table["method"][2] == "POST"


def test_lnav_bad_access_log_rejects_middle_line(data_dir: Path) -> None:
    parsed = parse_chunk((data_dir / "lnav_logfile_bad_access_log.0").read_bytes(), "combined")
    assert parsed.reject_count == 1 and parsed.rejects[0].line_number == 2
    assert "expected ' ['" in parsed.rejects[0].reason


def test_request_line_dash_gives_null_method_and_path(data_dir: Path) -> None:
    table = parse_chunk((data_dir / "lnav_logfile_access_log.1").read_bytes(), "combined").table
    assert table.row(0, named=True) | {"ts": None} == {
        "ts": None, "client": "10.112.81.15", "method": None, "path": None, "query": None,
        "status": 400, "bytes": 0, "latency_s": None, "referer": None, "user_agent": None,
        "server": None, "cls_request": None, "cls_user": None,
    }  # fmt: skip


def test_vhost_latency_fixture_microseconds_and_timezone(data_dir: Path) -> None:
    data = (data_dir / "lnav_logfile_regexp_access_log.0").read_bytes()
    table = parse_chunk(data, "vhost_combined_latency_us").table
    assert table["latency_s"].to_list() == pytest.approx([0.116075, 0.156302], rel=1e-12)
    # 26/Jul/2023:00:01:26 -0700 is 07:01:26 UTC
    assert table["ts"][0] == datetime(2023, 7, 26, 7, 1, 26, tzinfo=UTC)
    assert table["query"][0].startswith("rapidView=1295&")
    assert table["server"][0] == "localhost"


LINE = '{client} - - [{time}] "{request}" {status} {size} "{ref}" "{ua}"'


def _one(line: str, fmt: str = "combined") -> dict[str, object]:
    parsed = parse_chunk(line.encode(), fmt)
    assert parsed.reject_count == 0, parsed.rejects
    return parsed.table.row(0, named=True)


def test_ipv6_client_and_escaped_quotes() -> None:
    line = LINE.format(
        client="2001:db8::ff00:42:8329", time="10/Oct/2000:13:55:36 -0700",
        request='GET /a\\"b?x=\\"1\\" HTTP/1.1', status=200, size=10, ref="-",
        ua='Mozilla \\"quoted\\" UA \\\\ end',
    )  # fmt: skip
    row = _one(line)
    assert row["client"] == "2001:db8::ff00:42:8329"
    assert row["path"] == '/a"b' and row["query"] == 'x="1"'
    assert row["user_agent"] == 'Mozilla "quoted" UA \\ end'
    assert row["ts"] == datetime(2000, 10, 10, 20, 55, 36, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "unit", "expected"),
    [("0.123", "s", 0.123), ("-", "s", None), ("1234", "us", 0.001234), ("15", "ms", 0.015)],
)
def test_trailing_latency_units_and_dash(value: str, unit: str, expected: float | None) -> None:
    line = LINE.format(
        client="1.2.3.4", time="01/Jan/2020:00:00:00 +0130", request="GET / HTTP/1.1",
        status=200, size="-", ref="-", ua="-",
    )  # fmt: skip
    row = _one(f"{line} {value}", f"combined_latency_{unit}")
    assert row["latency_s"] == (None if expected is None else pytest.approx(expected))
    assert row["bytes"] == 0
    assert row["ts"] == datetime(2019, 12, 31, 22, 30, tzinfo=UTC)


def test_common_format_and_crlf() -> None:
    data = b'h - u [01/Feb/2021:10:00:00 +0000] "POST /api/x HTTP/2.0" 201 7\r\n'
    row = _one(data.decode(), "common")
    assert (row["method"], row["path"], row["status"], row["bytes"]) == ("POST", "/api/x", 201, 7)
