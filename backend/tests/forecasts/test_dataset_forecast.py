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


def test_a_log_under_two_hours_cannot_be_forecast(settings: Settings) -> None:
    client, dataset_id = ingested(settings, "f2@example.com", log_bytes(1, 60))
    response = client.get(f"/api/v1/datasets/{dataset_id}/forecast")
    assert response.status_code == 422 and "two hours" in response.text


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
