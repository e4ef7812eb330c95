"""A trace dataset's call graph as the tiers of a multi-tier scenario (docs/telemetry.md).

Each request (a server or root span) is attached to its nearest request ancestor, through
the links of the spans in between (a CLIENT span, say), by pointer jumping: joins, never a
loop per span. Its self time is its duration less the union of its child requests'
intervals (clipped to its own). Services are ordered by their depth below the roots; a
tier's demand per root request is the sum of its requests' self times in that trace (0 when
the trace does not reach it)."""

from dataclasses import dataclass

import numpy as np
import polars as pl

MAX_TIERS = 8
MAX_VALUES = 1000
MAX_HOPS = 64


@dataclass(frozen=True)
class TierDemand:
    service: str
    depth: int
    instances: int
    requests: int
    self_time_mean_s: float
    demand_s: list[float]  # per root request (sorted; quantiles when there are many)


@dataclass(frozen=True)
class CallGraph:
    roots: int
    span_s: float
    tiers: list[TierDemand]


def call_graph(requests: pl.DataFrame, links: pl.DataFrame) -> CallGraph:
    """`requests`: trace_id, span_id, parent_span_id, service, server, ts, latency_s;
    `links`: trace_id, span_id, parent_span_id."""
    reqs = requests.with_columns(
        pl.col("ts").dt.epoch("ns").alias("start_ns"),
        (pl.col("ts").dt.epoch("ns") + (pl.col("latency_s") * 1e9).round().cast(pl.Int64)).alias(
            "end_ns"
        ),
    )
    reqs = reqs.with_columns(_request_parent(reqs, links).alias("caller"))
    reqs = reqs.with_columns(_self_time(reqs).alias("self_s"))
    reqs = reqs.with_columns(_depth(reqs).alias("depth"))
    roots = reqs.filter(pl.col("caller").is_null())
    ends, starts = roots["end_ns"].to_numpy(), roots["start_ns"].to_numpy()
    span_s = max(float(ends.max() - starts.min()) / 1e9, 1e-9) if roots.height else 1e-9
    return CallGraph(roots.height, span_s, _tiers(reqs, roots))


def _request_parent(reqs: pl.DataFrame, links: pl.DataFrame) -> pl.Series:
    """The span id of each request's nearest request ancestor in the same trace (null: a root)."""
    keys = ["trace_id", "span_id"]
    parents = pl.concat(
        [
            reqs.select(*keys, "parent_span_id", pl.lit(True).alias("is_request")),
            links.select(*keys, "parent_span_id", pl.lit(False).alias("is_request")),
        ]
    ).unique(keys, keep="first")
    walk = reqs.select("trace_id", pl.col("parent_span_id").alias("at"))
    walk = walk.with_row_index("row").with_columns(pl.lit(None, pl.String).alias("found"))
    for _ in range(MAX_HOPS):
        step = walk.join(
            parents, left_on=["trace_id", "at"], right_on=keys, how="left", maintain_order="left"
        )
        hit = pl.col("is_request").fill_null(False) & pl.col("found").is_null()
        walk = step.select(
            "row",
            "trace_id",
            pl.when(hit).then(pl.col("at")).otherwise(pl.col("found")).alias("found"),
            pl.when(hit | pl.col("is_request").is_null()).then(None)
            .otherwise(pl.col("parent_span_id")).alias("at"),
        )  # fmt: skip
        if walk["at"].null_count() == walk.height:
            break
    return walk.sort("row")["found"]


def _self_time(reqs: pl.DataFrame) -> pl.Series:
    """Duration less the union of the child requests' intervals within it."""
    parent = reqs.select(
        "trace_id", pl.col("span_id").alias("caller"), pl.col("start_ns").alias("p0"),
        pl.col("end_ns").alias("p1"),
    )  # fmt: skip
    kids = reqs.filter(pl.col("caller").is_not_null()).join(parent, on=["trace_id", "caller"])
    kids = kids.select(
        "trace_id",
        "caller",
        pl.max_horizontal("start_ns", "p0").alias("a"),
        pl.min_horizontal("end_ns", "p1").alias("b"),
    )
    kids = kids.filter(pl.col("b") > pl.col("a")).sort("trace_id", "caller", "a")
    group = ["trace_id", "caller"]
    reach = pl.col("b").cum_max().shift(1).over(group)  # the furthest end of earlier children
    covered = (
        kids.with_columns(
            (pl.col("b") - pl.max_horizontal("a", reach.fill_null(pl.col("a")))).clip(0).alias("c")
        )
        .group_by(group)
        .agg(pl.col("c").sum())
    )
    joined = reqs.select("trace_id", pl.col("span_id").alias("caller"), "latency_s").join(
        covered, on=group, how="left", maintain_order="left"
    )
    return (joined["latency_s"] - joined["c"].fill_null(0) / 1e9).clip(0)


def _depth(reqs: pl.DataFrame) -> pl.Series:
    """Hops from the request up to its root."""
    frame = reqs.select("trace_id", pl.col("caller").alias("at")).with_row_index("row")
    frame = frame.with_columns(pl.lit(0, pl.Int32).alias("depth"))
    links = reqs.select("trace_id", pl.col("span_id").alias("at"), pl.col("caller").alias("next"))
    for _ in range(MAX_HOPS):
        live = pl.col("at").is_not_null()
        frame = frame.with_columns(pl.when(live).then(pl.col("depth") + 1).otherwise("depth"))
        frame = frame.join(links, on=["trace_id", "at"], how="left", maintain_order="left")
        frame = frame.select("row", "trace_id", "depth", pl.col("next").alias("at"))
        if frame["at"].null_count() == frame.height:
            break
    return frame.sort("row")["depth"]


def _tiers(reqs: pl.DataFrame, roots: pl.DataFrame) -> list[TierDemand]:
    per_service = (
        reqs.group_by("service")
        .agg(
            pl.col("depth").min().alias("depth"),
            pl.col("server").n_unique().alias("instances"),
            pl.len().alias("requests"),
            pl.col("self_s").mean().alias("mean_s"),
        )
        .sort("depth", "service")
        .head(MAX_TIERS)
    )
    per_trace = reqs.group_by("trace_id", "service").agg(pl.col("self_s").sum())
    traces = roots.select("trace_id").unique()
    tiers = []
    for row in per_service.iter_rows(named=True):  # one per service: at most MAX_TIERS
        mine = per_trace.filter(pl.col("service") == row["service"]).drop("service")
        demand = traces.join(mine, on="trace_id", how="left")["self_s"].fill_null(0.0)
        tiers.append(
            TierDemand(
                row["service"], int(row["depth"]), int(row["instances"]), int(row["requests"]),
                float(row["mean_s"]), _values(demand.to_numpy()),
            )
        )  # fmt: skip
    return tiers


def _values(demand: np.ndarray) -> list[float]:
    ordered = np.sort(demand)
    if ordered.size > MAX_VALUES:
        ordered = np.quantile(ordered, np.linspace(0, 1, MAX_VALUES))
    return [float(v) for v in ordered]
