"""Every real log in data/logs: the characterization job's document (figures and chart
data) made one range of clients at a time equals the one-pass document exactly."""

import json
from pathlib import Path
from typing import Any

import pytest

from headroom.analyses.tables import jsonable
from headroom.characterizations.run import result_document
from headroom.cli.workload import parse_log
from headroom.engine.logs import LogInputError
from headroom.engine.workload import characterize
from headroom.engine.workload.buckets import MIN_BUCKET_ROWS, client_ranges

LOGS = Path(__file__).parents[3] / "data" / "logs"
TINY_BUDGET_MB = 1  # MIN_BUCKET_ROWS requests a range


def _json(document: dict[str, Any]) -> str:
    return json.dumps(jsonable(document), sort_keys=True, default=str)


@pytest.mark.parametrize("name", sorted(p.name for p in LOGS.iterdir() if p.is_file()))
def test_ranges_of_clients_equal_the_one_pass_document(name: str) -> None:
    try:
        table = parse_log(LOGS / name).table
    except LogInputError:
        pytest.skip("not a log format Headroom reads")
    expected = _json(result_document(characterize(table)))
    bucketed = result_document(characterize(table, memory_budget_mb=TINY_BUDGET_MB))
    assert _json(bucketed) == expected


def test_a_real_log_is_cut_into_many_ranges() -> None:
    """10,000 NASA requests of many hosts: the tiny budget's ranges are several."""
    table = parse_log(LOGS / "nasa_19950701_first10k.tsv").table
    assert len(client_ranges(table.lazy(), MIN_BUCKET_ROWS)) >= 5
