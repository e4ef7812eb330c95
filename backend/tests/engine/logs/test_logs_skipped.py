"""Structure lines (blank lines, W3C directives, a CSV/TSV header, Caddy's own messages) are
skipped, never rejected; `#GMT-Offset:` shifts W3C times to UTC; a quote doubled inside a
quoted W3C value is read as one quote; Caddy JSON behind a prefix is detected. Checked
against hand-counted real files and synthetic logs with known truth."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.core.storage import LocalStore
from headroom.datasets.ingest_ranges import format_at, plan_ranges
from headroom.engine.logs import detect_format, iter_chunks, parse_chunk
from headroom.engine.logs.w3c import format_after

FIELDS = "date time c-ip cs-method cs-uri-stem sc-status time-taken"
# (file, lines, requests, structure lines) counted by hand: `#` lines and blank lines
REAL_W3C = [
    ("lnav_iis_w3c_time-taken.log", 254, 210, 44),
    ("lnav_logfile_w3c.1", 7, 1, 6),
    ("lnav_logfile_w3c.2", 22, 14, 8),
    ("lnav_logfile_w3c.3", 10, 3, 7),
    ("lnav_logfile_w3c.4", 6, 2, 4),
    ("lnav_logfile_w3c.6", 5, 1, 4),
]


@pytest.mark.parametrize(("name", "lines", "requests", "structure"), REAL_W3C)
def test_w3c_directives_are_skipped_not_rejected(
    data_dir: Path, name: str, lines: int, requests: int, structure: int
) -> None:
    data = (data_dir / name).read_bytes()
    text = data.decode("utf-8", "replace").splitlines()
    assert structure == sum(1 for t in text if t.startswith("#") or not t.strip())
    parsed = parse_chunk(data, detect_format(data))
    assert (parsed.line_count, parsed.table.height) == (lines, requests)
    assert (parsed.reject_count, parsed.skip_count) == (0, structure), parsed.rejects


@pytest.mark.parametrize("name", ["nasa_19950701_first10k.tsv", "nasa_19950801_first10k.tsv"])
def test_tsv_header_is_skipped(data_dir: Path, name: str) -> None:
    data = (data_dir / name).read_bytes()
    parsed = parse_chunk(data, detect_format(data))
    assert (parsed.line_count, parsed.table.height) == (10_000, 9_999)
    assert (parsed.reject_count, parsed.skip_count) == (0, 1)


def test_doubled_quote_inside_a_quoted_w3c_value(data_dir: Path) -> None:
    """lnav_logfile_w3c.3 line 10: `" ""garbage"" w/ spaces "` is one value (was a reject)."""
    parsed = parse_chunk((data_dir / "lnav_logfile_w3c.3").read_bytes(), "w3c")
    assert parsed.table["path"].to_list()[-1] == "/hello/world/6,681965"
    assert parsed.table["status"].to_list() == [200, 301, 404]
    assert parsed.table["latency_s"].to_list() == [0.109, 0.0, 0.359]
    one = parse_chunk(b'#Fields: date time cs(User-Agent) sc-status\n'
                      b'2020-01-01 00:00:00 "a ""b"" c" 200\n', "w3c")  # fmt: skip
    assert one.table["user_agent"].to_list() == ['a "b" c']


def test_haproxy_event_lines_are_skipped(data_dir: Path) -> None:
    """Lines 1-3 are "Proxy X started." (skipped); line 14 is an SSL handshake failure, a
    connection that never became a request: still shown as a reject."""
    data = (data_dir / "lnav_haproxy_http_timers.log").read_bytes()
    lines = data.decode().splitlines()
    parsed = parse_chunk(data, detect_format(data))
    events = [i + 1 for i, t in enumerate(lines) if "]: Proxy " in t and t.endswith(" started.")]
    assert events == [1, 2, 3]
    assert (parsed.line_count, parsed.table.height, parsed.skip_count) == (17, 13, 3)
    assert [r.line_number for r in parsed.rejects] == [14]
    assert "SSL handshake failure" in parsed.rejects[0].text
    server = b"Feb 25 16:19:38 lb haproxy[1]: Server be/web1 is DOWN, reason: Layer4 timeout\n"
    assert parse_chunk(server, "haproxy").skip_count == 1


# --- #GMT-Offset: synthetic logs whose UTC times are known ---------------------------------

T0 = datetime(2024, 3, 1, 23, 30, tzinfo=UTC)


def _offset_log(blocks: list[tuple[str | None, int]]) -> tuple[bytes, list[datetime]]:
    """Blocks of (offset directive or None, lines): each line's local time = UTC + offset."""
    out, truth, i, minutes = ["#Software: test\n", f"#Fields: {FIELDS}\n"], [], 0, 0
    for offset, n in blocks:
        if offset is not None:
            out.append(f"#GMT-Offset: {offset}\n")
            sign = -1 if offset.startswith("-") else 1
            digits = offset.lstrip("+-").replace(":", "")
            minutes = sign * (int(digits[:2]) * 60 + int(digits[2:]))
        for _ in range(n):
            utc = T0 + timedelta(seconds=37 * i)
            local = utc + timedelta(minutes=minutes)
            out.append(f"{local:%Y-%m-%d %H:%M:%S} 10.0.0.{i % 250} GET /p{i} 200 {i % 90}\n")
            truth.append(utc)
            i += 1
    return "".join(out).encode(), truth


def test_gmt_offset_shifts_local_times_to_utc() -> None:
    data, truth = _offset_log([("-0800", 40), ("+05:30", 40), ("+0000", 10)])
    detection = detect_format(data)
    assert "#GMT-Offset: -0800" in detection.format
    assert any("#GMT-Offset" in n for n in detection.notes)
    parsed = parse_chunk(data, detection)
    assert parsed.table["ts"].to_list() == truth
    assert (parsed.reject_count, parsed.skip_count) == (0, 5)


def test_oracle_web_cache_log_with_gmt_offset(data_dir: Path) -> None:
    """lnav_logfile_w3c.1: `#GMT-Offset: -0800`, local 2001-10-31 00:00:18 = 08:00:18 UTC."""
    data = (data_dir / "lnav_logfile_w3c.1").read_bytes()
    parsed = parse_chunk(data, detect_format(data))
    assert parsed.table["ts"].to_list() == [datetime(2001, 10, 31, 8, 0, 18, tzinfo=UTC)]


def test_gmt_offset_carries_across_chunks_and_ranges(tmp_path: Path) -> None:
    data, truth = _offset_log([("-0800", 300), ("+0530", 300)])
    detection = detect_format(data[:2000])
    tables, fmt = [], detection.format
    for chunk in iter_chunks(io.BytesIO(data), 3000):  # most chunks hold no directive
        tables.append(parse_chunk(chunk, fmt).table)
        fmt = format_after(fmt, chunk.data)
    assert pl.concat(tables)["ts"].to_list() == truth
    path = tmp_path / "offset.log"
    path.write_bytes(data)
    store = LocalStore(tmp_path)
    ranges = plan_ranges(store, path.name, len(data), 3000)
    assert len(ranges) >= 8
    parts = [
        parse_chunk(
            data[r.start : r.end], format_at(store, path.name, r.start, detection.format)
        ).table
        for r in ranges
    ]
    assert pl.concat(parts)["ts"].to_list() == truth


def test_format_after_keeps_offset_and_fields_apart() -> None:
    assert format_after("w3c:a b", b"#GMT-Offset: -0800\nx y\n") == "w3c:a b #GMT-Offset: -0800"
    assert format_after("w3c:a b #GMT-Offset: -0800", b"#Fields: c\n") == (
        "w3c:c #GMT-Offset: -0800"
    )


# --- Caddy JSON behind a docker-compose or syslog prefix -----------------------------------


def test_caddy_compose_output_is_detected(data_dir: Path) -> None:
    data = (data_dir / "lnav_caddy_json_duration.log").read_bytes()
    detection = detect_format(data)
    assert detection.format == "caddy" and detection.parsed_fraction == 1.0


def test_syslog_wrapped_caddy_json_is_detected(data_dir: Path) -> None:
    """Lines of the compose log behind an RFC 3164 and an RFC 5424 syslog header."""
    lines = (data_dir / "lnav_caddy_json_duration.log").read_text().splitlines()
    bodies = [line.partition("| ")[2] for line in lines]
    wrapped = [
        (f"<14>Oct 21 04:10:{i % 60:02d} web1 caddy[812]: " if i % 2 else
         f"<14>1 2025-10-21T04:10:{i % 60:02d}Z web1 caddy 812 - - ") + body
        for i, body in enumerate(bodies)
    ]  # fmt: skip
    data = ("\n".join(wrapped) + "\n").encode()
    detection = detect_format(data)
    assert detection.format.removeprefix("syslog+") == "caddy"
    parsed = parse_chunk(data, detection)
    access = [json.loads(b) for b in bodies if '"request"' in b]
    assert parsed.table["status"].to_list() == [a["status"] for a in access]
    assert (parsed.reject_count, parsed.skip_count) == (0, len(bodies) - len(access))


def test_caddy_entry_with_a_request_but_no_status_is_a_reject() -> None:
    data = b'{"msg":"handled request","ts":1.5,"request":{"uri":"/"}}\n{"msg":"started"}\nnope\n'
    parsed = parse_chunk(data, "caddy")
    assert (parsed.reject_count, parsed.skip_count) == (2, 1)
    assert [r.line_number for r in parsed.rejects] == [1, 3]


# --- property: structure lines anywhere are skipped and every line is counted once ----------

DIRECTIVES = [
    b"#Software: Microsoft Internet Information Services 10.0",
    b"#Version: 1.0",
    b"#Date: 2024-03-01 00:00:00",
    b"#Remark: rotated",
    b"#Fields: " + FIELDS.encode(),
    b"",
    b"   ",
]


def _data_line(i: int) -> bytes:
    return f"2024-03-01 00:{i // 60 % 60:02d}:{i % 60:02d} 10.0.0.1 GET /p{i} 200 {i}".encode()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(st.integers(0, 3599), st.sampled_from(DIRECTIVES)), max_size=60),
    st.integers(40, 400),
    st.booleans(),
)
def test_w3c_structure_lines_anywhere_are_skipped(
    items: list[int | bytes], chunk_bytes: int, final_newline: bool
) -> None:
    lines = [b"#Fields: " + FIELDS.encode()] + [
        _data_line(x) if isinstance(x, int) else x for x in items
    ]
    data = b"\n".join(lines) + (b"\n" if final_newline else b"")
    n_data = sum(isinstance(x, int) for x in items)
    n_lines = data.count(b"\n") + (not data.endswith(b"\n"))  # an empty tail is no line
    whole = parse_chunk(data, "w3c")
    assert whole.reject_count == 0, whole.rejects
    assert (whole.table.height, whole.skip_count) == (n_data, n_lines - n_data)
    assert whole.line_count == whole.table.height + whole.reject_count + whole.skip_count
    expected = [f"/p{x}" for x in items if isinstance(x, int)]
    assert whole.table["path"].to_list() == expected
    fmt, tables, counts = "w3c:" + FIELDS, [], [0, 0, 0, 0]
    for chunk in iter_chunks(io.BytesIO(data), chunk_bytes):
        part = parse_chunk(chunk, fmt)
        fmt = format_after(fmt, chunk.data)
        tables.append(part.table)
        for k, v in enumerate((part.line_count, part.table.height, part.reject_count,
                               part.skip_count)):  # fmt: skip
            counts[k] += v
    assert counts == [n_lines, n_data, 0, n_lines - n_data]
    assert pl.concat(tables)["path"].to_list() == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 999), st.sampled_from([b"", b" \t", b"H"])),
                max_size=40))  # fmt: skip
def test_tsv_header_and_blank_lines_anywhere_are_skipped(items: list[int | bytes]) -> None:
    header = b"host\tlogname\ttime\tmethod\turl\tresponse\tbytes"
    lines = [header] + [
        header if x == b"H" else x if isinstance(x, bytes)
        else f"h{x}\t-\t{804_571_201 + x}\tGET\t/p{x}\t200\t{x}".encode()
        for x in items
    ]  # fmt: skip
    data = b"\n".join(lines) + b"\n"
    parsed = parse_chunk(data, f"trace_csv:epoch_s:{header.decode()}")
    n_data = sum(isinstance(x, int) for x in items)
    assert parsed.reject_count == 0, parsed.rejects
    assert (parsed.table.height, parsed.skip_count) == (n_data, len(lines) - n_data)
    assert parsed.table["bytes"].to_list() == [x for x in items if isinstance(x, int)]
