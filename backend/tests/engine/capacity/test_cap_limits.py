"""Absurd capacity inputs get a one-line refusal naming the parameter: infinite partition
limits (the K formula gave NaN: 'cannot convert float NaN to integer') and SCT intervals
so short that their count exceeds any trace's requests."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from headroom.cli import main
from headroom.engine.capacity import SctParams, partition_report


@pytest.mark.parametrize("name", ["maxconn_sla", "maxconn", "top_fraction"])
@pytest.mark.parametrize("value", [math.inf, math.nan])
def test_partition_refuses_non_finite_limits(name: str, value: float) -> None:
    args = {"top_fraction": 0.2, "maxconn_sla": 100.0, "maxconn": 150.0, name: value}
    with pytest.raises(ValueError, match=f"^{name} must be a finite number"):
        partition_report(4, args["top_fraction"], args["maxconn_sla"], args["maxconn"])


def test_partition_cli_refuses_infinite_limits_in_one_line() -> None:
    result = CliRunner().invoke(
        main,
        ["partition", "--servers", "4", "--top-fraction", "0.2", "--maxconn-sla", "inf",
         "--maxconn", "inf"],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == (
        "Error: Invalid value for '--maxconn-sla': inf is out of range; use more than 0"
    )


@pytest.mark.parametrize("interval_ms", [1e-7, 0.05, math.inf, math.nan, 1e9])
def test_sct_interval_out_of_range_is_refused(interval_ms: float) -> None:
    with pytest.raises(ValueError, match=r"interval_ms must be between 0\.1 and 60000"):
        SctParams(interval_ms=interval_ms).validate()


def test_sct_cli_refuses_a_tiny_interval_in_one_line(tmp_path: Path) -> None:
    trace = tmp_path / "t.csv"
    trace.write_text("timestamp,latency_s,server\n2024-05-01T12:00:00Z,0.1,a\n")
    result = CliRunner().invoke(main, ["sct", str(trace), "--interval-ms", "1e-7"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "'--interval-ms': 1e-7 is out of range" in lines[0], lines
    assert "use 0.1 to 60,000 ms" in lines[0]
