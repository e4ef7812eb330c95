"""Apache LogFormat compilation, checked against jwodder/apachelogs' test vectors."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from headroom.engine.logs import LogInputError, parse_chunk
from headroom.engine.logs.apache import compile_log_format
from headroom.engine.logs.parse import as_buffer

# entries our line-based reader cannot take, with why
UNSUPPORTED = {
    "2019 \t 05 \n 19": "a newline inside the entry splits it into two lines",
    "12:34:56 ": "trailing whitespace is trimmed from lines, so %p has nothing to read",
    "19 Mär 2019 01:39:12 +0000": "German month names",
    "19 März 2019 01:39:12 +0000": "German month names",
}


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


def test_parse_vectors_match_apachelogs_fields(data_dir: Path) -> None:
    vectors = _vectors(data_dir, "test_parse", "test_parse_custom_time")
    checked = 0
    for v in vectors:
        if v["entry"] in UNSUPPORTED:
            continue
        parsed = parse_chunk(v["entry"].encode(), compile_log_format(v["fmt"]).name)
        assert parsed.reject_count == 0, (v["fmt"], v["entry"], parsed.rejects)
        row = parsed.table.row(0, named=True)
        for column, value in _expected(v.get("fields") or {}).items():
            got = row[column]
            if column == "latency_s":
                assert got == pytest.approx(value), (v["fmt"], column)
            else:
                assert got == value, (v["fmt"], v["entry"], column, got, value)
        checked += 1
    assert (len(vectors), checked) == (72, 70)  # two of UNSUPPORTED are among these


@pytest.mark.parametrize("entry", sorted(UNSUPPORTED))
def test_unsupported_entries_are_rejects_not_crashes(data_dir: Path, entry: str) -> None:
    (v,) = [
        v for v in _vectors(data_dir, "test_parse_custom_time", "test_parse_custom_german_time")
        if v["entry"] == entry
    ]  # fmt: skip
    parsed = parse_chunk(v["entry"].encode(), compile_log_format(v["fmt"]).name)
    assert parsed.table.height + parsed.reject_count == parsed.line_count


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
