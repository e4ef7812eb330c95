"""Format detection: choice, latency unit decision and refusal with the closest format."""

from __future__ import annotations

from pathlib import Path

import pytest

from headroom.engine.logs import UnrecognisedLogError, detect_format

BASE = '1.2.3.4 - - [01/Jan/2020:00:00:{s:02d} +0000] "GET /{s} HTTP/1.1" 200 {s}'
COMBINED = BASE + ' "-" "ua"'


def _log(template: str, suffixes: list[str]) -> bytes:
    lines = [template.format(s=i % 60) + suffix for i, suffix in enumerate(suffixes)]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize(
    ("name", "expected", "fields"),
    [
        ("apache_combined_elastic.log", "combined", 1.0),
        ("lnav_logfile_access_log.0", "combined", 1.0),
        ("apachelogs_vhost_combined_with_bad_line.log", "vhost_combined", 6 / 7),
        ("lnav_logfile_regexp_access_log.0", "vhost_combined_latency_us", 1.0),
    ],
)
def test_real_files_detected(data_dir: Path, name: str, expected: str, fields: float) -> None:
    detection = detect_format((data_dir / name).read_bytes())
    assert detection.format == expected
    assert detection.parsed_fraction == pytest.approx(fields)
    assert 0 < detection.confidence <= detection.parsed_fraction


def test_common_vs_combined_by_fields() -> None:
    assert detect_format(_log(BASE, [""] * 20)).format == "common"
    assert detect_format(_log(COMBINED, [""] * 20)).format == "combined"


@pytest.mark.parametrize(
    ("values", "unit"),
    [
        (["0.012", "0.000", "1.5"], "s"),  # nginx $request_time
        (["1534", "20001", "873"], "us"),  # Apache %D
        (["0", "1", "0"], "s"),  # Apache %T
        (["15", "230", "42"], "ms"),  # %{ms}T (ambiguous range, noted)
    ],
)
def test_latency_unit_decision(values: list[str], unit: str) -> None:
    detection = detect_format(_log(COMBINED, [" " + v for v in values * 10]))
    assert detection.format == f"combined_latency_{unit}"
    assert detection.latency_unit == unit
    assert any("response time" in n for n in detection.notes)


def test_refusal_names_closest_format_and_failing_line(data_dir: Path) -> None:
    with pytest.raises(UnrecognisedLogError) as info:
        detect_format((data_dir / "lnav_logfile_syslog_with_access_log.0").read_bytes())
    err = info.value
    assert err.code == "unparseable_log" and err.closest_format is not None
    assert err.line_number == 1 and err.line is not None and err.line.startswith("Jan  3 09:47:02")


def test_half_parseable_threshold() -> None:
    good = COMBINED.format(s=1)
    assert detect_format(f"{good}\n{good}\nnonsense\nnonsense\n".encode()).parsed_fraction == 0.5
    with pytest.raises(UnrecognisedLogError):
        detect_format(f"{good}\nnonsense\nnonsense\n".encode())


def test_empty_sample_refused() -> None:
    with pytest.raises(UnrecognisedLogError):
        detect_format(b"")
