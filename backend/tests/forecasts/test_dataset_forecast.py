"""GET /datasets/{id}/forecast on ingested logs, against rates worked out by hand."""

from datetime import UTC, datetime, timedelta

import pytest

from headroom.analyses.documents import CapacityReportDoc
from headroom.analyses.schemas import CapacityParamsIn
from headroom.core.settings import Settings
from headroom.forecasts.service import _limit_of
from headroom.jobs.runner import ingest_body, run_job
from support.factories import member, signed_in

START = datetime(2024, 3, 1, tzinfo=UTC)


def log_bytes(hours: int, every_s: int) -> bytes:
    stamps = (START + timedelta(seconds=s) for s in range(0, hours * 3600, every_s))
    return "".join(
        f'10.0.0.1 - - [{t:%d/%b/%Y:%H:%M:%S} +0000] "GET / HTTP/1.1" 200 10 "-" "curl/8"\n'
        for t in stamps
    ).encode()


def ingested(settings: Settings, email: str, body: bytes):  # type: ignore[no-untyped-def]
    client = signed_in(settings, member(settings, email, "Shop"))
    created = client.post("/api/v1/datasets", params={"name": "f.log"}, content=body)
    run_job(settings, created.json()["job"]["id"], ingest_body)
    return client, created.json()["id"]


def test_a_steady_log_forecasts_its_rate_and_the_runway(settings: Settings) -> None:
    """A request every 30 s for three days: 1/30 req/s every hour but the last, whose
    coverage ends 10 s (the stamps' granularity) after its last request, at 71:59:40:
    120 requests in 3580 s. The forecast holds the rate (that 0.6% at one hour, shared
    by the daily cycle, stays within 1%), a limit of 0.02 req/s is passed on the first
    forecast day, and no capacity analysis means no default limit."""
    client, dataset_id = ingested(settings, "f1@example.com", log_bytes(72, 30))
    url = f"/api/v1/datasets/{dataset_id}/forecast"
    body = client.get(url, params={"horizon_days": 3, "limit_per_s": 0.02}).json()
    assert len(body["history"]) == 72 and len(body["forecast"]) == 72
    rates = [p["rate_per_s"] for p in body["history"]]
    assert rates[:-1] == pytest.approx([1 / 30] * 71, rel=1e-4)
    assert rates[-1] == pytest.approx(120 / 3580, rel=1e-4)
    assert all(p["rate_per_s"] == pytest.approx(1 / 30, rel=1e-2) for p in body["forecast"])
    assert body["forecast"][0]["t"] == "2024-03-04T00:00:00Z"
    assert body["runway"] == {"limit_per_s": 0.02, "date": "2024-03-04", "limit_source": "given"}
    assert body["growth"]["per_week"] == pytest.approx(0, abs=0.005)  # the last hour: +0.6%
    scenario = body["peak_week_scenario"]["workload"]["arrivals"]
    assert scenario["interpolation"] == "linear" and len(scenario["profile"]) == 72
    unlimited = client.get(url, params={"horizon_days": 3}).json()["runway"]
    assert unlimited == {"limit_per_s": None, "date": None, "limit_source": None}


def log_lines(offsets_s: list[int], path: str = "/") -> bytes:
    return "".join(
        f"10.0.0.1 - - [{START + timedelta(seconds=s):%d/%b/%Y:%H:%M:%S} +0000] "
        f'"GET {path} HTTP/1.1" 200 10 "-" "curl/8"\n'
        for s in offsets_s
    ).encode()


def assert_not_enough(body: dict, reason: str, requests: int, span_s: float) -> None:  # type: ignore[type-arg]
    """No figure at all (no zero the data does not hold), and what the history holds."""
    assert body["not_enough_history"] == {
        "reason": reason,
        "requests": requests,
        "span_s": pytest.approx(span_s),
        "message": body["not_enough_history"]["message"],
    }
    assert body["not_enough_history"]["message"].startswith(
        f"not enough history to forecast: {requests} requests over "
    )
    assert body["forecast"] == [] and body["history"] == []
    for figure in ("peak_per_s", "growth", "seasonality", "runway", "peak_week_scenario"):
        assert body[figure] is None


def test_a_handful_of_lines_over_minutes_is_not_enough_history(settings: Settings) -> None:
    """Six requests over ten minutes: under two hours. The stamps are to the second, so
    the history covers from the first to one second after the last."""
    client, dataset_id = ingested(
        settings, "f2@example.com", log_lines([0, 60, 120, 300, 420, 600])
    )
    response = client.get(f"/api/v1/datasets/{dataset_id}/forecast", params={"limit_per_s": 1})
    assert response.status_code == 200, response.text
    assert_not_enough(response.json(), "too_short", 6, 601)
    assert (
        "over 10 minutes (two hours are needed)" in response.json()["not_enough_history"]["message"]
    )


def test_a_few_requests_over_hours_are_too_sparse_to_forecast(settings: Settings) -> None:
    """Six requests two hours apart: five hours of eleven hold one, the others none (the
    forecast would read the empty hours as the level: a peak of 0.00 req/s)."""
    stamps = [h * 7200 for h in range(6)]
    client, dataset_id = ingested(settings, "f3@example.com", log_lines(stamps))
    body = client.get(f"/api/v1/datasets/{dataset_id}/forecast").json()
    assert_not_enough(body, "too_sparse", 6, 10 * 3600 + 1)
    assert body["not_enough_history"]["message"].endswith("(most hours have no request)")


def test_a_slice_that_leaves_few_requests_is_not_enough_history(settings: Settings) -> None:
    """A request a minute for three days, and four to /rare ten hours apart: the slice
    /rare is too sparse (4 hours of 31 hold a request), a range of twenty minutes too
    short; the slice is named in the notes."""
    steady = log_lines(list(range(0, 72 * 3600, 60)))
    rare = log_lines([h * 3600 + 30 for h in (0, 10, 20, 30)], "/rare")
    client, dataset_id = ingested(settings, "f4@example.com", steady + rare)
    url = f"/api/v1/datasets/{dataset_id}/forecast"
    sparse = client.get(url, params={"path_prefix": "/rare"}).json()
    assert_not_enough(sparse, "too_sparse", 4, 30 * 3600 + 1)
    assert sparse["history_slice"] == {"path_prefix": "/rare"} | {
        k: None for k in sparse["history_slice"] if k != "path_prefix"
    }
    assert any("the filters" in w for w in sparse["warnings"])
    lo_ms = int(START.timestamp() * 1000) + 3600_000
    short = client.get(url, params={"from": lo_ms, "to": lo_ms + 20 * 60_000}).json()
    assert_not_enough(short, "too_short", 20, 20 * 60)  # the range bounds it
    whole = client.get(url, params={"horizon_days": 1}).json()
    assert whole["not_enough_history"] is None and whole["peak_per_s"] > 0


def report(max_rate_per_s: float | None, servers: list[str]) -> CapacityReportDoc:
    """A capacity report whose only figures are the all-requests MaxRate(T) and the servers."""
    sla = None
    if max_rate_per_s is not None:
        sla = {
            "percentile": 95.0,
            "threshold_s": 0.5,
            "max_rate_per_s": max_rate_per_s,
            "max_conn": 4.0,
            "stance": "balanced",
            "source": "knee",
            "capped": False,
        }
    everything = {
        "knee": None,
        "breaking_point_per_s": None,
        "sla": sla,
        "max_conn": None,
        "peak_load_per_s": 10.0,
        "servers_needed": None,
        "curve": [],
        "warnings": [],
    }
    return CapacityReportDoc.model_validate(
        {
            "classes": {"all": everything},
            "capacity": None,
            "capacity_reason": None,
            "per_server": bool(servers),
            "servers": servers,
            "warnings": [],
        }
    )


def test_the_default_limit_is_max_rate_times_the_servers() -> None:
    """MaxRate(T) 12/s per server, 3 servers analysed apart: 36/s; pooled (per_server off)
    the rate is the site's own: 12/s; no SLA rate: no limit."""
    per_server = report(12.0, ["a", "b", "c"])
    assert _limit_of(per_server, CapacityParamsIn()) == 36.0
    assert _limit_of(per_server, CapacityParamsIn(per_server=False)) == 12.0
    assert _limit_of(report(None, []), CapacityParamsIn()) is None
