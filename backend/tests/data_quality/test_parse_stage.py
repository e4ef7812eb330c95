"""Parse: the report's counts add up and equal the request table's."""

from __future__ import annotations

import pytest

from .cases import load_case, log_names


@pytest.mark.parametrize("name", log_names())
def test_parse_report_adds_up(name: str) -> None:
    case = load_case(name)
    if case.table is None:
        assert case.refusal, "a file that cannot be parsed says why"
        pytest.skip(f"not a log the parser reads: {case.refusal}")
    report = case.report
    assert report is not None
    assert report["lines_parsed"] == case.table.height > 0
    skipped = report.get("lines_skipped", 0)
    assert report["lines_total"] == report["lines_parsed"] + report["lines_rejected"] + skipped
    assert sum(report["requests_by_status"].values()) == case.table["status"].count()
    if case.table["bytes"].count() == 0:  # not recorded: null, never 0
        assert report["bytes_total"] is None
    else:
        assert report["bytes_total"] == int(case.table["bytes"].sum())
