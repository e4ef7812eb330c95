"""analyze(): classes, per-server pooling, stances, the JSON contract, bad input."""

import json

import numpy as np
import polars as pl
import pytest

from headroom.engine.capacity import CapacityParams, analyze, synth
from headroom.engine.capacity.analysis import NO_SERVERS
from headroom.engine.capacity.power import FLAT_LOAD

RATES = list(np.linspace(5.0, 90.0, 18))


def _mm1(
    mu: float, seed: int, rates: list[float] = RATES, segment_s: float = 200.0
) -> pl.DataFrame:
    scaled = [r * mu / 100.0 for r in rates]
    return synth.queue_log(scaled, segment_s, mu, 1, np.random.default_rng(seed))


@pytest.fixture(scope="module")
def two_class_table() -> pl.DataFrame:
    static = _mm1(200.0, 1).with_columns(cls_request=pl.lit("static"), server=pl.lit("web-1"))
    dynamic = _mm1(50.0, 2).with_columns(cls_request=pl.lit("dynamic"), server=pl.lit("web-1"))
    return pl.concat([static, dynamic]).sort("ts")


def test_classes_are_split_and_keep_their_own_capacity(two_class_table: pl.DataFrame) -> None:
    report = analyze(two_class_table)
    assert set(report.classes) == {"all", "static", "dynamic"}
    bp = {k: v.breaking_point for k, v in report.classes.items()}
    assert bp["static"] is not None and bp["dynamic"] is not None
    # each class is its own M/M/1 here, so the split must give each its own breaking point
    # (0.97 mu, by model); 10% because the slow class has only 25-450 requests per window
    assert bp["static"].load_per_s == pytest.approx(0.97 * 200, rel=0.10)
    assert bp["dynamic"].load_per_s == pytest.approx(0.97 * 50, rel=0.10)
    assert report.per_server and report.servers == ("web-1",)
    assert report.warnings == ()


def test_contract_keys_and_json(two_class_table: pl.DataFrame) -> None:
    out = analyze(two_class_table, CapacityParams(stance="strict")).to_dict()
    text = json.dumps(out, allow_nan=False)  # no NaN or inf leaks into the contract
    assert json.loads(text) == out
    assert set(out) >= {"classes", "capacity"}
    for cls in out["classes"].values():
        assert set(cls) >= {"knee", "breaking_point_per_s", "sla", "max_conn"}
        assert set(cls["knee"]) == {"load_per_s", "latency_s", "source"}
        assert cls["knee"]["source"] in {"measured", "model"}
        assert set(cls["sla"]) >= {"percentile", "threshold_s", "max_rate_per_s", "max_conn"}
        assert cls["sla"]["percentile"] == 95.0
    cap = out["capacity"]
    assert cap is None or set(cap) == {"power_peak_load_per_s", "r2"}


def test_stances_order_thresholds(two_class_table: pl.DataFrame) -> None:
    got = {}
    for stance in ("strict", "balanced", "loose"):
        cls = analyze(two_class_table, CapacityParams(stance=stance)).classes["dynamic"]
        assert cls.sla is not None and cls.knee is not None and cls.breaking_point is not None
        got[stance] = cls.sla
    assert got["strict"].threshold_s <= got["balanced"].threshold_s <= got["loose"].threshold_s
    assert got["strict"].max_rate_per_s <= got["balanced"].max_rate_per_s
    assert got["balanced"].max_rate_per_s <= got["loose"].max_rate_per_s
    assert got["strict"].max_conn <= got["loose"].max_conn


def test_per_server_windows_are_pooled() -> None:
    """Two identical M/M/1 servers: per-server figures are those of one server."""
    a = _mm1(100.0, 3).with_columns(server=pl.lit("a"))
    b = _mm1(100.0, 4).with_columns(server=pl.lit("b"))
    table = pl.concat([a, b]).sort("ts")
    per = analyze(table, CapacityParams(model_servers=1)).classes["all"]
    assert per.breaking_point is not None
    assert per.breaking_point.load_per_s == pytest.approx(97.0, rel=0.06)
    site = analyze(table, CapacityParams(per_server=False))
    assert NO_SERVERS in site.warnings and not site.per_server
    site_cls = site.classes["all"]
    assert site_cls.mmc is not None and site_cls.mmc.servers_c == 2  # c = host count
    assert site_cls.peak_load_per_s >= per.curve.load_per_s.max()


def test_site_without_servers_warns_and_user_threshold_wins() -> None:
    table = _mm1(100.0, 5).drop("server")
    report = analyze(table, CapacityParams(threshold_s=0.05, percentile=90.0))
    assert NO_SERVERS in report.warnings
    sla = report.classes["all"].sla
    assert sla is not None and sla.stance == "user" and sla.threshold_s == 0.05
    assert sla.percentile == 90.0
    assert report.classes["all"].servers_needed is not None


def test_null_latencies_and_classes_are_tolerated() -> None:
    table = _mm1(100.0, 6).with_columns(
        latency_s=pl.when(pl.int_range(pl.len()) % 7 == 0)
        .then(None)
        .otherwise(pl.col("latency_s")),
        cls_user=pl.when(pl.int_range(pl.len()) % 2 == 0).then(pl.lit("top")).otherwise(None),
    )
    report = analyze(table)
    assert set(report.classes) == {"all", "top", "unknown"}


@pytest.mark.parametrize(
    ("table", "params", "match"),
    [
        (pl.DataFrame({"ts": [1, 2]}), CapacityParams(), "latency_s"),
        (pl.DataFrame({"latency_s": [0.1]}), CapacityParams(), "'ts'"),
        (pl.DataFrame({"ts": [1, 2], "latency_s": [0.1, 0.2]}), CapacityParams(), "Datetime"),
        (None, CapacityParams(percentile=99.99), "percentile"),
        (None, CapacityParams(window_s=0), "window_s"),
        (None, CapacityParams(window_s=10_000), "windows"),
    ],
)
def test_bad_input_names_the_field(
    table: pl.DataFrame | None, params: CapacityParams, match: str
) -> None:
    table = _mm1(100.0, 7, rates=[50.0, 60.0], segment_s=60.0) if table is None else table
    with pytest.raises(ValueError, match=match):
        analyze(table, params)


def test_all_null_latency_is_rejected() -> None:
    table = _mm1(100.0, 8, rates=[50.0], segment_s=60.0).with_columns(
        latency_s=pl.lit(None, dtype=pl.Float64)
    )
    with pytest.raises(ValueError, match="latency_s"):
        analyze(table)


def test_a_class_with_too_few_windows_is_skipped_with_a_warning() -> None:
    table = _mm1(100.0, 9, rates=[20.0, 40.0, 60.0, 80.0], segment_s=100.0)
    rare = pl.int_range(pl.len()) < 3  # three requests: one window at most
    table = table.with_columns(
        cls_request=pl.when(rare).then(pl.lit("rare")).otherwise(pl.lit("x"))
    )
    report = analyze(table)
    assert "rare" not in report.classes and "x" in report.classes
    assert any("'rare' skipped" in w for w in report.warnings)


def test_constant_load_gives_reasons_not_numbers() -> None:
    """Every window at the same load: no curve shape to read, and no crash."""
    arrive = np.arange(0.0, 200.0, 0.1)
    report = analyze(synth.to_table(arrive, np.full(arrive.size, 0.05)))
    cls = report.classes["all"]
    assert cls.knee is None and cls.sla is None and cls.warnings
    assert report.capacity.power_peak_load_per_s is None
    assert report.capacity.reason == FLAT_LOAD
    json.dumps(report.to_dict(), allow_nan=False)
