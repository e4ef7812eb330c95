"""`headroom forecast` on local files: a `timestamp,requests` CSV, an access log (its
hourly history checked against a count made here from the log's own lines), and the
rate series of data/rates."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from headroom.cli.forecast import forecast_command

DATA = Path(__file__).resolve().parents[3] / "data"
START = datetime(2026, 3, 2, tzinfo=UTC)


def run(*args: str) -> dict:
    result = CliRunner().invoke(forecast_command, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def minute_csv(path: Path, days: int, per_minute: int) -> Path:
    rows = [
        f"{(START + timedelta(minutes=m)).isoformat()},{per_minute}" for m in range(days * 1440)
    ]
    path.write_text("timestamp,requests\n" + "\n".join(rows) + "\n")
    return path


def test_a_flat_csv_and_the_limit_either_side(tmp_path: Path) -> None:
    """120 requests a minute for three days: 2 req/s every hour, forecast at 2 req/s (no
    growth), so a limit of 3 is never passed and one of 1.5 on the first forecast day."""
    csv = minute_csv(tmp_path / "flat.csv", 3, 120)
    doc = run(str(csv), "--horizon-days", "5", "--limit-per-s", "3")
    assert set(doc) >= {"forecast", "growth", "seasonality", "runway", "backtest"}
    assert len(doc["forecast"]) == 5 * 24 and doc["forecast"][0]["t"] == "2026-03-05T00:00:00Z"
    assert all(p["rate_per_s"] == pytest.approx(2.0) for p in doc["forecast"])
    assert all(h["rate_per_s"] == pytest.approx(2.0) for h in doc["history"])
    assert doc["growth"]["per_week"] == pytest.approx(0.0, abs=1e-9)
    assert doc["runway"] == {"limit_per_s": 3.0, "date": None}
    assert doc["seasonality"] == {"daily": True, "weekly": False}
    assert "under two weeks" in doc["warnings"][0]
    lower = run(str(csv), "--horizon-days", "5", "--limit-per-s", "1.5")
    assert lower["runway"] == {"limit_per_s": 1.5, "date": "2026-03-05"}


def test_an_access_log_counted_per_hour() -> None:
    """The sample log, counted here with a regular expression: a whole hour's rate is its
    requests over 3600 s; the first and last hours' lie between that and their requests
    over the seconds from the first request (to the last): the log's coverage of those
    hours depends on its timestamps' granularity (docs/methods/forecast.md)."""
    log = DATA / "logs" / "apache_combined_elastic.log"
    stamps = [
        datetime.strptime(m, "%d/%b/%Y:%H:%M:%S %z")
        for m in re.findall(r"\[([^\]]+)\]", log.read_text(errors="replace"))
    ]
    hours = Counter(s.replace(minute=0, second=0) for s in stamps)
    first, last = min(stamps), max(stamps) + timedelta(seconds=1)
    doc = run(str(log), "--horizon-days", "2")
    assert len(doc["history"]) == len(hours) > 48
    for point in doc["history"]:
        hour = datetime.strptime(point["t"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        seconds = (min(hour + timedelta(hours=1), last) - max(hour, first)).total_seconds()
        whole = hours[hour] / 3600
        assert whole - 1e-6 <= point["rate_per_s"] <= hours[hour] / seconds + 1e-6
        if seconds == 3600:
            assert point["rate_per_s"] == pytest.approx(whole, abs=1e-6)


@pytest.mark.parametrize(
    "name",
    [
        "worldcup98_requests_per_minute_utc.csv.gz",
        "sdsc_http_requests_per_minute.tsv",
        "nginxplus_request_rate_derived.csv",
    ],
)
def test_the_rate_series(name: str) -> None:
    doc = run(str(DATA / "rates" / name), "--horizon-days", "7")
    assert len(doc["forecast"]) == 7 * 24 and doc["runway"]["limit_per_s"] is None


def test_an_unreadable_file_is_one_line_and_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("timestamp,requests\nyesterday,5\n")
    result = CliRunner().invoke(forecast_command, [str(bad)])
    assert result.exit_code == 2 and "unreadable timestamp" in result.output
