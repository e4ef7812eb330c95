"""The recommendations against hand-worked reports (a knee curve small enough to read)."""

from typing import Any

import pytest

from headroom.engine.recommend import (
    capacity_recommendations,
    concurrency_scenario,
    default_thresholds,
    sct_recommendation,
)
from headroom.engine.recommend import wording as w
from headroom.engine.recommend.capacity import (
    background_recommendation,
    class_policy_recommendation,
    mean_load_per_s,
    sla_figures,
)
from headroom.engine.sim.scenario import load_scenario
from headroom.engine.sim.tiers.presets import concurrency_scenario as preset


def point(load: float, latency: float, conn: float, source: str, **extra: Any) -> dict[str, Any]:
    fit = {"latency_fit_s": latency} if source == "measured" else {}
    return {
        "load_per_s": load,
        "latency_s": latency,
        "concurrency": conn,
        "source": source,
        **fit,
        **extra,
    }


def knee_class(**overrides: Any) -> dict[str, Any]:
    """0.1 s at 10 req/s, 0.2 s at 20, 0.5 s at 30 (measured, 6/5/5 windows), then 1 s at
    35 and 2 s at 40 (model); concurrency 1, 4, 15, 35, 80; peak 45 req/s."""
    return {
        "knee": {"load_per_s": 20, "latency_s": 0.2, "source": "measured"},
        "sla": {"threshold_s": 0.2},
        "peak_load_per_s": 45,
        "curve": [
            point(10, 0.1, 1, "measured", windows=6),
            point(20, 0.2, 4, "measured", windows=5),
            point(30, 0.5, 15, "measured", windows=5),
            point(35, 1.0, 35, "model"),
            point(40, 2.0, 80, "model"),
        ],
        **overrides,
    }


# static requests: 4x faster than knee_class up to 30 req/s, 200 ms at 35 (model), 400 ms at 40
STATIC = knee_class(
    curve=[
        point(10, 0.02, 0.2, "measured", windows=6),
        point(20, 0.04, 0.8, "measured", windows=5),
        point(30, 0.1, 3, "measured", windows=5),
        point(35, 0.2, 7, "model"),
        point(40, 0.4, 16, "model"),
    ]
)


def report(**overrides: Any) -> dict[str, Any]:
    return {
        "classes": {"all": knee_class()},
        "capacity": {"power_peak_load_per_s": 20.13, "r2": 0.76},
        "per_server": False,
        "virtual_queue": None,
        **overrides,
    }


def texts(recs: list[Any]) -> dict[str, str]:
    return {r.id: r.text for r in recs}


def test_the_sla_figures_interpolate_the_knee_curve() -> None:
    # 0.35 s is halfway from 0.2 s (20 req/s) to 0.5 s (30 req/s): 25 req/s, 9.5 connections
    f = sla_figures(knee_class()["curve"], 0.35)
    assert (f.rate_per_s, f.max_conn, f.capped) == (pytest.approx(25), pytest.approx(9.5), False)
    assert sla_figures(knee_class()["curve"], 5.0).capped  # above the whole curve
    assert sla_figures(knee_class()["curve"], 0.05).rate_per_s == 0


def test_one_class_gets_its_rate_connections_and_servers_then_the_power_ratio() -> None:
    recs = capacity_recommendations(report(), 95, {"all": 0.2})
    assert [r.id for r in recs] == ["all-rate", "all-conn", "all-servers", "power"]
    assert texts(recs) == {
        "all-rate": "Keep the site under 20 req/s to hold p95 under 200 ms.",
        "all-conn": "Cap the site at 4 concurrent connections to hold that target.",
        # ceil(45 / 20)
        "all-servers": "Run 3 servers to serve the observed peak of 45 req/s within the target.",
        "power": "Throughput per unit of latency peaks at 20.1 req/s (power ratio, R² 0.76): "
        "beyond it, extra load costs more latency than it adds throughput.",
    }
    assert [r.confidence for r in recs] == ["measured"] * 3 + ["weak fit"]
    assert {r.chart for r in recs[:3]} == {"knee-chart"} and recs[3].chart == "power"


def test_confidence_follows_where_the_threshold_meets_the_curve() -> None:
    # 1.5 s is met between the two model points (37.5 req/s); 5 s is above the whole curve
    model = capacity_recommendations(report(capacity=None), 95, {"all": 1.5})
    assert model[0].confidence == "model" and "37.5 req/s" in model[0].text
    capped = capacity_recommendations(report(capacity=None), 95, {"all": 5.0})
    assert capped[0].confidence == "lower bound"
    none = capacity_recommendations(report(capacity=None), 99, {"all": 0.05})
    assert [(r.id, r.text) for r in none] == [
        (
            "all-none",
            "No observed load holds p99 under 50 ms; raise the threshold or make requests faster.",
        )
    ]


def test_per_server_reports_and_several_classes_say_so() -> None:
    recs = capacity_recommendations(
        report(per_server=True, classes={"all": knee_class(), "api": knee_class()}),
        95,
        {"api": 0.2},
    )
    assert recs[0].text == "api: Keep each server under 20 req/s to hold p95 under 200 ms."
    assert recs[0].class_name == "api"


def test_admission_by_class_names_the_tighter_class_against_the_looser() -> None:
    doc = report(classes={"all": knee_class(), "dynamic": knee_class(), "static": STATIC})
    [rec] = class_policy_recommendation(doc, 95, {"all": 0.2, "dynamic": 0.2, "static": 0.2})
    # dynamic reaches 200 ms at 20 req/s (measured), static at 35 req/s (a model point)
    assert rec.text == (
        "dynamic requests hold p95 under 200 ms only up to 20 req/s, static up to 35 req/s: "
        "admission by class (SwitchAdm, StaticPart, DynamicPart) keeps dynamic within its SLA "
        "when load passes 20 req/s."
    )
    assert (rec.class_name, rec.confidence) == ("dynamic", "model")
    assert rec.link is not None and (rec.link.to, rec.link.label) == (
        "/policies/classes",
        "Compare class policies",
    )
    [other] = class_policy_recommendation(doc, 95, {"dynamic": 0.2, "static": 0.1})
    assert other.text.startswith(
        "dynamic requests hold p95 under 200 ms only up to 20 req/s, static up to 30 req/s "
        "(under 100 ms)"
    )


def test_admission_by_class_is_absent_with_one_class_or_close_limits() -> None:
    assert class_policy_recommendation(report(), 95, {"all": 0.2}) == []
    alike = report(classes={"all": knee_class(), "a": knee_class(), "b": knee_class()})
    assert class_policy_recommendation(alike, 95, {"a": 0.2, "b": 0.2}) == []


def test_background_work_weighs_each_load_bin_by_its_windows() -> None:
    # (10 x 6 + 20 x 5 + 30 x 5) / 16 windows; the model points carry no windows
    assert mean_load_per_s(report()) == pytest.approx(19.375)
    assert mean_load_per_s(report(classes={})) is None
    [rec] = background_recommendation(report(capacity={"power_peak_load_per_s": 60, "r2": 0.9}))
    # 19.375 / 60 = 32% used; the peak of 45 req/s leaves 25%
    assert rec.text == (
        "The mean load of 19.4 req/s uses 32% of the 60 req/s capacity (power-ratio peak), and "
        "even the peak of 45 req/s leaves 25%: background work can take the idle 68% with a "
        "reservation that yields to the foreground."
    )
    assert rec.confidence == "measured" and rec.link is not None
    assert rec.link.to == "/policies/background"
    assert background_recommendation(report()) == []  # 19.4 of 20.1 req/s
    assert background_recommendation(report(capacity=None)) == []


def test_the_virtual_queue_says_c_x_and_w() -> None:
    vq = {
        "capacity_per_s": 83.2,
        "latency_s": 0.412,
        "latency_source": "measured",
        "percentile": 95,
        "max_wait_s": 95,
    }
    doc = report(classes={}, capacity={"power_peak_load_per_s": 83.2, "r2": 0.93})
    [rec] = [
        r
        for r in capacity_recommendations({**doc, "virtual_queue": vq}, 95, {})
        if r.id == "virtual-queue"
    ]
    assert rec.text == (
        "A virtual queue with capacity 83.2 req/s keeps response time under 412 ms (p95); the "
        "longest wait at your peak would be 1 min 35 s."
    )
    assert (rec.confidence, rec.chart) == ("measured", "knee-chart")
    beyond = {**doc, "virtual_queue": {**vq, "latency_source": "beyond the curve"}}
    assert capacity_recommendations(beyond, 95, {})[-1].confidence == "lower bound"
    assert all(r.id != "virtual-queue" for r in capacity_recommendations(doc, 95, {}))


def test_default_thresholds_are_the_analysis_sla_else_the_knee() -> None:
    doc = report(classes={"all": knee_class(), "b": knee_class(sla=None), "c": {"curve": []}})
    assert default_thresholds(doc) == {"all": 0.2, "b": 0.2}


SERVER = {"q_lower": 10, "q_upper": 20, "tp_max_per_s": 500, "warnings": []}


def test_the_sct_recommendation_gives_the_pool_size_its_range_and_a_scenario() -> None:
    rec = sct_recommendation("app-1", SERVER)
    assert rec is not None and rec.text == (
        "SCT puts app-1's best pool size at 10 concurrent requests (rational range 10\u201320, "
        "500 req/s at the peak): concurrency-aware scaling resets the pools in front of it to "
        "this size after every scale-out, where hardware-only scaling lets them grow past it."
    )
    assert (rec.confidence, rec.chart, rec.class_name) == ("measured", "throughput-chart", "app-1")
    assert rec.link is not None and rec.link.to == "/simulations/new"
    assert rec.link.scenario == concurrency_scenario("app-1", 10, 20, 500)
    open_ended = sct_recommendation("a", {**SERVER, "q_upper": None})
    assert (
        open_ended is not None
        and "rational range 10 and above (no decline seen)" in open_ended.text
    )
    weak = sct_recommendation("a", {**SERVER, "warnings": ["few intervals"]})
    assert weak is not None and weak.confidence == "weak fit"
    assert sct_recommendation("a", {**SERVER, "q_lower": None}) is None


def test_the_scenario_takes_the_calibrated_preset_control_loop() -> None:
    """The analysed server replaces the preset's db: 10 cores at 20 ms a request peak at
    500 req/s at concurrency 10; the load is 125 req/s with a spike to 400 req/s, which
    needs 400 x 10 ms / 0.5 = 8 app VMs; the loop is the preset's (band_middle steps of
    10 s, 20 s cooldown and boot, db factor 0.9925)."""
    scenario = concurrency_scenario("app-1", 10, 20, 500)
    calibrated = preset([(0, 1), (60, 1)], "concurrency_aware")
    app, db = scenario["cluster"]["tiers"]
    assert db == {
        "name": "app-1",
        "cores": 10,
        "service_s": {"dist": "exponential", "mean": 0.02},
        "overhead": {"q_upper": 20, "factor": 0.9925},
    }
    assert app == {
        "name": "app",
        "vms": {"min": 1, "max": 8, "start": 3},
        "pool_limit": 10,
        "boot_s": 20.0,
    }
    assert scenario["autoscaling"] == calibrated["autoscaling"]
    assert scenario["autoscaling"]["step_size"] == "band_middle"
    assert (scenario["autoscaling"]["step_s"], scenario["autoscaling"]["cooldown_s"]) == (10, 20)
    assert scenario["workload"]["arrivals"]["profile"] == [[0, 125], [1200, 400], [1500, 125]]
    assert load_scenario(scenario).name.startswith("concurrency-aware scaling in front of app-1")
    # a server called app becomes the db; without a decline it has no overhead stage
    assert concurrency_scenario("app", 10, None, 500)["cluster"]["tiers"][1] == {
        "name": "db",
        "cores": 10,
        "service_s": {"dist": "exponential", "mean": 0.02},
    }
    # a fast server: the app tier may grow past the preset's 8 VMs to hold the spike
    assert concurrency_scenario("db", 40, 60, 5000)["cluster"]["tiers"][0]["vms"]["max"] == 80


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [(1234.5, 1, "1,234.5"), (20.0, 1, "20"), (0.25, 1, "0.3"), (19.375, 1, "19.4"), (3.0, 0, "3")],
)
def test_numbers_are_written_as_the_web_ui_writes_them(
    value: float, digits: int, text: str
) -> None:
    assert w.decimal(value, digits) == text


def test_units_follow_the_web_ui() -> None:
    assert [w.latency(x) for x in (0.0005, 0.005, 0.2, 1.234)] == [
        "500 µs",
        "5 ms",
        "200 ms",
        "1.23 s",
    ]
    assert [w.rate_per_s(x) for x in (2.345, 20.13)] == ["2.35 req/s", "20.1 req/s"]
    assert [w.duration(x) for x in (0.85, 45, 200, 8040, 273600)] == [
        "850 ms",
        "45 s",
        "3 min 20 s",
        "2 h 14 min",
        "3 d 4 h",
    ]
    assert [w.percent(x, 0) for x in (0.32, 0.0005)] == ["32%", "0.050%"]
