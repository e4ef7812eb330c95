"""`headroom parse | characterize`: the JSON contract on every real log in data/logs, with
counts checked against deliberately simple reference parsers written here (a regex or a
split per line, one line at a time), and one-line exit-2 errors on unusable input."""

import json
import re
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner, Result

from headroom.cli import main
from headroom.engine.workload import workload_model_schema

DATA = Path(__file__).resolve().parents[3] / "data" / "logs"
COMBINED = '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"'
NGINX_COMBINED = (
    '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
    '"$http_referer" "$http_user_agent"'
)
PARSE_KEYS = {
    "format", "lines_total", "lines_parsed", "lines_rejected", "lines_skipped", "rejects",
    "first_ts", "last_ts", "requests_by_status", "bytes_total", "has_latency", "latency_p50_s",
    "latency_p95_s", "latency_p99_s",
}  # fmt: skip
# [vhost:port] client ident user [time] "request" status bytes ...
CLF_RE = re.compile(
    rb'^(?:\S+:\d+ )?\S+ \S+ \S+ \[([^\]]+)\] "(?:[^"\\]|\\.)*" (\d{3}) (\d+|-)(?: |$)'
)
HAPROXY_RE = re.compile(rb"haproxy\[\d+\]: \S+:\d+ \[[^\]]+\] \S+ \S+ [\d/+-]+ (\d{3}) ")
UWSGI_RE = re.compile(rb"^\[pid: .*\(HTTP/[\d.]+ (\d{3})\)")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def json_of(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def assert_one_line_error(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], lines[0]


def lines_of(path: Path) -> list[bytes]:
    return (
        path.read_bytes().split(b"\n")[:-1]
        if path.read_bytes().endswith(b"\n")
        else (path.read_bytes().split(b"\n"))
    )


def by_regex(pattern: re.Pattern[bytes]) -> Callable[[Path], Counter[str]]:
    def statuses(path: Path) -> Counter[str]:
        found = (pattern.search(line) for line in lines_of(path))
        return Counter(m.group(m.lastindex or 1).decode() for m in found if m)

    return statuses


def clf_statuses(path: Path) -> Counter[str]:
    return Counter(m.group(2).decode() for m in map(CLF_RE.match, lines_of(path)) if m)


def caddy_statuses(path: Path) -> Counter[str]:
    entries = (json.loads(line[line.index(b"{") :]) for line in lines_of(path))
    return Counter(str(e["status"]) for e in entries if "request" in e)


def structure_lines(path: Path) -> int:
    """Lines that hold no request by the format's own rules, counted independently: blank
    lines, W3C `#` directives, a CSV/TSV header (repeated or not), Caddy's own messages."""
    raw = [line.decode(errors="replace") for line in lines_of(path)]
    blank = sum(1 for t in raw if not t.strip())
    if path.suffix in (".csv", ".tsv"):
        return blank + sum(1 for t in raw if t == raw[0])
    if any(t.startswith("#Fields:") for t in raw):
        return sum(1 for t in raw if not t.strip() or t.startswith("#"))
    if "haproxy" in path.name:
        return blank + sum(1 for t in raw if re.search(r"\]: Proxy \S+ started\.$", t))
    if "caddy" in path.name:
        entries = [json.loads(t[t.index("{") :]) for t in raw if "{" in t]
        return blank + sum(1 for e in entries if "msg" in e and "request" not in e)
    return blank


def w3c_rows(path: Path) -> list[dict[str, str]]:
    rows, fields = [], []
    for line in lines_of(path):
        text = line.decode()
        if text.startswith("#Fields:"):
            fields = text.split()[1:]
        elif text and not text.startswith("#"):
            rows.append(dict(zip(fields, text.split(), strict=True)))
    return rows


def w3c_statuses(path: Path) -> Counter[str]:
    return Counter(row["sc-status"] for row in w3c_rows(path))


REFERENCE: dict[str, Callable[[Path], Counter[str]]] = {
    "apache_combined_elastic.log": clf_statuses,
    "apachelogs_vhost_combined_with_bad_line.log": clf_statuses,
    "lnav_logfile_access_log.0": clf_statuses,
    "lnav_logfile_access_log.1": clf_statuses,
    "lnav_logfile_bad_access_log.0": clf_statuses,
    "lnav_logfile_regexp_access_log.0": clf_statuses,
    "lnav_haproxy_http_timers.log": by_regex(HAPROXY_RE),
    "lnav_uwsgi_req_time.log": by_regex(UWSGI_RE),
    "lnav_caddy_json_duration.1.log": caddy_statuses,
    "lnav_caddy_json_duration.log": caddy_statuses,
    "lnav_iis_w3c_time-taken.log": w3c_statuses,
}
# files no known format reads as an access log: refused as a whole
REFUSED = (
    "apachelogs_test_vectors.jsonl",  # a peer's test vectors, not a log
    "lnav_logfile_syslog_with_access_log.0",
    "lnav_logfile_w3c.5",  # W3C lines without a #Fields header
)
PARSEABLE = sorted(p.name for p in DATA.iterdir() if p.name not in REFUSED)


@pytest.mark.parametrize("name", PARSEABLE)
def test_parse_counts_every_line_of_every_real_log(name: str) -> None:
    path = DATA / name
    doc = json_of(run("parse", str(path), "--json"))
    assert set(doc) >= PARSE_KEYS
    assert doc["lines_total"] == len(lines_of(path))
    assert doc["lines_parsed"] + doc["lines_rejected"] + doc["lines_skipped"] == doc["lines_total"]
    assert doc["lines_skipped"] == structure_lines(path)
    assert len(doc["rejects"]) == min(doc["lines_rejected"], 20)
    assert all(set(r) == {"line", "reason", "text"} for r in doc["rejects"])
    raw_lines = lines_of(path)
    for reject in doc["rejects"]:
        assert raw_lines[reject["line"] - 1].decode(errors="replace").startswith(reject["text"])
    # a request logged without a status (W3C lets a field be absent) is in no status count
    assert sum(doc["requests_by_status"].values()) <= doc["lines_parsed"]
    assert doc["first_ts"] <= doc["last_ts"] and doc["first_ts"].endswith("Z")
    if name in REFERENCE:
        expected = REFERENCE[name](path)
        assert doc["requests_by_status"] == dict(sorted(expected.items()))
        assert doc["lines_parsed"] == sum(expected.values())


def test_combined_bytes_and_time_span_match_a_regex_reading() -> None:
    path = DATA / "apache_combined_elastic.log"
    matches = [m for m in map(CLF_RE.match, lines_of(path)) if m]
    times = [datetime.strptime(m.group(1).decode(), "%d/%b/%Y:%H:%M:%S %z") for m in matches]
    doc = json_of(run("parse", str(path), "--json"))
    assert doc["bytes_total"] == sum(int(m.group(3)) for m in matches if m.group(3) != b"-")
    assert doc["first_ts"] == min(times).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert doc["last_ts"] == max(times).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert doc["has_latency"] is False and doc["latency_p95_s"] is None


@pytest.mark.parametrize(
    "name, latencies_s",
    [
        (  # a trailing %D: microseconds
            "lnav_logfile_regexp_access_log.0",
            lambda p: [int(line.rsplit(b" ", 1)[1]) / 1e6 for line in lines_of(p)],
        ),
        (  # time-taken: milliseconds
            "lnav_iis_w3c_time-taken.log",
            lambda p: [int(r["time-taken"]) / 1e3 for r in w3c_rows(p)],
        ),
    ],
)
def test_latency_percentiles_match_numpy_on_the_raw_field(
    name: str, latencies_s: Callable[[Path], list[float]]
) -> None:
    doc = json_of(run("parse", str(DATA / name), "--json"))
    values = np.array(latencies_s(DATA / name))
    assert doc["has_latency"] is True
    for q in (50, 95, 99):  # same data, same (linear) interpolation: only rounding differs
        assert doc[f"latency_p{q}_s"] == pytest.approx(np.percentile(values, q), rel=1e-9)


@pytest.mark.parametrize(
    "option, spec",
    [("--log-format", COMBINED), ("--log-format", NGINX_COMBINED), ("--format", "combined")],
)
def test_a_given_format_string_reads_what_detection_reads(option: str, spec: str) -> None:
    path = str(DATA / "apache_combined_elastic.log")
    detected = json_of(run("parse", path, "--json"))
    given = json_of(run("parse", path, option, spec, "--json"))
    if option == "--log-format":
        assert given["format"].split(":", 1)[0] in ("apache", "nginx")
        assert given["format"].split(":", 1)[1] == spec
    assert given["lines_parsed"] == detected["lines_parsed"] == 10_000
    assert given["requests_by_status"] == detected["requests_by_status"]
    assert given["bytes_total"] == detected["bytes_total"]


def test_out_writes_the_request_table_as_parquet(tmp_path: Path) -> None:
    path = DATA / "lnav_logfile_bad_access_log.0"
    doc = json_of(run("parse", str(path), "--out", str(tmp_path / "out"), "--json"))
    table = pl.read_parquet(tmp_path / "out" / "requests.parquet")
    assert table.height == doc["lines_parsed"] == 2
    assert sorted(table["status"].to_list()) == [200, 200]


def test_out_is_in_time_order_with_ties_in_file_order(tmp_path: Path) -> None:
    """A log out of time order is sorted (in order, it is written as read); requests of
    the same second keep their order in the file."""
    line = '10.0.0.1 - - [01/Mar/2024:00:00:{:02d} +0000] "GET /{} HTTP/1.1" 200 5 "-" "x"\n'
    seconds = [5, 1, 5, 3, 1, 5]
    log = tmp_path / "access.log"
    log.write_text("".join(line.format(s, i) for i, s in enumerate(seconds)))
    run("parse", str(log), "--format", "combined", "--out", str(tmp_path / "out"), "--json")
    table = pl.read_parquet(tmp_path / "out" / "requests.parquet")
    assert table["path"].to_list() == ["/1", "/4", "/3", "/0", "/2", "/5"]


def test_parse_without_json_prints_a_report() -> None:
    result = run("parse", str(DATA / "lnav_logfile_bad_access_log.0"))
    assert result.exit_code == 0, result.output
    assert "format: combined" in result.stdout and "rejected line 2" in result.stdout


def unusable_cases(tmp: Path) -> list[tuple[list[str], str]]:
    garbage = tmp / "garbage.bin"
    garbage.write_bytes(np.random.default_rng(7).bytes(200_000))
    empty = tmp / "empty.log"
    empty.write_bytes(b"")
    log = str(DATA / "apache_combined_elastic.log")
    return [
        ([str(tmp / "missing.log")], "no such file"),
        ([str(garbage)], "garbage.bin"),
        ([str(empty)], "empty.log"),
        ([log, "--log-format", "%h %Z"], "%Z"),
        ([log, "--log-format", "$bogus"], "bogus"),
        ([log, "--format", "nonsense"], "nonsense"),
        ([log, "--format", "combined", "--log-format", COMBINED], "not both"),
        ([log, "--surprise"], "surprise"),
        *[([str(DATA / name)], name) for name in REFUSED],
    ]


@pytest.mark.parametrize("command", ["parse", "characterize"])
def test_unusable_input_is_one_line_and_exit_2(command: str, tmp_path: Path) -> None:
    for args, word in unusable_cases(tmp_path):
        assert_one_line_error(run(command, *args, "--json"), word)


@pytest.mark.parametrize("name", [n for n in PARSEABLE if n in REFERENCE])
def test_characterize_gives_the_contract_on_real_logs(name: str) -> None:
    doc = json_of(run("characterize", str(DATA / name), "--json"))
    parsed = json_of(run("parse", str(DATA / name), "--json"))
    assert {"arrivals", "classes", "pages", "sessions", "fits", "model"} <= set(doc)
    assert doc["requests"] == parsed["lines_parsed"]
    arrivals = doc["arrivals"]
    assert arrivals["trough_per_min"] <= arrivals["mean_per_min"] <= arrivals["peak_per_min"]
    for shares in doc["classes"].values():
        assert sum(shares.values()) == pytest.approx(1.0, abs=1e-12)
    assert {"count", "objects_per_page_mean"} <= set(doc["pages"])
    assert {"count", "pages_per_session_mean"} <= set(doc["sessions"])
    # null, never 0, when the log lacks the field (e.g. a request line "-": no path, no pages)
    held = doc["fields_recorded"]
    pages, sessions = doc["pages"]["count"], doc["sessions"]["count"]
    assert (pages is None) == (not held["path"]) and (sessions is None) == (not held["sessions"])
    recorded = [c for c in (sessions, pages) if c is not None]
    assert recorded == sorted(recorded) and all(c <= doc["requests"] for c in recorded)
    for fit in doc["fits"].values():
        assert {"dist", "params", "aic", "ks"} <= set(fit)
    jsonschema.validate(doc["model"], workload_model_schema())


def test_characterize_per_minute_figures_match_a_count_of_the_log() -> None:
    # every request of this log is stamped within minute :05 of its hour: the timestamps
    # resolve the hour only, so the rates are per hour (not a fake 67x per-minute peak)
    path = DATA / "apache_combined_elastic.log"
    matches = [m for m in map(CLF_RE.match, lines_of(path)) if m]
    hours = Counter(m.group(1)[:14] for m in matches)  # dd/Mon/yyyy:HH
    assert {m.group(1)[15:17] for m in matches} == {b"05"}
    doc = json_of(run("characterize", str(path), "--json"))
    assert doc["arrivals"]["every_s"] == 3600
    assert doc["arrivals"]["timestamp_granularity_s"] == 3600
    assert doc["arrivals"]["peak_per_min"] == pytest.approx(max(hours.values()) / 60)
    assert doc["arrivals"]["peak_to_mean"] < 2
    result = run("characterize", str(path))
    assert result.exit_code == 0 and "requests: 10000" in result.stdout
