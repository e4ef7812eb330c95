"""Hypothesis: hostile input never raises and every line is accounted for."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.logs import parse_chunk
from headroom.engine.logs.formats import registry

GOOD = b'1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a?b HTTP/1.1" 200 2326 "-" "ua" 0.5'
FORMATS = [
    *sorted(registry()),
    'apache:%h %l %u %{%Y-%m-%d %H:%M:%S}t "%r" %>s %b %D',
    'nginx:$remote_addr [$time_iso8601] $request_time $upstream_response_time "$request"',
    'json:{"fields": {"ts": "$.t", "url": "$.u", "status": "$.s"}, "time": "iso8601"}',
    "w3c:date time c-ip cs-uri-stem sc-status time-taken",
    "trace_csv:epoch_s:arrival,duration_ms,server",
    "trace_jsonl:epoch_ms",
    "syslog+combined_latency_s",
    "syslog+w3c:date time c-ip cs-uri-stem sc-status time-taken",
]
hostile_piece = st.one_of(
    st.binary(max_size=200),
    st.just(GOOD),
    st.just(b'{"ts": 1e300, "status": 200, "t": "2024-13-99T99:99:99", "s": "x", "arrival": 1}'),
    st.just(b"1709287200.5,12,web1"),
    st.just(b"<190>Nov 22 05:00:00 web1 nginx: " + GOOD),
    st.just(b'<190>1 2026-11-22T05:00:00Z h a p m [x a="\\]'),  # unterminated structured data
    st.just(b"<190"),
    st.builds(lambda n: GOOD[:n], st.integers(0, len(GOOD))),  # truncated lines
    st.just(b"\x00" * 50),
    st.just(b"\xff\xfe\xc3(\xa0\xa1"),  # invalid UTF-8
    st.builds(lambda n: GOOD.replace(b"ua", b"u" * n), st.integers(0, 100_000)),  # huge field
    st.sampled_from([b"\r", b"\r\n", b'"', b"\\", b"[", b"]", b" ", b"-"]),
)


def _lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


@settings(max_examples=400, deadline=None)
@given(st.lists(hostile_piece, max_size=30), st.sampled_from(FORMATS), st.integers(1, 10**9))
def test_hostile_input_never_raises_and_is_counted(
    pieces: list[bytes], fmt: str, first: int
) -> None:
    data = b"\n".join(pieces)
    parsed = parse_chunk(data, fmt, first_line_number=first)
    assert parsed.line_count == _lines(data)
    assert parsed.table.height + parsed.reject_count + parsed.skip_count == parsed.line_count
    assert len(parsed.rejects) == min(parsed.reject_count, 20)
    numbers = [r.line_number for r in parsed.rejects]
    assert numbers == sorted(numbers) and all(
        first <= n < first + parsed.line_count for n in numbers
    )
    assert all(len(r.text) <= 500 for r in parsed.rejects)


paths = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789/._-%~", min_size=1, max_size=40)
uas = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_characters='\\"'))


@settings(max_examples=150, deadline=None)
@given(
    st.datetimes(datetime(1971, 1, 1), datetime(2099, 1, 1)).map(
        lambda d: d.replace(microsecond=0)
    ),
    st.integers(-23 * 60 - 59, 23 * 60 + 59),
    st.sampled_from(["GET", "POST", "HEAD", "PROPFIND"]),
    paths,
    st.one_of(st.none(), paths),
    st.integers(100, 599),
    st.one_of(st.none(), st.integers(0, 10**12)),
    uas,
    st.one_of(st.none(), st.integers(0, 10**9)),
)
def test_valid_lines_round_trip(  # type: ignore[no-untyped-def]
    when, offset_min, method, path, query, status, size, ua, micros
) -> None:
    sign = "+" if offset_min >= 0 else "-"
    tz = f"{sign}{abs(offset_min) // 60:02d}{abs(offset_min) % 60:02d}"
    target = "/" + path + (f"?{query}" if query is not None else "")
    line = (
        f'::1 - - [{when:%d/%b/%Y:%H:%M:%S} {tz}] "{method} {target} HTTP/1.1" {status} '
        f'{"-" if size is None else size} "-" "{ua}" '
        f"{'-' if micros is None else micros}"
    )
    parsed = parse_chunk(line.encode(), "combined_latency_us")
    assert parsed.reject_count == 0, parsed.rejects
    row = parsed.table.row(0, named=True)
    utc = when.replace(tzinfo=UTC).timestamp() - offset_min * 60
    assert row["ts"].timestamp() == utc
    assert (row["method"], row["path"], row["query"]) == (method, "/" + path, query)
    assert (row["status"], row["bytes"]) == (status, size or 0)
    assert row["user_agent"] == (None if ua == "-" else ua)
    assert row["latency_s"] == (None if micros is None else micros / 1e6)
