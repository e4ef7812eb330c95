"""nginx log_format compilation: variables, completion times and upstream lists."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from headroom.engine.logs import LogInputError, parse_chunk
from headroom.engine.logs.nginx import COMPLETION_NOTE, compile_nginx_format

NGINX_COMBINED = (
    '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
    '"$http_referer" "$http_user_agent"'
)


def test_default_combined_equals_builtin(data_dir: Path) -> None:
    data = (data_dir / "apache_combined_elastic.log").read_bytes()
    ours = parse_chunk(data, f"nginx:{NGINX_COMBINED}")
    assert ours.table.equals(parse_chunk(data, "combined").table)  # no duration: no shift


def test_request_time_makes_arrival_earlier_and_upstream_is_skipped() -> None:
    fmt = f"nginx:{NGINX_COMBINED} $request_time $upstream_response_time $upstream_addr"
    line = (
        b'10.0.0.1 - bob [10/Oct/2000:13:55:36 -0700] "GET /x?y=1 HTTP/1.1" 200 512 "-" '
        b'"curl/8" 0.250 0.012, 0.004 : 0.1 10.1.1.1:80, 10.1.1.2:80\n'
    )
    row = parse_chunk(line, fmt).table.row(0, named=True)
    assert row["latency_s"] == 0.25
    assert row["ts"] == datetime(2000, 10, 10, 20, 55, 35, 750_000, tzinfo=UTC)
    assert (row["path"], row["query"], row["user_agent"]) == ("/x", "y=1", "curl/8")
    assert COMPLETION_NOTE in compile_nginx_format(fmt[6:]).notes


def test_upstream_times_summed_when_no_request_time() -> None:
    fmt = (
        'nginx:$remote_addr [$time_iso8601] "$request" $status $bytes_sent $upstream_response_time'
    )
    data = (
        b'::1 [2024-03-01T10:00:00+01:00] "GET / HTTP/2.0" 404 10 0.012, 0.004\n'
        b'::1 [2024-03-01T10:00:00+01:00] "GET / HTTP/2.0" 404 10 -\n'
        b'::1 [2024-03-01T10:00:00Z] "GET / HTTP/2.0" 502 10 0.5 : 0.25\n'
    )
    table = parse_chunk(data, fmt).table
    assert table["latency_s"].to_list() == [pytest.approx(0.016), None, 0.75]
    assert table["ts"].to_list() == [
        datetime(2024, 3, 1, 8, 59, 59, 984_000, tzinfo=UTC),
        datetime(2024, 3, 1, 9, 0, tzinfo=UTC),  # no duration: the logged time is kept
        datetime(2024, 3, 1, 9, 59, 59, 250_000, tzinfo=UTC),
    ]


def test_msec_epoch_and_request_uri() -> None:
    fmt = "nginx:$msec $host $request_method $request_uri $status $request_time"
    row = parse_chunk(b"1709287200.500 example.org POST /api/a?b=c 201 0.100\n", fmt).table.row(
        0, named=True
    )
    assert row["ts"] == datetime(2024, 3, 1, 10, 0, 0, 400_000, tzinfo=UTC)
    assert (row["server"], row["method"], row["path"], row["query"]) == (
        "example.org", "POST", "/api/a", "b=c",
    )  # fmt: skip


def test_no_known_variable_is_an_error() -> None:
    with pytest.raises(LogInputError):
        compile_nginx_format("$foo $bar")
