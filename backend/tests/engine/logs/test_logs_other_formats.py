"""Caddy JSON, JSON field maps, W3C/IIS, HAProxy and uWSGI against simple references."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from headroom.engine.logs import detect_format, parse_chunk


def test_caddy_access_entries_match_json_reference(data_dir: Path) -> None:
    data = (data_dir / "lnav_caddy_json_duration.1.log").read_bytes()
    ref = [json.loads(line) for line in data.decode().splitlines()]
    table = parse_chunk(data, "caddy").table
    assert table["status"].to_list() == [r["status"] for r in ref]
    assert table["bytes"].to_list() == [r["size"] for r in ref]
    assert table["latency_s"].to_list() == [r["duration"] for r in ref]
    assert table["client"].to_list() == [r["request"]["client_ip"] for r in ref]
    arrival_s = [r["ts"] - r["duration"] for r in ref]  # ts is written at completion
    got = (table["ts"].dt.epoch("ns") / 1e9).to_list()
    assert got == pytest.approx(arrival_s, abs=1e-6)  # float seconds carry ~0.2 us


def test_caddy_in_compose_output_skips_caddys_own_messages(data_dir: Path) -> None:
    parsed = parse_chunk((data_dir / "lnav_caddy_json_duration.log").read_bytes(), "caddy")
    assert (parsed.line_count, parsed.table.height) == (39, 4)
    assert (parsed.reject_count, parsed.skip_count) == (0, 35)  # "server running" etc.
    assert parsed.table["path"].to_list() == ["/", "/", "/", "/index.html"]


def test_json_field_map_with_iso_times() -> None:
    spec = json.dumps(
        {
            "fields": {"ts": "$.t", "url": "$.u", "status": "$.s", "latency": "$.ms"},
            "time": "iso8601",
            "latency_unit": "ms",
        }
    )
    data = (
        b'{"t": "2024-03-01T10:00:00.5+01:00", "u": "/a?b=1", "s": 200, "ms": 12.5}\n'
        b'{"t": "2024-03-01T09:00:01Z", "u": "/c", "s": "404", "ms": null}\n'
        b"not json\n"
    )
    parsed = parse_chunk(data, f"json:{spec}")
    assert parsed.reject_count == 1 and parsed.rejects[0].line_number == 3
    t = parsed.table
    assert t["ts"].to_list() == [
        datetime(2024, 3, 1, 9, 0, 0, 500_000, tzinfo=UTC),
        datetime(2024, 3, 1, 9, 0, 1, tzinfo=UTC),
    ]
    assert t["path"].to_list() == ["/a", "/c"] and t["query"].to_list() == ["b=1", None]
    assert t["latency_s"].to_list() == [0.0125, None] and t["status"].to_list() == [200, 404]


def _iis_reference(text: str) -> pl.DataFrame:
    rows, names = [], []
    for line in text.splitlines():
        if line.startswith("#Fields:"):
            names = line.split()[1:]
        elif line and not line.startswith("#"):
            v = dict(zip(names, line.split(), strict=True))
            when = datetime.fromisoformat(f"{v['date']}T{v['time']}+00:00")
            rows.append({"status": int(v["sc-status"]), "bytes": int(v["sc-bytes"]),
                         "latency_s": int(v["time-taken"]) / 1000, "client": v["c-ip"],
                         "ts": when})  # fmt: skip
    return pl.DataFrame(rows)


def test_iis_w3c_matches_reference_and_counts_directives(data_dir: Path) -> None:
    text = (data_dir / "lnav_iis_w3c_time-taken.log").read_text()
    parsed = parse_chunk(text.encode(), "w3c")
    ref = _iis_reference(text)
    assert (parsed.line_count, parsed.table.height, ref.height) == (254, 210, 210)
    assert (parsed.reject_count, parsed.skip_count) == (0, 44)  # the 44 directive lines
    ours = parsed.table.select(ref.columns).with_columns(pl.col("status").cast(pl.Int64))
    exact = [c for c in ref.columns if c != "latency_s"]
    assert ours.select(exact).equals(ref.select(exact))
    # polars divides by multiplying with 1/1000: equal to 1 ulp, not bit for bit
    assert ours["latency_s"].to_list() == pytest.approx(ref["latency_s"].to_list(), rel=1e-12)


def test_w3c_fields_change_mid_file_and_chunk_without_header() -> None:
    data = (
        b"#Fields: date time c-ip sc-status time-taken\n"
        b"2020-01-01 00:00:01 1.1.1.1 200 15\n"
        b"#Fields: time-taken sc-status date time cs-uri-stem\n"
        b"7 404 2020-01-01 00:00:02 /x\n"
    )
    t = parse_chunk(data, "w3c").table
    assert t["status"].to_list() == [200, 404] and t["latency_s"].to_list() == [0.015, 0.007]
    assert t["path"].to_list() == [None, "/x"]
    later = parse_chunk(
        b"9 200 2020-01-02 00:00:00 /y\n", "w3c:time-taken sc-status date time cs-uri-stem"
    )
    assert later.table["path"].to_list() == ["/y"]
    assert parse_chunk(b"9 200 2020-01-02 00:00:00 /y\n", "w3c").reject_count == 1


def test_detection_names_w3c_header(data_dir: Path) -> None:
    detection = detect_format((data_dir / "lnav_iis_w3c_time-taken.log").read_bytes())
    assert detection.format.startswith("w3c:date time s-ip cs-method")
    assert detection.parsed_fraction == 1.0  # directives are not data lines


HAPROXY_TT = re.compile(r"\] \S+ (\S+) -?\d+/-?\d+/-?\d+/-?\d+/\+?(-?\d+) (\d+) (\d+) .*\"(\S+) ")


def test_haproxy_timers_match_regex_reference(data_dir: Path) -> None:
    text = (data_dir / "lnav_haproxy_http_timers.log").read_text()
    ref = [m.groups() for m in map(HAPROXY_TT.search, text.splitlines()) if m]
    parsed = parse_chunk(text.encode(), "haproxy")
    assert (parsed.line_count, parsed.table.height, len(ref)) == (17, 13, 13)
    t = parsed.table
    assert t["server"].to_list() == [r[0] for r in ref]
    assert t["latency_s"].to_list() == [int(r[1]) / 1000 for r in ref]
    assert t["status"].to_list() == [int(r[2]) for r in ref]
    assert t["method"].to_list() == [r[4] for r in ref]
    assert t["ts"][0] == datetime(2019, 2, 25, 16, 19, 48, 143_000, tzinfo=UTC)


UWSGI = re.compile(r"generated (\d+) bytes in (\d+) (msecs|micros) \(HTTP/1.1 (\d+)\)")


def test_uwsgi_mixed_units_match_regex_reference(data_dir: Path) -> None:
    text = (data_dir / "lnav_uwsgi_req_time.log").read_text()
    ref = [UWSGI.search(line).groups() for line in text.splitlines()]  # type: ignore[union-attr]
    t = parse_chunk(text.encode(), "uwsgi").table
    scale = {"msecs": 1e-3, "micros": 1e-6}
    assert t["latency_s"].to_list() == pytest.approx([int(v) * scale[u] for _, v, u, _ in ref])
    assert t["bytes"].to_list() == [int(b) for b, _, _, _ in ref]
    assert t["status"].to_list() == [int(s) for _, _, _, s in ref]
    assert t["ts"][0] == datetime(2016, 3, 13, 22, 49, 12, tzinfo=UTC)
