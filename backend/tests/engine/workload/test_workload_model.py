"""The workload model document and characterize(): hand-worked tables, the JSON Schema
(checked by the independent jsonschema validator), the simulator reading the model, and
the real elastic log end to end."""

from __future__ import annotations

import json
import math

import jsonschema
import numpy as np
import polars as pl
import pytest

from headroom.engine.sim import Simulation, load_scenario
from headroom.engine.workload.characterization import characterize, low_load_latencies
from headroom.engine.workload.classify import Rule, Rules, RuleSet, default_rules
from headroom.engine.workload.model import (
    ModelError,
    WorkloadModel,
    load_workload_model,
    workload_model_schema,
)
from headroom.engine.workload.sessions import annotate

from .conftest import make_table

H = "http://example.org"
SERVICE = {"dist": "exponential", "mean": 0.01}


@pytest.fixture(scope="module")
def elastic_result(elastic: pl.DataFrame):  # type: ignore[no-untyped-def]
    return characterize(elastic)


def hand_table() -> pl.DataFrame:
    # client A: page / with 2 objects, then page /b.php 100 s later (think 100 - 2.3)
    # client B (one hour later): page / alone
    return make_table(
        [0, 1, 2, 100, 3600],
        client=["A", "A", "A", "A", "B"],
        path=["/", "/s.css", "/i.png", "/b.php", "/"],
        referer=[None, f"{H}/", f"{H}/", f"{H}/", None],
        latency_s=[0.2, 0.1, 0.3, 0.5, 0.4],
        bytes=[1000, 200, 300, 4000, 1000],
    )


def test_hand_worked_characterization() -> None:
    result = characterize(hand_table(), profile_step_s=60)
    d = result.to_dict()
    assert d["requests"] == 5
    assert d["classes"] == {"request": {"dynamic": 0.6, "static": 0.4}, "user": {"normal": 1.0}}
    assert d["pages"]["count"] == 3 and d["pages"]["objects_per_page_mean"] == pytest.approx(2 / 3)
    assert d["sessions"]["count"] == 2 and d["sessions"]["pages_per_session_mean"] == 1.5
    # minutes 0..60: minute 0 has 3 requests, minute 1 one, minute 60 one; 61 buckets.
    # Whole-second stamps: the log covers [0, 3601) s, minute 60 only its first second
    assert d["arrivals"]["peak_per_min"] == 3 and d["arrivals"]["trough_per_min"] == 0
    assert d["arrivals"]["mean_per_min"] == pytest.approx(5 / 3601 * 60)
    assert d["arrivals"]["span_s"] == 3601 and d["arrivals"]["every_s"] == 60
    assert d["latency"]["max_s"] == 0.5
    assert d["pages"]["load_time_s_mean"] == pytest.approx((2.3 + 0.5 + 0.4) / 3)
    profile = result.model.classes[0].profile
    # pages per second per 60 s step: 1 page at 0 s, 1 at 60 s (100 s), 1 at 3600 s in the
    # last step, which the log covers for 1 s (its rate is per covered second)
    assert (
        profile[0] == (0.0, 1 / 60)
        and profile[1] == (60.0, 1 / 60)
        and profile[-1] == (3600.0, 1.0)
    )
    assert result.model.duration_s == 3601
    held = [60.0] * (len(profile) - 1) + [1.0]
    assert sum(rate * s for (_, rate), s in zip(profile, held, strict=True)) == pytest.approx(3)
    json.dumps(d)  # the CLI prints it


def test_contract_keys(elastic_result) -> None:  # type: ignore[no-untyped-def]
    d = elastic_result.to_dict()
    assert set(d["arrivals"]) >= {"peak_per_min", "trough_per_min", "mean_per_min", "peak_to_mean"}
    assert set(d["pages"]) >= {"count", "objects_per_page_mean"}
    assert set(d["sessions"]) >= {"count", "pages_per_session_mean"}
    for name, fit in d["fits"].items():
        assert set(fit) >= {"dist", "params", "aic", "ks"}, name
    assert d["model"]["version"] == 1
    json.dumps(d)


def test_real_log_end_to_end(elastic: pl.DataFrame, elastic_result) -> None:  # type: ignore[no-untyped-def]
    d = elastic_result.to_dict()
    assert d["requests"] == 10000 and d["latency"] is None
    # every timestamp is at minute 05 of its hour: the arrivals are counted per hour over
    # the 84 hours the log covers, and given per minute
    hours = elastic.group_by(pl.col("ts").dt.truncate("1h")).len()["len"]
    assert d["arrivals"]["every_s"] == 3600 and len(hours) == 84
    assert d["arrivals"]["mean_per_min"] == pytest.approx(10000 / (84 * 60))
    assert d["arrivals"]["peak_per_min"] == pytest.approx(hours.max() / 60)
    assert d["arrivals"]["trough_per_min"] == pytest.approx(hours.min() / 60)
    assert d["arrivals"]["hourly"]["trough"] == hours.min()
    assert sum(d["classes"]["request"].values()) == pytest.approx(1)
    ann = annotate(elastic)
    assert d["pages"]["count"] == ann["page_id"].n_unique()
    assert d["sessions"]["count"] == ann["session_id"].n_unique()
    # the model's page profile integrates to the page count
    model = elastic_result.model
    pages = sum(rate * model.profile_step_s for _, rate in model.classes[0].profile)
    assert pages == pytest.approx(d["pages"]["count"])
    assert model.classes[0].service_s is None  # no latencies in this log
    with pytest.raises(ModelError, match="service_s"):
        model.scenario_workload()


def test_schema_validates_the_model(elastic_result) -> None:  # type: ignore[no-untyped-def]
    schema = workload_model_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    doc = elastic_result.model.model_dump(mode="json")
    jsonschema.validate(doc, schema)
    assert load_workload_model(json.dumps(doc)) == elastic_result.model
    bad = {**doc, "classes": [{**doc["classes"][0], "profile": [[10, 1], [0, 1]]}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**doc, "version": 2}, schema)
    with pytest.raises(ModelError, match=r"classes\.0"):
        load_workload_model(bad)


def test_the_simulator_runs_the_model(elastic_result) -> None:  # type: ignore[no-untyped-def]
    """The model's workload section feeds a scenario as is; the simulated page count
    over the first 6 hours matches the profile's integral within 4 Poisson se."""
    model: WorkloadModel = elastic_result.model
    workload = model.scenario_workload(service_s=SERVICE)
    scenario = load_scenario({"duration_s": 6 * 3600, "seed": 1, "workload": workload})
    result = Simulation(scenario).run()
    expected = sum(rate * 3600 for _, rate in model.classes[0].profile[:6])
    assert abs(result.pages - expected) <= 4 * math.sqrt(expected)
    tripled = model.scenario_workload(service_s=SERVICE, time_scale=3)
    assert tripled["classes"][0]["arrivals"]["profile"][1][1] == pytest.approx(
        3 * workload["classes"][0]["arrivals"]["profile"][1][1]
    )


def test_user_classes_make_model_classes() -> None:
    df = pl.concat([hand_table(), hand_table().with_columns(client=pl.lit("10.1.2.3"))])
    rules = Rules(
        request=default_rules().request,
        user=RuleSet(rules=[Rule(cls="top", clients=["10.0.0.0/8"])], default="normal"),
    )
    result = characterize(df, rules=rules, profile_step_s=60)
    mix = result.model.class_mix
    assert set(mix) == {"normal", "top"} and sum(mix.values()) == pytest.approx(1)
    assert mix["top"] == pytest.approx(0.5)  # the copy: 3 of the 6 pages
    workload = result.model.scenario_workload(service_s=SERVICE)
    assert [c["name"] for c in workload["classes"]] == ["normal", "top"]
    load_scenario({"duration_s": 60, "workload": workload})


def test_service_time_is_latency_in_quiet_minutes() -> None:
    # 60 busy minutes of 10 requests at 1.0 s, 20 quiet minutes of 3 requests at 0.1 s
    offsets = [m * 60 + i for m in range(60) for i in range(10)]
    offsets += [(60 + m) * 60 + i for m in range(20) for i in range(3)]
    lat = [1.0] * 600 + [0.1] * 60
    ann = annotate(make_table(offsets, latency_s=lat))
    assert np.all(low_load_latencies(ann) == 0.1) and len(low_load_latencies(ann)) == 60
    result = characterize(make_table(offsets, latency_s=lat))
    assert result.model.classes[0].service_s is not None
    assert result.fits["service_time_s"].n == 60


def test_empty_table() -> None:
    d = characterize(make_table([])).to_dict()
    assert d["requests"] == 0 and d["pages"]["count"] == 0 and d["sessions"]["count"] == 0
    assert d["arrivals"]["peak_per_min"] == 0 and d["model"]["classes"][0]["profile"] == [
        [0.0, 0.0]
    ]


def test_replay_reproduces_the_logged_pages(elastic_result) -> None:  # type: ignore[no-untyped-def]
    """Replaying the log's page arrivals: the simulator sees exactly the logged pages of
    the first 6 hours; with time_scale 1/3 it sees those of the first 18 hours."""
    workload, datasets = elastic_result.replay_workload(service_s=SERVICE)
    times = datasets["pages_normal"]
    assert len(times) == elastic_result.to_dict()["pages"]["count"]
    scenario = load_scenario({"duration_s": 6 * 3600, "seed": 1, "workload": workload})
    assert Simulation(scenario, datasets).run().pages == int(np.sum(times < 6 * 3600))
    fast, data = elastic_result.replay_workload(service_s=SERVICE, time_scale=1 / 3)
    scenario = load_scenario({"duration_s": 6 * 3600, "seed": 1, "workload": fast})
    assert Simulation(scenario, data).run().pages == int(np.sum(times < 18 * 3600))


def test_page_and_session_arrivals(elastic_result) -> None:  # type: ignore[no-untyped-def]
    d = elastic_result.to_dict()["arrivals"]
    assert d["pages_hourly"]["total"] == elastic_result.to_dict()["pages"]["count"]
    assert d["sessions_hourly"]["total"] == elastic_result.to_dict()["sessions"]["count"]


def test_latency_by_class_and_histograms() -> None:
    result = characterize(hand_table(), profile_step_s=60)
    by_class = result.to_dict()["latency_by_class"]
    assert by_class["static"]["p50_s"] == pytest.approx(np.percentile([0.1, 0.3], 50))
    assert by_class["dynamic"]["max_s"] == 0.5 and by_class["dynamic"]["count"] == 3
    h = result.histogram("html_bytes", bins=5)
    assert sum(h.counts) + h.zeros == 3  # the three base requests


def test_rules_schema_accepts_the_defaults() -> None:
    from headroom.engine.workload.classify import rules_schema

    jsonschema.validate(default_rules().model_dump(mode="json"), rules_schema())
