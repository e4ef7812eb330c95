"""Syslog-wrapped access lines, non-English month names, and W3C `#Fields:` across byte
ranges: each checked against the same line parsed without the wrapping (or by hand)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from headroom.core.storage import LocalStore
from headroom.datasets.ingest_ranges import format_at, plan_ranges
from headroom.engine.logs import detect_format, parse_chunk
from headroom.engine.logs.w3c import format_after

LINE = b'10.0.0.1 - - [22/Nov/2026:05:00:00 +0100] "GET /a?x=1 HTTP/1.1" 200 512 "-" "curl/8" 0.012'
HEADERS = [
    b"<190>Nov 22 05:00:00 web1 nginx: ",  # RFC 3164, as nginx `access_log syslog:` sends
    b"Nov  2 05:00:00 web1 nginx[123]: ",  # rsyslog file: no PRI, space-padded day, pid
    b"<190>Nov 22 05:00:00 nginx: ",  # no host
    b"2026-11-22T05:00:00.123+01:00 web1 nginx: ",  # rsyslog high-precision time
    b"<190>1 2026-11-22T05:00:00.000Z web1 nginx 123 - - ",  # RFC 5424, no structured data
    b'<165>1 2026-11-22T05:00:00Z web1 nginx - ID47 [ex@32473 a="x\\]" b="y"][o@1 c="d"] ',
]


def test_syslog_wrapped_lines_equal_the_bare_line() -> None:
    data = b"".join(h + LINE + b"\n" for h in HEADERS) + b"<190>Nov 22 05:00:00 web1 sshd: x\n"
    detection = detect_format(data)
    assert detection.format == "syslog+combined_latency_s"
    parsed = parse_chunk(data, detection)
    bare = parse_chunk(LINE + b"\n", "combined_latency_s").table
    assert parsed.line_count == len(HEADERS) + 1 and parsed.reject_count == 1
    assert parsed.table.equals(pl.concat([bare] * len(HEADERS)))
    reject = parsed.rejects[0]
    assert reject.line_number == len(HEADERS) + 1 and "sshd" in reject.text  # original text


def test_syslog_prefix_names_any_format() -> None:
    line = b"<190>Nov 22 05:00:00 web1 apache: " + LINE.rsplit(b" ", 1)[0] + b"\n"
    parsed = parse_chunk(line, "syslog+combined")
    assert parsed.reject_count == 0 and parsed.table["path"].to_list() == ["/a"]


# month names in %t as other locales' strftime %b writes them (fields.MONTH_NAMES)
MONTHS = [
    ("Mär", 3), ("Mai", 5), ("Okt", 10), ("Dez", 12), ("févr.", 2), ("avr.", 4),
    ("juin", 6), ("juil.", 7), ("août", 8), ("déc.", 12), ("ene", 1), ("ago", 8),
    ("dic", 12), ("gen", 1), ("giu", 6), ("mrt", 3), ("okt", 10), ("JUIL.", 7),
]  # fmt: skip


@pytest.mark.parametrize(("name", "month"), MONTHS)
def test_non_english_month_names(name: str, month: int) -> None:
    line = f'1.2.3.4 - - [09/{name}/2024:13:55:36 -0700] "GET / HTTP/1.1" 200 5\n'
    parsed = parse_chunk(line.encode(), "common")
    assert parsed.reject_count == 0
    expected = datetime(2024, month, 9, 20, 55, 36, tzinfo=UTC)  # -0700 -> UTC by hand
    assert parsed.table["ts"].to_list() == [expected]


def test_unknown_month_name_is_rejected() -> None:
    parsed = parse_chunk(
        b'1.2.3.4 - - [09/Foo/2024:13:55:36 -0700] "GET / HTTP/1.1" 200 5\n', "common"
    )
    assert parsed.reject_count == 1


FIELDS_A = "date time c-ip cs-method cs-uri-stem sc-status time-taken"
FIELDS_B = "date time cs-method cs-uri-stem sc-status time-taken c-ip"


def _w3c_log(path: Path, n_a: int, n_b: int) -> list[tuple[str, str, int, float]]:
    """A W3C log whose `#Fields:` changes once; returns (client, path, status, latency_s)."""
    rows, out = [], [f"#Software: test\n#Fields: {FIELDS_A}\n"]
    for i in range(n_a + n_b):
        client, url, status, ms = f"10.0.{i % 7}.{i % 250}", f"/p{i}", 200 + i % 3, i % 900
        if i == n_a:
            out.append(f"#Fields: {FIELDS_B}\n")
        if i < n_a:
            out.append(f"2024-03-01 00:00:{i % 60:02d} {client} GET {url} {status} {ms}\n")
        else:
            out.append(f"2024-03-01 00:00:{i % 60:02d} GET {url} {status} {ms} {client}\n")
        rows.append((client, url, status, ms / 1000))
    path.write_text("".join(out))
    return rows


def test_w3c_range_reads_the_fields_in_effect_at_its_start(tmp_path: Path) -> None:
    path = tmp_path / "u_ex.log"
    expected = _w3c_log(path, 300, 900)
    size = path.stat().st_size
    store = LocalStore(tmp_path)
    ranges = plan_ranges(store, path.name, size, 4096)
    data = path.read_bytes()
    b_at = data.index(b"#Fields: " + FIELDS_B.encode())
    header_free = [r for r in ranges if r.start > b_at]  # begin after the change, no header
    assert len(header_free) >= 3
    detection = detect_format(data[: 1 << 20])
    assert detection.format == "w3c:" + FIELDS_A
    tables = []
    for r in ranges:
        fmt = format_at(store, path.name, r.start, detection.format)
        assert fmt == ("w3c:" + (FIELDS_B if r.start > b_at else FIELDS_A))
        parsed = parse_chunk(data[r.start : r.end], fmt)
        tables.append(parsed.table)
    table = pl.concat(tables)
    got = table.select("client", "path", "status").rows()
    assert got == [row[:3] for row in expected]
    # polars may divide by 1e3 as a multiplication: equal to within float rounding
    assert table["latency_s"].to_list() == pytest.approx([r[3] for r in expected], rel=1e-12)
    # without the scan back, a header-free range would read the old field order
    wrong = parse_chunk(data[header_free[0].start : header_free[0].end], detection.format)
    assert set(wrong.table["client"].to_list()) == {"GET"}


def test_format_at_leaves_other_formats_and_the_first_range(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(LINE + b"\n")
    store = LocalStore(tmp_path)
    assert format_at(store, path.name, 10, "combined") == "combined"
    assert format_at(store, path.name, 0, "w3c:date time") == "w3c:date time"


def test_format_after_takes_the_last_directive_at_a_line_start() -> None:
    data = b"#Fields: a b\nx y\n#Fields: c d e\nu v w\nq # not #Fields: f\n"
    assert format_after("w3c:a b", data) == "w3c:c d e"
    assert format_after("w3c:a b", b"x y\n") == "w3c:a b"
    assert format_after("combined", data) == "combined"
