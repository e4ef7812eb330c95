"""SCT analyses and simulation sweeps as report items, from documents the real pipeline made
(sct_sweep_sources): the SCT figures against the synthetic trace's construction (app-1's best
pool size is 10 and its plateau ends at 20; app-2's 20 and 30) and the USL's closed-form
peak; the sweep's Pareto frontier against a brute-force dominance check; exports (inline
SVG scatter and range, escaping, CSV, JSON); access (another workspace's item: 404)."""

import io
import json
import math
import zipfile
from typing import Any

import pytest
from fastapi.testclient import TestClient
from reports.report_sources import Documents, plant
from reports.sct_sweep_sources import (
    PlantedSctSweep,
    SctSweepDocuments,
    load_sct_sweep,
    plant_sct_sweep,
)

from headroom.core.settings import Settings
from headroom.reports.schemas import Chart, Range, Series
from headroom.reports.svg import render_chart
from headroom.workspaces.models import Role
from support.factories import Member, member, signed_in

HOSTILE = '<img src=x onerror="alert(1)">'


@pytest.fixture(scope="module")
def docs() -> SctSweepDocuments:
    return load_sct_sweep()


@pytest.fixture
def owner(settings: Settings) -> Member:
    return member(settings, "owner@example.com", "Team")


@pytest.fixture
def planted(settings: Settings, docs: SctSweepDocuments, owner: Member) -> PlantedSctSweep:
    return plant_sct_sweep(settings, docs, owner.workspace_id)


def report_with(client: TestClient, *items: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/reports", json={"title": "Pools", "items": list(items)})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def figures(item: dict[str, Any]) -> dict[str, float | None]:
    return {f["key"]: f["value"] for f in item["figures"]}


def charts(item: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["key"]: c for c in item["charts"]}


def series(chart: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["key"]: s for s in chart["series"]}


def test_an_sct_item_holds_the_pool_sizes_the_trace_was_built_with(
    settings: Settings, owner: Member, planted: PlantedSctSweep, docs: SctSweepDocuments
) -> None:
    client = signed_in(settings, owner)
    first, second = report_with(
        client,
        {"kind": "sct", "source_id": planted.sct_id},
        {"kind": "sct", "source_id": planted.sct_id, "view": "app-2"},
    )["items"]
    assert first["view"] == "app-1" and second["view"] == "app-2"  # default: the first server
    assert first["title"] == "Concurrency of trace.csv — app-1"
    assert first["params"] == {
        "dataset": "trace.csv",
        "interval_ms": 50.0,
        "window_s": 180.0,
        "server": "app-1",
    }
    # synthetic_trace(): app-1 holds its peak from 10 to 20 in flight, app-2 from 20 to 30
    assert (figures(first)["q_lower"], figures(first)["q_upper"]) == (10, 20)
    assert (figures(second)["q_lower"], figures(second)["q_upper"]) == (20, 30)
    server = docs.sct["servers"]["app-1"]
    assert figures(first)["tp_max"] == server["tp_max_per_s"]
    scatter = charts(first)["sct_throughput"]
    assert scatter["ranges"] == [{"label": "rational range", "x1": 10.0, "x2": 20.0}]
    measured = series(scatter)["tp"]
    assert measured["points"] and measured["x"] == [lv["n"] for lv in server["levels"]]
    assert series(scatter)["trend"]["x"] == [k["n"] for k in server["trend"]]
    assert [m["label"] for m in scatter["marks"]][:2] == ["Q_lower 10: pool size", "Q_upper 20"]
    response = charts(first)["sct_response"]
    assert series(response)["rt"]["points"] and response["ranges"] == scatter["ranges"]


def test_the_usl_curve_peaks_where_its_closed_form_says(
    settings: Settings, owner: Member, planted: PlantedSctSweep, docs: SctSweepDocuments
) -> None:
    """USL: X(N) peaks at N* = sqrt((1 - sigma) / kappa) (Gunther); the item's curve,
    evaluated at the observed levels, peaks at the level next to it."""
    client = signed_in(settings, owner)
    for name in ("app-1", "app-2"):
        (item,) = report_with(client, {"kind": "sct", "source_id": planted.sct_id, "view": name})[
            "items"
        ]
        usl = docs.sct["servers"][name]["usl"]
        n_star = math.sqrt((1 - usl["sigma"]) / usl["kappa"])
        assert n_star == pytest.approx(usl["n_star"], rel=1e-9)
        curve = series(charts(item)["sct_throughput"])["usl"]
        peak = max(zip(curve["y"], curve["x"], strict=True))[1]
        assert abs(peak - n_star) <= 1.0  # the levels are integers
        assert curve["dashed"] and f"USL N* {n_star:.1f}" in {
            m["label"] for m in charts(item)["sct_throughput"]["marks"]
        }


def dominated(p: tuple[float, float], others: list[tuple[float, float]]) -> bool:
    return any(o[0] <= p[0] and o[1] <= p[1] and o != p for o in others)


def test_a_sweep_item_draws_the_cost_against_sla_violation_frontier(
    settings: Settings, owner: Member, planted: PlantedSctSweep, docs: SctSweepDocuments
) -> None:
    client = signed_in(settings, owner)
    (item,) = report_with(client, {"kind": "sweep", "source_id": planted.sweep_id})["items"]
    runs = docs.sweep_result["runs"]
    points = [(r["cost"], r["sla_violation_fraction"]) for r in runs]
    pareto = sorted(p for p in points if not dominated(p, points))
    frontier = charts(item)["frontier"]
    drawn = series(frontier)
    assert sorted(zip(drawn["pareto"]["x"], drawn["pareto"]["y"], strict=True)) == pareto
    others = sorted(zip(drawn["runs"]["x"], drawn["runs"]["y"], strict=True))
    assert sorted(pareto + others) == sorted(points) and drawn["runs"]["points"]
    assert drawn["front"]["x"] == [p[0] for p in pareto] and not drawn["front"]["points"]
    assert (frontier["kind"], frontier["x_unit"], frontier["y_unit"]) == (
        "step",
        "cost",
        "fraction",
    )
    clean = [r for r in runs if r["sla_violation_fraction"] == 0]
    best = min(clean, key=lambda r: r["cost"])
    assert figures(item)["runs"] == len(runs) == 6
    assert figures(item)["pareto_runs"] == len(pareto)
    assert figures(item)["best_cost"] == best["cost"]
    assert figures(item)["best_sla_violations"] == 0.0
    assert item["params"]["best_values"] == best["values"]
    assert frontier["marks"] == [
        {"label": f"Best: run {best['index'] + 1}", "x": best["cost"], "y": 0.0}
    ]
    assert item["params"]["axes"][0]["path"] == "cluster.vms.start"


def test_kinds_must_match_their_source(
    settings: Settings, documents: Documents, owner: Member, planted: PlantedSctSweep
) -> None:
    client = signed_in(settings, owner)
    other = plant(settings, documents, owner.workspace_id)
    report = report_with(client)
    cases = [
        ({"kind": "sct", "source_id": other.analysis_id}, "a capacity analysis"),
        ({"kind": "capacity", "source_id": planted.sct_id}, "an sct analysis"),
        ({"kind": "sweep", "source_id": other.simulation_id}, "a single run"),
        ({"kind": "simulation", "source_id": planted.sweep_id}, "a sweep"),
    ]
    for body, says in cases:
        refused = client.post(f"/api/v1/reports/{report['id']}/items", json=body)
        error = refused.json()["error"]
        assert refused.status_code == 422 and error["code"] == "invalid_item", body
        assert error["field"] == "kind" and says.split()[-1] in error["message"], error
    unknown = client.post(
        f"/api/v1/reports/{report['id']}/items",
        json={"kind": "sct", "source_id": planted.sct_id, "view": "app-9"},
    )
    assert unknown.status_code == 422
    assert unknown.json()["error"]["message"] == (
        "no server 'app-9' in the SCT analysis (it has app-1, app-2)"
    )


def test_another_workspaces_sct_or_sweep_is_not_found(
    settings: Settings, docs: SctSweepDocuments, owner: Member
) -> None:
    stranger = member(settings, "stranger@example.com", "Elsewhere")
    theirs = plant_sct_sweep(settings, docs, stranger.workspace_id, name="theirs.csv")
    client = signed_in(settings, owner)
    report = report_with(client)
    for body in (
        {"kind": "sct", "source_id": theirs.sct_id},
        {"kind": "sweep", "source_id": theirs.sweep_id},
    ):
        refused = client.post(f"/api/v1/reports/{report['id']}/items", json=body)
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    viewer = member(settings, "viewer@example.com", "Team", Role.viewer)
    mine = plant_sct_sweep(settings, docs, owner.workspace_id, name="mine.csv")
    as_viewer = signed_in(settings, viewer)
    body = {"kind": "sweep", "source_id": mine.sweep_id}
    assert as_viewer.post(f"/api/v1/reports/{report['id']}/items", json=body).status_code == 403


def test_exports_draw_the_scatter_and_range_and_escape_names(
    settings: Settings, docs: SctSweepDocuments, owner: Member
) -> None:
    servers = docs.sct["servers"]
    hostile = {**docs.sct, "servers": {HOSTILE: servers["app-1"], "app-2": servers["app-2"]}}
    planted = plant_sct_sweep(
        settings, SctSweepDocuments(**{**docs.__dict__, "sct": hostile}), owner.workspace_id
    )
    client = signed_in(settings, owner)
    report = report_with(
        client,
        {"kind": "sct", "source_id": planted.sct_id},
        {"kind": "sweep", "source_id": planted.sweep_id},
    )
    base = f"/api/v1/reports/{report['id']}/export"
    html = client.get(base, params={"format": "html"}).text
    assert "<img" not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    assert "<script" not in html and html.count("<svg") == 3  # two SCT charts, one frontier
    assert "rational range" in html and "cost (price x VM-hours)" in html
    exported = json.loads(client.get(base, params={"format": "json"}).text)
    assert exported["items"][0]["params"]["server"] == HOSTILE
    assert exported["items"][1]["charts"][0]["series"][1]["points"] is True
    archive = zipfile.ZipFile(io.BytesIO(client.get(base, params={"format": "csv"}).content))
    names = sorted(archive.namelist())
    assert "01-sct-throughput-tp.csv" in names and "02-frontier-pareto.csv" in names
    rows = archive.read("01-sct-throughput-tp.csv").decode().splitlines()
    assert rows[0] == "concurrency (requests in the server) (count),measured mean (req/s)"
    first = servers["app-1"]["levels"][0]
    assert rows[1] == f"{float(first['n'])},{first['throughput_per_s']}"


def test_svg_dots_for_a_scatter_and_a_band_for_a_range() -> None:
    chart = Chart(
        key="c",
        title="T",
        kind="line",
        x_label="n",
        x_unit="count",
        y_label="tp",
        y_unit="req/s",
        series=[Series(key="p", label="dots", x=[1, 2, 3], y=[1, 2, None], points=True)],
        ranges=[Range(label="band <1>", x1=1.5, x2=2.5)],
    )
    svg = render_chart(chart)
    assert svg.count("<circle") == 2 + 1  # two points with y, one legend dot
    assert "<path" not in svg and 'fill-opacity="0.12"' in svg and "band &lt;1&gt;" in svg


def test_two_sct_analyses_compare_with_both_ranges(
    settings: Settings, docs: SctSweepDocuments, owner: Member, planted: PlantedSctSweep
) -> None:
    again = plant_sct_sweep(settings, docs, owner.workspace_id, name="again.csv")
    client = signed_in(settings, owner)
    query = {"kind": "sct", "a": planted.sct_id, "b": again.sct_id, "view": "app-2"}
    compared = client.get("/api/v1/comparisons/runs", params=query)
    assert compared.status_code == 200, compared.text
    (item,) = compared.json()["items"]
    verdicts = {f["key"]: f["verdict"] for f in item["figures"]}
    assert verdicts["q_lower"] == "same" and verdicts["tp_max"] == "same"
    ranges = item["charts"][0]["ranges"]
    assert [r["label"] for r in ranges] == ["A: rational range", "B: rational range"]
