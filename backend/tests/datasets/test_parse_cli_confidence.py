"""`headroom parse --json` reports the detection's confidence (an additive contract key)."""

import json
from pathlib import Path

from click.testing import CliRunner

from headroom.cli import main
from headroom.engine.logs import detect_format

DATA = Path(__file__).resolve().parents[3] / "data" / "logs"
CONTRACT = {
    "format", "lines_total", "lines_parsed", "lines_rejected", "lines_skipped", "rejects",
    "first_ts", "last_ts", "requests_by_status", "bytes_total", "has_latency",
    "latency_p50_s", "latency_p95_s", "latency_p99_s", "format_confidence",
}  # fmt: skip


def parse_json(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(main, ["parse", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_auto_detection_reports_its_confidence() -> None:
    path = DATA / "apachelogs_vhost_combined_with_bad_line.log"
    doc = parse_json(str(path))
    assert set(doc) == CONTRACT
    expected = detect_format(path.read_bytes()[: 1 << 20])  # the file is under 1 MB
    assert doc["format"] == expected.format
    assert doc["format_confidence"] == expected.confidence
    assert 0.5 <= doc["format_confidence"] < 1.0  # one bad line in the sample


def test_a_given_format_has_no_detection_confidence() -> None:
    doc = parse_json(str(DATA / "apache_combined_elastic.log"), "--format", "combined")
    assert set(doc) == CONTRACT
    assert doc["format"] == "combined" and doc["format_confidence"] is None
