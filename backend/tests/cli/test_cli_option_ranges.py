"""Every numeric option of every `headroom` command refuses a value out of its range in the
command line's words: exit 2, the option's name, the allowed range and its unit, never the
engine's parameter names nor a traceback."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from headroom.cli import main
from headroom.cli.options import Range

PARTITION = ["partition", "--servers", "4", "--top-fraction", ".2", "--maxconn-sla", "1"]
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # window_s, interval_ms, top_fraction, ...

CASES = [
    (
        ["analyze", "x.log", "--window-s", "-5"],
        "--window-s",
        "more than 0 and at most 86,400 seconds",
    ),
    (["analyze", "x.log", "--window-s", "0"], "--window-s", "more than 0"),
    (["analyze", "x.log", "--percentile", "100"], "--percentile", "50 to 99.9"),
    (["analyze", "x.log", "--threshold-s", "-1"], "--threshold-s", "3,600 seconds"),
    (["analyze", "x.log", "--bins", "1"], "--bins", "2 to 200"),
    (["analyze", "x.log", "--bins", "2.5"], "--bins", "not a whole number"),
    (["analyze", "x.log", "--model-servers", "0"], "--model-servers", "1 to 10,000"),
    (["sct", "t.csv", "--interval-ms", "-50"], "--interval-ms", "0.1 to 60,000 ms"),
    (["sct", "t.csv", "--window-s", "-1"], "--window-s", "seconds"),
    ([*PARTITION, "--maxconn", "0"], "--maxconn", "more than 0"),
    (["partition", "--servers", "0"], "--servers", "at least 2"),
    (["partition", "--servers", "4", "--top-fraction", "-0.1"], "--top-fraction", "0 to 1"),
    (["background", "s.csv", "--static-quota", "2"], "--static-quota", "0 to 1"),
    (["background", "s.csv", "--min-multiplier", "0.5"], "--min-multiplier", "1 to 16"),
    (["check", "d", "--max-p95-s", "0"], "--max-p95-s", "more than 0 seconds"),
    (["check", "d", "--max-regression", "-1"], "--max-regression", "0 to 1"),
    (["simulate", "s.yaml", "--seed", "-1"], "--seed", "0 to 2,147,483,647"),
    (
        ["simulate", "--model", "m.json", "--duration-s", "nan"],
        "--duration-s",
        "more than 0 seconds",
    ),
    (["upload", "x.log", "--workspace-id", "0"], "--workspace-id", "at least 1"),
    (["upload", "x.log", "--chunk-bytes", "10"], "--chunk-bytes", "1,024 to 16,777,216 bytes"),
    (
        ["report", "create", "--title", "t", "--expires-days", "0"],
        "--expires-days",
        "1 to 3,650 days",
    ),
    (["report", "list", "--workspace-id", "-3"], "--workspace-id", "at least 1"),
    (["report", "export", "0", "-o", "r.html"], "REPORT_ID", "at least 1"),
    (["serve", "--port", "0"], "--port", "1 to 65,535"),
    (["serve", "--workers", "0"], "--workers", "at least 1"),
    (["worker", "--concurrency", "0"], "--concurrency", "at least 1"),
    (
        ["admin", "create-token", "a@b.c", "--workspace", "w", "--expires-days", "0"],
        "--expires-days",
        "at least 1 days",
    ),
    (["admin", "janitor", "--grace-s", "-1"], "--grace-s", "at least 0 seconds"),
]


@pytest.mark.parametrize(("args", "option", "allowed"), CASES, ids=lambda v: str(v)[:40])
def test_out_of_range_options_are_refused_in_the_command_line_words(
    args: list[str], option: str, allowed: str
) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("Error: Invalid value for ") and f"'{option}'" in error, error
    assert f"use {allowed}" in error or allowed in error, error
    assert not SNAKE.search(error.split(":", 2)[-1]), error


def test_a_range_converts_in_range_values_and_refuses_the_rest() -> None:
    seconds = Range(float, 0, 3600, low_open=True, unit="seconds")
    assert seconds.convert("2.5", None, None) == 2.5 and seconds.convert(3600, None, None) == 3600
    for bad in ("0", "-1", "3600.5", "inf", "nan", "soon"):
        with pytest.raises(click.BadParameter):
            seconds.convert(bad, None, None)
    count = Range(int, 1)
    assert count.convert("1_000", None, None) == 1000
    with pytest.raises(click.BadParameter, match=r"'1\.5' is not a whole number; use at least 1"):
        count.convert("1.5", None, None)
    assert Range(float, 0, 1).allowed() == "0 to 1"
