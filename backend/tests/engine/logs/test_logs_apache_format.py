"""Apache LogFormat compilation, checked against jwodder/apachelogs' test vectors."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.logs import LogInputError, parse_chunk
from headroom.engine.logs.apache import compile_log_format
from headroom.engine.logs.parse import as_buffer

# entries our line-based reader cannot take, with why (German month names and ISO week
# dates, once listed here, now parse and are field-checked below)
UNSUPPORTED = {
    "2019 \t 05 \n 19": "a newline inside the entry splits it into two lines",
    "12:34:56 ": "trailing whitespace is trimmed from lines, so %p has nothing to read",
}
PEER_TESTS = ("test_parse", "test_parse_custom_time", "test_parse_custom_german_time")


def _vectors(data_dir: Path, *tests: str) -> list[dict[str, Any]]:
    lines = (data_dir / "apachelogs_test_vectors.jsonl").read_text().splitlines()
    return [v for v in map(json.loads, lines) if v["test"] in tests]


def _as_logged(value: Any) -> Any:
    """apachelogs decodes `\\xhh` escapes to Latin-1 characters; we keep them as logged."""
    if not isinstance(value, str):
        return value
    return "".join(f"\\x{ord(c):02x}" if 0x80 <= ord(c) < 0x100 else c for c in value)


def _expected(fields: dict[str, Any]) -> dict[str, Any]:
    """The request-table columns that apachelogs' fields determine."""
    return {k: _as_logged(v) for k, v in _expected_raw(fields).items()}


def _expected_raw(fields: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("remote_host", "remote_address"):
        if key in fields:
            out.setdefault("client", fields[key])
    for key in ("final_status", "status", "original_status"):
        if key in fields:
            out.setdefault("status", fields[key])
    for key in ("bytes_sent", "bytes_out"):
        if key in fields:
            out.setdefault("bytes", fields[key] or 0)  # CLF `-` means no bytes
    headers = fields.get("headers_in") or {}
    if "Referer" in headers:
        out["referer"] = headers["Referer"]
    if "User-Agent" in headers:
        out["user_agent"] = headers["User-Agent"]
    if "virtual_host" in fields:
        out["server"] = fields["virtual_host"]
    if fields.get("request_line"):
        method, target, *_ = [*fields["request_line"].split(" "), ""]
        out["method"], (out["path"], _, q) = method, target.partition("?")
        out["query"] = q or None
    if "request_method" in fields:
        out["method"] = fields["request_method"]
    if "request_uri" in fields:
        out["path"] = fields["request_uri"]
    if "request_query" in fields:
        out["query"] = (fields["request_query"] or "").removeprefix("?") or None
    for key, scale in (("microseconds", 1e-6), ("milliseconds", 1e-3), ("seconds", 1.0)):
        value = fields.get(f"request_duration_{key}")
        if value is not None and "latency_s" not in out:
            out["latency_s"] = value * scale
    when = fields.get("request_time") or fields.get("final_request_time")
    if isinstance(when, dict):
        ts = datetime.fromisoformat(when["__datetime__"])
        out["ts"] = ts if ts.tzinfo else ts.replace(tzinfo=UTC)  # no zone logged: UTC
    return out


def _check_fields(v: dict[str, Any]) -> None:
    parsed = parse_chunk(v["entry"].encode(), compile_log_format(v["fmt"]).name)
    assert parsed.reject_count == 0, (v["fmt"], v["entry"], parsed.rejects)
    row = parsed.table.row(0, named=True)
    expected = _expected(v.get("fields") or {})
    for column, value in expected.items():
        got = row[column]
        if column == "latency_s":
            assert got == pytest.approx(value), (v["fmt"], column)
        else:
            assert got == value, (v["fmt"], v["entry"], column, got, value)


def test_parse_vectors_match_apachelogs_fields(data_dir: Path) -> None:
    vectors = _vectors(data_dir, *PEER_TESTS)
    checked = [v for v in vectors if v["entry"] not in UNSUPPORTED]
    for v in checked:
        _check_fields(v)
    # 72 English vectors (2 unsupported) and the 4 German-locale ones
    assert (len(vectors), len(checked)) == (76, 74)


def test_german_locale_vectors_are_field_checked(data_dir: Path) -> None:
    german = _vectors(data_dir, "test_parse_custom_german_time")
    assert [v["entry"] for v in german] == [
        "19 Mär 2019 01:39:12 +0000",
        "19 März 2019 01:39:12 +0000",
        "2019--20 So 12:34:56",
        "2019--20 Sonntag 12:34:56",
    ]
    for v in german:
        _check_fields(v)
    months = [parse_chunk(v["entry"].encode(), compile_log_format(v["fmt"]).name) for v in german]
    march, iso_week = (
        datetime(2019, 3, 19, 1, 39, 12, tzinfo=UTC),
        datetime(2019, 5, 19, 12, 34, 56, tzinfo=UTC),
    )
    assert [m.table["ts"][0] for m in months] == [march, march, iso_week, iso_week]


@settings(max_examples=300, deadline=None)
@given(day=st.dates(date(1971, 1, 1), date(2099, 12, 31)), name=st.booleans())
def test_iso_week_dates_match_the_calendar(day: date, name: bool) -> None:
    """%G/%V with %u or a weekday name, against Python's ISO calendar."""
    year, week, weekday = day.isocalendar()
    english = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][weekday - 1]
    fmt, entry = (("%{%G-W%V %a}t", f"{year}-W{week:02d} {english}") if name
                  else ("%{%G-W%V-%u}t", f"{year}-W{week:02d}-{weekday}"))  # fmt: skip
    parsed = parse_chunk(entry.encode(), compile_log_format(fmt).name)
    assert parsed.table["ts"][0] == datetime(day.year, day.month, day.day, tzinfo=UTC)


@pytest.mark.parametrize("entry", sorted(UNSUPPORTED))
def test_unsupported_entries_are_rejects_not_crashes(data_dir: Path, entry: str) -> None:
    (v,) = [v for v in _vectors(data_dir, *PEER_TESTS) if v["entry"] == entry]
    parsed = parse_chunk(v["entry"].encode(), compile_log_format(v["fmt"]).name)
    assert parsed.table.height + parsed.reject_count == parsed.line_count
    assert parsed.reject_count > 0


@pytest.mark.parametrize(
    ("directive", "per_s"),
    [("%{us}T", 1e6), ("%{ms}T", 1e3), ("%{s}T", 1.0), ("%T", 1.0), ("%D", 1e6)],
)
def test_response_time_units(directive: str, per_s: float) -> None:
    """Each unit of Apache's %T / %D over several lines, `-` as an unknown time."""
    raw = [0, 1, 7, 250, 1500, 999_999, 12_345_678]
    head = '10.0.0.{} - - [19/May/2019:12:34:{:02d} +0200] "GET / HTTP/1.1" 200 5 {}'
    lines = [head.format(i, i, r) for i, r in enumerate(raw)] + [head.format(9, 59, "-")]
    fmt = f'%h %l %u %t "%r" %>s %b {directive}'
    parsed = parse_chunk("\n".join(lines).encode(), compile_log_format(fmt).name)
    assert parsed.reject_count == 0, parsed.rejects
    latency = parsed.table["latency_s"].to_list()
    assert latency[:-1] == pytest.approx([r / per_s for r in raw], rel=1e-12)
    assert latency[-1] is None
    assert parsed.table["ts"][0] == datetime(2019, 5, 19, 10, 34, 0, tzinfo=UTC)


def test_bad_directives_raise(data_dir: Path) -> None:
    bad = _vectors(data_dir, "test_malformed_directive", "test_unknown_directive")
    bad_time = _vectors(data_dir, "test_malformed_time_directive")
    assert len(bad) == 12 and len(bad_time) == 9
    for fmt in [v["fmt"] for v in bad] + ["%{" + v["fmt"] + "}t" for v in bad_time]:
        with pytest.raises(LogInputError) as info:
            compile_log_format(fmt)
        assert info.value.code == "bad_log_format"


def test_combined_with_d_matches_builtin_format(data_dir: Path) -> None:
    data = (data_dir / "lnav_logfile_regexp_access_log.0").read_bytes()
    fmt = '%v:%p %h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D'
    ours = parse_chunk(data, compile_log_format(fmt).name).table
    assert ours.equals(parse_chunk(data, "vhost_combined_latency_us").table)


def test_end_time_means_arrival_is_earlier() -> None:
    fmt = "%{end:%Y-%m-%d %H:%M:%S}t %D"
    parser = compile_log_format(fmt)
    assert parser.time_is_completion
    table = parser.scan(as_buffer(b"2020-01-01 00:00:10 2500000")).table
    assert table["ts"][0] == datetime.fromisoformat("2020-01-01T00:00:07.500+00:00")
