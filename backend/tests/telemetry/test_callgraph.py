"""Self times and tiers of a hand-worked call graph."""

import polars as pl
import pytest

from headroom.telemetry.callgraph import call_graph
from headroom.telemetry.spans import LINK_SCHEMA, TRACE_SCHEMA

MS = 1_000_000
T0 = 1_700_000_000_000 * MS


def request(
    trace: str, span: str, parent: str | None, service: str, start_ms: int, end_ms: int
) -> dict[str, object]:
    return {
        "trace_id": trace,
        "span_id": span,
        "parent_span_id": parent,
        "service": service,
        "server": service,
        "ts": T0 + start_ms * MS,
        "latency_s": (end_ms - start_ms) / 1e3,
    }


def test_self_times_subtract_the_union_of_child_requests() -> None:
    """Trace a: web [0, 100] calls app twice through client spans c1, c2: app [10, 40] and
    app [30, 60] (overlapping: the union is 50 ms), and app [30, 60] calls db [35, 45]
    directly. web's self time 100 - 50 = 50, app's 30 + (30 - 10) = 50 in total, db's 10.
    Trace b: web [200, 220] alone (20 ms; 0 for app and db)."""
    rows = [
        request("a", "w1", None, "web", 0, 100),
        request("a", "p1", "c1", "app", 10, 40),
        request("a", "p2", "c2", "app", 30, 60),
        request("a", "d1", "p2", "db", 35, 45),
        request("b", "w2", None, "web", 200, 220),
    ]
    requests = (
        pl.DataFrame(rows, schema={**TRACE_SCHEMA, "ts": pl.Int64()})
        .with_columns(pl.col("ts").cast(TRACE_SCHEMA["ts"]))
        .select("trace_id", "span_id", "parent_span_id", "service", "server", "ts", "latency_s")
    )
    links = pl.DataFrame(
        [
            {"trace_id": "a", "span_id": "c1", "parent_span_id": "w1"},
            {"trace_id": "a", "span_id": "c2", "parent_span_id": "w1"},
        ],
        schema={k: LINK_SCHEMA[k] for k in ("trace_id", "span_id", "parent_span_id")},
    )
    graph = call_graph(requests, links)
    assert graph.roots == 2 and graph.span_s == pytest.approx(0.220)
    tiers = {t.service: t for t in graph.tiers}
    assert [t.service for t in graph.tiers] == ["web", "app", "db"]
    assert [t.depth for t in graph.tiers] == [0, 1, 2]
    assert tiers["web"].demand_s == pytest.approx([0.020, 0.050])
    assert tiers["app"].demand_s == pytest.approx([0.0, 0.050])
    assert tiers["db"].demand_s == pytest.approx([0.0, 0.010])
    assert tiers["app"].self_time_mean_s == pytest.approx(0.025)
