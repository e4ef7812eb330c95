"""A figure built on a field the log does not record is null, never 0: a latency trace
without status, sizes, clients or paths; a log shorter than a day; a log without clients.
Real inputs: the Azure LLM trace in data/logs and the demo's synthetic pool trace."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from headroom.characterizations.documents import characterization_core
from headroom.cli.workload import characterize_text, parse_log, parse_report, parse_text
from headroom.demo.samples import synthetic_trace
from headroom.engine.logs.recorded import DAY_S, fields_recorded
from headroom.engine.workload import characterize
from headroom.engine.workload.display import display_document
from headroom.engine.workload.traffic import summarize

from .conftest import MakeTable

AZURE = Path(__file__).parents[4] / "data" / "logs" / "AzureLLMInferenceTrace2023_code.csv"


@pytest.fixture(scope="module")
def pool_trace(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    path = tmp_path_factory.mktemp("trace") / "synthetic-pool-trace.csv"
    path.write_bytes(synthetic_trace())
    return parse_log(path).table


@pytest.fixture(scope="module")
def azure() -> pl.DataFrame:
    return parse_log(AZURE).table


def _trace(table: MakeTable, n: int = 400, span_s: float = 600.0) -> pl.DataFrame:
    """A latency trace: arrival and duration only (no status, size, client, path)."""
    rng = np.random.default_rng(7)
    offsets = np.sort(rng.uniform(0, span_s, n))
    return table(
        offsets,
        client=[None] * n,
        method=[None] * n,
        path=[None] * n,
        status=[None] * n,
        bytes=[None] * n,
        user_agent=[None] * n,
        latency_s=rng.exponential(0.05, n).tolist(),
    )


def test_fields_recorded_of_a_trace_is_latency_only(table: MakeTable) -> None:
    held = fields_recorded(_trace(table))
    assert held.latency
    assert not (held.status or held.bytes or held.client or held.path or held.user_agent)
    assert not held.sessions and not held.daily_profile
    assert held.span_s == pytest.approx(
        float(_trace(table)["ts"].dt.epoch("us").diff().sum()) / 1e6
    )


def test_fields_recorded_of_a_full_log(table: MakeTable) -> None:
    held = fields_recorded(table([0, 30, DAY_S], referer=["-", None, None]))
    assert held.status and held.bytes and held.client and held.path and held.referrer
    assert not held.latency
    assert held.daily_profile and held.span_s == DAY_S


def test_summary_of_a_trace_says_not_recorded_never_zero(table: MakeTable) -> None:
    summary = summarize(_trace(table).lazy())
    assert summary.request_count == 400
    assert summary.error_rate is None and summary.client_error_rate is None
    assert summary.status_counts is None and summary.bytes_total is None
    assert summary.latency is not None
    document = summary.model_dump()
    assert document["fields_recorded"]["status"] is False
    assert document["fields_recorded"]["latency"] is True


def test_summary_of_a_full_log_keeps_its_zeros(table: MakeTable) -> None:
    # a log that records status codes and sizes: no 5xx is a true 0%, zero-byte bodies 0 B
    summary = summarize(table([0, 1, 2], status=[200, 200, 404], bytes=[0, 0, 0]).lazy())
    assert summary.error_rate == 0.0 and summary.client_error_rate == pytest.approx(1 / 3)
    assert summary.bytes_total == 0
    assert summary.status_counts == {"1xx": 0, "2xx": 2, "3xx": 0, "4xx": 1, "5xx": 0}


def _assert_trace_characterization(result_dict: dict, display: dict) -> None:
    assert set(result_dict["pages"].values()) == {None}
    assert set(result_dict["sessions"].values()) == {None}
    assert "sessions_hourly" not in result_dict["arrivals"]
    assert "pages_hourly" not in result_dict["arrivals"]
    held = result_dict["fields_recorded"]
    assert held["client"] is False and held["sessions"] is False and held["path"] is False
    assert display["daily_profile"] is None
    assert display["pages_per_session"] is None
    assert display["paths"] == []


def test_characterization_of_a_synthetic_trace(table: MakeTable) -> None:
    result = characterize(_trace(table))
    tables = result.tables
    display = display_document(tables["annotated"], tables["sessions"], held=result.fields_recorded)
    _assert_trace_characterization(result.to_dict(), display)
    assert result.latency is not None


def test_characterization_of_the_demo_pool_trace(pool_trace: pl.DataFrame) -> None:
    held = fields_recorded(pool_trace)
    assert held.latency and not (held.status or held.bytes or held.client or held.path)
    assert held.span_s < DAY_S
    summary = summarize(pool_trace.lazy())
    assert summary.error_rate is None and summary.bytes_total is None
    result = characterize(pool_trace)
    tables = result.tables
    display = display_document(tables["annotated"], tables["sessions"], held=result.fields_recorded)
    _assert_trace_characterization(result.to_dict(), display)
    text = characterize_text(characterization_core(result))
    assert "sessions: not recorded" in text and "pages: not recorded" in text
    assert "sessions: 1 " not in text


def test_parse_summary_of_a_trace_says_not_recorded() -> None:
    parsed = parse_log(AZURE)
    document = parse_report(parsed)
    assert document["bytes_total"] is None and document["requests_by_status"] == {}
    text = parse_text(document)
    assert "bytes: not recorded" in text and "statuses: not recorded" in text
    assert "bytes: 0" not in text


def test_azure_trace_without_latency_status_or_bytes(azure: pl.DataFrame) -> None:
    held = fields_recorded(azure)
    assert not (held.latency or held.status or held.bytes or held.client or held.path)
    summary = summarize(azure.lazy())
    assert summary.request_count == azure.height
    assert summary.error_rate is None and summary.client_error_rate is None
    assert summary.status_counts is None and summary.bytes_total is None
    assert summary.latency is None
    result = characterize(azure).to_dict()
    assert result["sessions"]["count"] is None and result["pages"]["count"] is None


def test_short_log_has_no_daily_profile(table: MakeTable) -> None:
    offsets = np.arange(0, 20 * 60, 5.0)  # 20 minutes of a full combined log
    short = table(offsets, client=[f"10.0.0.{i % 7}" for i in range(len(offsets))])
    result = characterize(short)
    display = display_document(
        result.tables["annotated"], result.tables["sessions"], held=result.fields_recorded
    )
    assert display["daily_profile"] is None
    assert result.sessions["count"] == 7  # clients recorded: sessions are real
    assert display["pages_per_session"] is not None


def test_a_day_long_log_has_its_daily_profile(table: MakeTable) -> None:
    offsets = np.arange(0, DAY_S + 60, 600.0)
    result = characterize(table(offsets))
    display = display_document(
        result.tables["annotated"], result.tables["sessions"], held=result.fields_recorded
    )
    profile = display["daily_profile"]
    assert profile is not None and profile["days"] >= 1
    # one request every 10 minutes, stamped on the 10 minutes: the profile counts 10-minute
    # (or coarser) buckets: every minute of the day holds 0.1 requests, not 1 then nine zeros
    assert profile["every_s"] >= 600
    covered = [v for v in profile["mean_per_min"] if v is not None]
    assert covered and max(covered) == min(covered) == pytest.approx(0.1)


def test_log_without_clients_has_no_sessions_but_its_pages(table: MakeTable) -> None:
    n = 60
    paths = ["/index.html", "/a.png", "/b.css"] * (n // 3)
    result = characterize(
        table(np.arange(n) * 2.0, client=[None] * n, user_agent=[None] * n, path=paths)
    )
    doc = result.to_dict()
    assert set(doc["sessions"].values()) == {None}
    assert doc["pages"]["count"] is not None and doc["pages"]["count"] > 0
    assert doc["fields_recorded"]["sessions"] is False
    assert "sessions_hourly" not in doc["arrivals"] and "pages_hourly" in doc["arrivals"]
    text = characterize_text(characterization_core(result))
    assert "sessions: not recorded" in text and "clients (so no sessions)" in text
