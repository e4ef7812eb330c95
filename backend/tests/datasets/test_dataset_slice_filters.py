"""The slice's filters by host, client, request class and path pattern, and every derived
result of a slice (capacity and concurrency analyses, the characterization, the forecast),
against the same figures computed independently with numpy and polars on the generated
trace (host, class, client, path and status known per request)."""

import fnmatch
import re
from datetime import UTC, datetime

import numpy as np
import polars as pl
import pytest
from fastapi.testclient import TestClient

from headroom.analyses.run import capacity_body
from headroom.analyses.tables import for_capacity
from headroom.characterizations.parts import characterize_body
from headroom.core.settings import Settings
from headroom.engine.capacity import CapacityParams, analyze
from headroom.engine.logs import detect_format, parse_chunk
from headroom.jobs.runner import ingest_body, run_job
from headroom.workspaces.models import Role
from support.factories import member, signed_in

T0_S = 1_767_225_600  # 2026-01-01T00:00:00Z, on the hour
T0_MS = T0_S * 1000
N = 6 * 3600 // 4  # one request every 4 s (jittered) for six hours
HOSTS = ("shop.example", "api.example")
CLASSES = ("reads", "writes")
CLIENTS = tuple(f"c{i}" for i in range(7))
PATHS = ("/api/v1/cart", "/api/v2/search", "/api/v1/items/42", "/static/app.js", "/")
STATUSES = (200, 200, 200, 304, 404, 503, 200, 201)


def trace(n: int = N, step_ms: int = 4000) -> pl.DataFrame:
    """The truth: one row per request, millisecond arrival times (the trace's resolution)."""
    rng = np.random.default_rng(19)
    i = np.arange(n)
    arrival_ms = T0_MS + i * step_ms + rng.integers(0, step_ms * 3 // 4, n)
    return pl.DataFrame(
        {
            "arrival_ms": arrival_ms,
            "duration_ms": np.round(rng.gamma(2.0, 20.0, n), 3) + 1.0,
            "host": [HOSTS[k % 2] for k in rng.integers(0, 2, n)],
            "class": [CLASSES[k] for k in rng.integers(0, 2, n)],
            "client": [CLIENTS[k] for k in rng.integers(0, len(CLIENTS), n)],
            "path": [PATHS[k] for k in i % len(PATHS)],
            "status": [STATUSES[k] for k in (i * 3) % len(STATUSES)],
        }
    )


TRUTH = trace()


def trace_csv(truth: pl.DataFrame = TRUTH) -> bytes:
    rows = ["arrival,duration_ms,host,class,client,path,status"]
    for r in truth.iter_rows(named=True):
        rows.append(
            f"{r['arrival_ms'] / 1000:.3f},{r['duration_ms']},{r['host']},{r['class']},"
            f"{r['client']},{r['path']},{r['status']}"
        )
    return ("\n".join(rows) + "\n").encode()


DATA = trace_csv()


def ready(settings: Settings, email: str, data: bytes = DATA) -> tuple[TestClient, int]:
    client = signed_in(settings, member(settings, email, "Shop"))
    created = client.post("/api/v1/datasets", params={"name": "trace.csv"}, content=data)
    assert created.status_code == 202, created.text
    assert run_job(settings, created.json()["job"]["id"], ingest_body)
    return client, int(created.json()["id"])


def truth_of(
    lo_ms: int | None = None,
    hi_ms: int | None = None,
    host: str | None = None,
    cls: str | None = None,
    client: str | None = None,
    keep_path: object = None,
) -> pl.DataFrame:
    rows = TRUTH
    if lo_ms is not None:
        rows = rows.filter(pl.col("arrival_ms") >= lo_ms)
    if hi_ms is not None:
        rows = rows.filter(pl.col("arrival_ms") < hi_ms)
    for value, column in ((host, "host"), (cls, "class"), (client, "client")):
        if value is not None:
            rows = rows.filter(pl.col(column) == value)
    if keep_path is not None:
        rows = rows.filter(pl.col("path").map_elements(keep_path, return_dtype=pl.Boolean))
    return rows


def given(part: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in part.items() if v is not None}


def test_host_class_and_client_filters_count_what_numpy_counts(settings: Settings) -> None:
    client, dataset_id = ready(settings, "f1@example.com")
    lo, hi = T0_MS + 3600_000, T0_MS + 4 * 3600_000
    params = {"from": lo, "to": hi, "host": "api.example", "request_class": "writes"}
    params["client"] = "c3"
    body = client.get(f"/api/v1/datasets/{dataset_id}/summary", params=params).json()
    want = truth_of(lo, hi, "api.example", "writes", "c3")
    assert body["request_count"] == want.height > 0
    statuses = want["status"].to_numpy()
    assert body["status_counts"]["5xx"] == int((statuses // 100 == 5).sum())
    latency = want["duration_ms"].to_numpy() / 1000
    assert body["latency"]["p50_s"] == pytest.approx(float(np.percentile(latency, 50)), rel=1e-6)
    assert body["span_s"] == pytest.approx(3 * 3600)
    page = client.get(f"/api/v1/datasets/{dataset_id}/requests", params={**params, "limit": 500})
    rows = page.json()
    assert rows["total"] == want.height and len(rows["items"]) == want.height
    assert {r["client"] for r in rows["items"]} == {"c3"}


def latency_truth(rows: pl.DataFrame, every_s: int) -> dict[int, np.ndarray]:
    """Each bucket's latencies (s) by its start (epoch ms), straight from the trace."""
    step_ms = every_s * 1000
    starts = rows["arrival_ms"].to_numpy() // step_ms * step_ms
    latency = rows["duration_ms"].to_numpy() / 1000
    return {int(t): latency[starts == t] for t in np.unique(starts)}


@pytest.mark.parametrize("every_s", [600, 60])
def test_the_latency_series_of_a_slice_is_numpys_percentiles_per_bucket(
    settings: Settings, every_s: int
) -> None:
    client, dataset_id = ready(settings, "f8@example.com")
    lo, hi = T0_MS + 3600_000 + 17_000, T0_MS + 4 * 3600_000
    params = {"from": lo, "to": hi, "host": "api.example", "status_class": "2xx"}
    got = client.get(
        f"/api/v1/datasets/{dataset_id}/latency", params={**params, "every_s": every_s}
    )
    assert got.status_code == 200, got.text
    body = got.json()
    rows = truth_of(lo, hi, "api.example").filter(pl.col("status") // 100 == 2)
    want = latency_truth(rows, every_s)
    assert body["every_s"] == every_s and body["t_ms"] == sorted(want)
    assert body["count"] == [len(want[t]) for t in body["t_ms"]]
    for p in (50, 90, 95, 99):
        exact = [float(np.percentile(want[t], p)) for t in body["t_ms"]]
        assert body[f"p{p}_s"] == pytest.approx(exact, rel=0.0101)  # the sketch's 1 %
    assert body["max_s"] == pytest.approx([float(want[t].max()) for t in body["t_ms"]], rel=1e-12)
    # the filter changes the figures: the whole range's series is another one
    whole = client.get(f"/api/v1/datasets/{dataset_id}/latency", params={"every_s": every_s})
    assert sum(whole.json()["count"]) == TRUTH.height != sum(body["count"])


def test_the_latency_series_refuses_too_fine_a_resolution_and_strangers(
    settings: Settings,
) -> None:
    client, dataset_id = ready(settings, "f9@example.com")
    url = f"/api/v1/datasets/{dataset_id}/latency"
    fine = client.get(url, params={"every_s": 1})
    assert fine.status_code == 422 and fine.json()["error"]["field"] == "every_s"
    assert client.get(url, params={"every_s": 1, "to": T0_MS + 3600_000}).status_code == 200
    empty = client.get(url, params={"client": "nobody"}).json()
    assert empty["t_ms"] == [] and empty["p95_s"] == []
    viewer = signed_in(settings, member(settings, "f9v@example.com", "Shop", Role.viewer))
    assert viewer.get(url, params={"host": "shop.example"}).status_code == 200
    stranger = signed_in(settings, member(settings, "f9s@example.com", "Elsewhere"))
    assert stranger.get(url, params={"host": "shop.example"}).status_code == 404


@pytest.mark.parametrize(
    ("pattern", "keep"),
    [
        ("/api/*/cart", lambda p: fnmatch.fnmatchcase(p, "/api/*/cart")),
        ("/api/**", lambda p: p.startswith("/api/")),
        ("/api/v?/*", lambda p: re.fullmatch(r"/api/v./[^/]*", p) is not None),
        ("~^/api/v[12]/(cart|items)", lambda p: re.match(r"/api/v[12]/(cart|items)", p)),
        ("~\\.js$", lambda p: p.endswith(".js")),
    ],
)
def test_a_path_pattern_keeps_the_paths_it_matches(
    settings: Settings, pattern: str, keep: object
) -> None:
    client, dataset_id = ready(settings, "f2@example.com")
    body = client.get(
        f"/api/v1/datasets/{dataset_id}/summary", params={"path_pattern": pattern}
    ).json()
    assert body["request_count"] == truth_of(keep_path=lambda p: bool(keep(p))).height > 0  # type: ignore[operator]


def test_a_bad_pattern_is_refused_naming_it(settings: Settings) -> None:
    client, dataset_id = ready(settings, "f3@example.com")
    got = client.get(f"/api/v1/datasets/{dataset_id}/summary", params={"path_pattern": "~(api"})
    assert got.status_code == 422
    error = got.json()["error"]
    assert error["field"] == "path_pattern" and "unclosed group" in error["message"]
    body = {"slice": {"path_pattern": "~[a-"}}
    made = client.post(f"/api/v1/datasets/{dataset_id}/analyses", json=body)
    assert made.status_code == 422 and made.json()["error"]["field"] == "slice.path_pattern"


def test_a_sliced_capacity_analysis_is_the_engine_on_the_slice(settings: Settings) -> None:
    client, dataset_id = ready(settings, "f4@example.com")
    lo, hi = T0_MS + 3600_000, T0_MS + 5 * 3600_000
    part = {"from_ms": lo, "to_ms": hi, "host": "shop.example"}
    made = client.post(
        f"/api/v1/datasets/{dataset_id}/analyses", json={"window_s": 60, "slice": part}
    )
    assert made.status_code == 202, made.text
    assert made.json()["params"]["slice"]["host"] == "shop.example"
    assert run_job(settings, made.json()["job"]["id"], capacity_body)
    done = client.get(f"/api/v1/analyses/{made.json()['id']}").json()
    assert done["job"]["status"] == "succeeded", done["job"]
    # the reference: the trace parsed directly, cut with polars, the engine on it
    parsed = parse_chunk(DATA, detect_format(DATA)).table
    ts_ms = pl.col("ts").dt.epoch("ms")
    cut = parsed.filter((ts_ms >= lo) & (ts_ms < hi) & (pl.col("server") == "shop.example"))
    assert cut.height == truth_of(lo, hi, "shop.example").height
    want = analyze(for_capacity(cut), CapacityParams(window_s=60)).to_dict()
    got = done["result"]["classes"]["all"]
    assert got["peak_load_per_s"] == pytest.approx(want["classes"]["all"]["peak_load_per_s"])
    # the same slice again: the same analysis; the whole dataset: another
    again = client.post(
        f"/api/v1/datasets/{dataset_id}/analyses", json={"window_s": 60, "slice": part}
    )
    assert again.status_code == 200 and again.json()["id"] == made.json()["id"]
    whole = client.post(f"/api/v1/datasets/{dataset_id}/analyses", json={"window_s": 60})
    assert whole.status_code == 202 and whole.json()["params"]["slice"] is None
    empty = client.post(
        f"/api/v1/datasets/{dataset_id}/analyses", json={"window_s": 60, "slice": {}}
    )
    assert empty.json()["id"] == whole.json()["id"]  # an empty slice is the whole dataset


def test_a_concurrency_analysis_of_a_range_analyses_that_window(settings: Settings) -> None:
    client, dataset_id = ready(settings, "f5@example.com")
    lo, hi = T0_MS + 2 * 3600_000, T0_MS + 3 * 3600_000
    made = client.post(
        f"/api/v1/datasets/{dataset_id}/analyses/sct",
        json={"interval_ms": 1000, "slice": {"from_ms": lo, "to_ms": hi}},
    )
    assert made.status_code == 202, made.text
    assert run_job(settings, made.json()["job"]["id"], capacity_body)
    done = client.get(f"/api/v1/analyses/{made.json()['id']}").json()
    assert done["job"]["status"] == "succeeded", done["job"]
    assert given(done["params"]["slice"]) == {"from_ms": lo, "to_ms": hi}


def test_a_sliced_characterization_is_its_own_and_counts_the_slice(settings: Settings) -> None:
    client, dataset_id = ready(settings, "f6@example.com")
    lo, hi = T0_MS + 3600_000, T0_MS + 3 * 3600_000
    part = {"from_ms": lo, "to_ms": hi, "request_class": "reads"}
    url = f"/api/v1/datasets/{dataset_id}/characterizations"
    made = client.post(url, json={"slice": part})
    assert made.status_code == 202, made.text
    assert given(made.json()["slice"]) == part
    assert run_job(settings, made.json()["job"]["id"], characterize_body)
    done = client.get(f"/api/v1/characterizations/{made.json()['id']}").json()
    assert done["job"]["status"] == "succeeded", done["job"]
    assert done["result"]["requests"] == truth_of(lo, hi, cls="reads").height
    again = client.post(url, json={"slice": part})
    assert again.status_code == 200 and again.json()["id"] == made.json()["id"]
    whole = client.post(url, json={})
    assert whole.status_code == 202 and whole.json()["id"] != made.json()["id"]
    assert whole.json()["slice"] is None
    # the dataset's current characterization stays the whole dataset's
    current = client.get(f"/api/v1/datasets/{dataset_id}/characterization").json()
    assert current["id"] == whole.json()["id"]
    empty = client.post(url, json={"slice": {"host": "nowhere.example"}})
    assert run_job(settings, empty.json()["job"]["id"], characterize_body)
    failed = client.get(f"/api/v1/characterizations/{empty.json()['id']}").json()
    assert failed["job"]["status"] == "failed" and failed["job"]["error_code"] == "empty_slice"


def test_a_viewer_may_ask_for_a_slices_characterization_under_the_stored_rules(
    settings: Settings,
) -> None:
    """Derived read-only data of what a viewer may read: they start it (or get the one
    made already); rules of their own still need an editor, another workspace sees none."""
    editor_client, dataset_id = ready(settings, "f10@example.com")
    url = f"/api/v1/datasets/{dataset_id}/characterizations"
    viewer = signed_in(settings, member(settings, "f10v@example.com", "Shop", Role.viewer))
    editor = signed_in(settings, member(settings, "f10e@example.com", "Shop", Role.editor))
    stranger = signed_in(settings, member(settings, "f10s@example.com", "Elsewhere"))
    part = {"from_ms": T0_MS, "to_ms": T0_MS + 3600_000, "host": "shop.example"}
    made = viewer.post(url, json={"slice": part})
    assert made.status_code == 202, made.text
    assert run_job(settings, made.json()["job"]["id"], characterize_body)
    done = viewer.get(f"/api/v1/characterizations/{made.json()['id']}").json()
    rows = truth_of(T0_MS, T0_MS + 3600_000, "shop.example")
    assert done["result"]["requests"] == rows.height
    assert_charts_are_the_slices(done["result"]["display"], rows)  # the tabs' sliced charts
    for someone in (editor, editor_client, viewer):
        again = someone.post(url, json={"slice": part})
        assert again.status_code == 200 and again.json()["id"] == made.json()["id"]
    assert viewer.post(url, json={}).status_code == 202  # the whole dataset's, first visit
    rules = {
        "request": {"rules": [{"cls": "writes", "methods": ["POST"]}], "default": "reads"},
        "user": {"rules": [], "default": "everyone"},
    }
    own = viewer.post(url, json={"slice": part, "rules": rules})
    assert own.status_code == 403 and own.json()["error"]["code"] == "forbidden"
    assert stranger.post(url, json={"slice": part}).status_code == 404
    assert stranger.get(f"/api/v1/characterizations/{made.json()['id']}").status_code == 404


def test_a_forecast_of_a_range_reads_that_history_only(settings: Settings) -> None:
    client, dataset_id = ready(settings, "f7@example.com")
    lo, hi = T0_MS + 3600_000, T0_MS + 5 * 3600_000
    url = f"/api/v1/datasets/{dataset_id}/forecast"
    body = client.get(url, params={"from": lo, "to": hi, "horizon_days": 1}).json()
    hours = [datetime.fromisoformat(p["t"]) for p in body["history"]]
    assert hours[0] == datetime.fromtimestamp(lo / 1000, UTC)
    assert hours[-1] == datetime.fromtimestamp((hi - 3600_000) / 1000, UTC)
    counts = np.bincount((truth_of(lo, hi)["arrival_ms"].to_numpy() - lo) // 3600_000)
    rates = [p["rate_per_s"] for p in body["history"]]
    assert rates[1:-1] == pytest.approx(counts[1:-1] / 3600, rel=1e-9)  # whole hours
    assert given(body["history_slice"]) == {"from_ms": lo, "to_ms": hi}
    assert any("cut to the range" in w for w in body["warnings"])
    whole = client.get(url, params={"horizon_days": 1}).json()
    assert len(whole["history"]) == 6 and whole["history_slice"] is None


def characterized(settings: Settings, client: TestClient, dataset_id: int, part: dict) -> dict:
    """The finished characterization of a slice (its result, or its failed job)."""
    made = client.post(f"/api/v1/datasets/{dataset_id}/characterizations", json={"slice": part})
    assert made.status_code == 202, made.text
    run_job(settings, made.json()["job"]["id"], characterize_body)
    return client.get(f"/api/v1/characterizations/{made.json()['id']}").json()


def assert_charts_are_the_slices(display: dict, rows: pl.DataFrame) -> None:
    """The Traffic and Latency tabs' charts of a slice's characterization against the
    trace cut with polars: arrivals per minute, latency percentiles per bucket, paths."""
    minute = display["arrivals"]["60"]
    assert not minute["downsampled"]
    counts = dict(zip(minute["t_ms"], minute["count"], strict=True))
    starts = rows["arrival_ms"].to_numpy() // 60_000 * 60_000
    want = dict(zip(*np.unique(starts, return_counts=True), strict=True))
    assert {t: n for t, n in counts.items() if n} == {int(t): int(n) for t, n in want.items()}
    assert sum(sum(n) for n in minute["by_class"].values()) == rows.height  # the rules' classes
    latency = display["latency"]
    every_s = latency["every_s"]
    truth = latency_truth(rows, every_s)
    overall = latency["overall"]
    assert overall["t_ms"] == sorted(truth)
    assert overall["count"] == [len(truth[t]) for t in overall["t_ms"]]
    exact = [float(np.percentile(truth[t], 95)) for t in overall["t_ms"]]
    assert overall["p95_s"] == pytest.approx(exact, rel=0.0101)  # the sketch's 1 %
    assert sum(sum(c["count"]) for c in latency["by_class"].values()) == rows.height
    paths = {p["path"]: p for p in display["paths"]}
    per_path = rows.group_by("path").agg(pl.len(), pl.col("duration_ms") / 1000)
    assert set(paths) == set(per_path["path"])
    for path, n, seconds in per_path.iter_rows():
        assert paths[path]["requests"] == n
        want_p95 = float(np.percentile(np.asarray(seconds), 95))
        assert paths[path]["p95_s"] == pytest.approx(want_p95, rel=0.0101)


def test_a_filters_characterization_draws_the_slices_charts(settings: Settings) -> None:
    """What the Traffic and Latency tabs draw under filters: the characterization of the
    filters (no range: the tabs zoom into it), every chart the filtered requests'; a tiny
    slice too, and a filter keeping nothing fails as an empty slice."""
    client, dataset_id = ready(settings, "f11@example.com")
    part = {"host": "api.example", "path_pattern": "/api/**", "status_class": "2xx"}
    done = characterized(settings, client, dataset_id, part)
    assert done["job"]["status"] == "succeeded", done["job"]
    keep = truth_of(host="api.example", keep_path=lambda p: p.startswith("/api/"))
    rows = keep.filter(pl.col("status") // 100 == 2)
    assert done["result"]["requests"] == rows.height
    assert_charts_are_the_slices(done["result"]["display"], rows)
    assert done["result"]["display"]["daily_profile"] is None  # six hours: less than a day
    # a tiny slice: a handful of requests
    tiny = {"host": "api.example", "client": "c0", "path_pattern": "/", "status_class": "5xx"}
    small = characterized(settings, client, dataset_id, tiny)
    rows = truth_of(host="api.example", client="c0", keep_path=lambda p: p == "/")
    rows = rows.filter(pl.col("status") // 100 == 5)
    assert 0 < rows.height < 20
    assert small["job"]["status"] == "succeeded", small["job"]
    assert small["result"]["requests"] == rows.height
    assert_charts_are_the_slices(small["result"]["display"], rows)
    # added to a report from the Traffic tab, the item names the filters it shows
    item = {"kind": "characterization", "source_id": done["id"], "view": "traffic"}
    report = client.post("/api/v1/reports", json={"title": "api 2xx", "items": [item]})
    assert report.status_code == 201, report.text
    assert given(report.json()["items"][0]["params"]["slice"]) == part
    nothing = characterized(settings, client, dataset_id, {**tiny, "client": "nobody"})
    assert nothing["job"]["status"] == "failed"
    assert nothing["job"]["error_code"] == "empty_slice"


def test_a_filters_daily_profile_is_the_kept_requests_mean_per_minute_of_day(
    settings: Settings,
) -> None:
    """Two days: the Traffic tab's daily profile under a host filter is, at each minute of
    the day both days cover whole, the mean of that minute's kept requests over the days."""
    two_days = trace(n=2 * 86400 // 20, step_ms=20_000)
    client, dataset_id = ready(settings, "f12@example.com", trace_csv(two_days))
    done = characterized(settings, client, dataset_id, {"host": "shop.example"})
    assert done["job"]["status"] == "succeeded", done["job"]
    profile = done["result"]["display"]["daily_profile"]
    assert profile["days"] == 2 and profile["every_s"] == 60
    kept = two_days.filter(pl.col("host") == "shop.example")["arrival_ms"].to_numpy()
    minute_of_day = (kept - T0_MS) // 60_000 % 1440
    want = np.bincount(minute_of_day, minlength=1440) / 2
    inside = slice(1, 1439)  # the first and last minutes are only partly covered
    assert profile["mean_per_min"][inside] == pytest.approx(want[inside].tolist(), abs=1e-9)
    whole = two_days["arrival_ms"].to_numpy()
    assert not np.allclose(want, np.bincount((whole - T0_MS) // 60_000 % 1440) / 2)
