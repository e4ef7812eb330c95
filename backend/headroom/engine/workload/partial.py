"""The map of a bounded-memory characterization (docs/methods/workload.md, "Bounded
memory"): one part of the log (the requests of one partition of clients, by hash) reduced
to mergeable partial results, a few frames whose size follows the log's span and its
distinct values, never its number of requests.

A :class:`Partial` is a dict of frames, each with its merge rule (:func:`merge`):

- counts, added by key: ``totals`` (requests, distinct clients, pages, sessions and
  their sums), ``classes``, ``pages_60s`` and ``sessions_60s`` (starts per minute and
  user class), ``pages_per_session``, ``path_requests`` and ``sample_counts``;
- log-bucket histograms (sketch.py), added by key and bucket: ``lat_path`` (per top
  path);
- bottom-k samples: per fitted quantity and user class, the values of the ``k`` smallest
  hash keys (a hash of the value's request, never of the part): a uniform sample of ``k``
  without replacement that merges by keeping the ``k`` smallest of the union, so it is
  the same whatever the parts and their order. A part splits its ``k`` at a cut
  (samples.py, :func:`~.samples.head_cut`): ``samples`` holds the keys below it (the
  head, all the merge usually reads), ``sample_tails`` the rest and ``sample_cuts`` the
  cut of each group with a tail; :func:`_merged_samples` reads a group's tails only when
  its heads may miss some of its ``k`` smallest.

Sessions never cross a (client, user agent) pair and pages never cross a session, so a
part holding all of its clients' requests annotates them exactly (the distinct clients of
disjoint partitions add up exactly, too).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import polars as pl

from .buckets import Annotated, annotated_part
from .characterization import LOAD_TIME_SUM, load_time_sum_ns
from .classify import Rules
from .samples import CUTS_SCHEMA, SAMPLE_GROUP, SAMPLE_SCHEMA, bottom_k, counts_and_sample
from .sessions import SessionSettings, run_bounds
from .sketch import histogram_query, merge_histograms

SAMPLE_SEED = 0x5EED
SAMPLE_FRAMES = ("samples", "sample_tails", "sample_cuts")
MERGE_BATCH_ROWS = 2_000_000  # a batch of stored parts merged at once: about 150 MB at its peak
TOTALS = (
    "requests",
    "clients",
    "pages",
    "with_base",
    "page_objects",
    "page_bytes",
    "load_time_sum_ns",
    "load_times",
    "sessions",
    "session_pages",
    "session_requests",
)
SUM_KEYS: dict[str, tuple[str, ...]] = {
    "totals": (),
    "classes": ("cls_request", "cls_user"),
    "pages_60s": ("ts", "cls_user"),
    "sessions_60s": ("ts", "cls_user"),
    "pages_per_session": ("pages",),
    "path_requests": ("path_group",),
    "sample_counts": ("quantity", "cls_user"),
}
HISTOGRAM_KEYS: dict[str, tuple[str, ...]] = {
    "lat_path": ("path_group",),
}
OTHER_PATHS = "other"
QUANTITIES = (
    "requests_per_session",
    "think_time_s",
    "objects_per_page",
    "html_bytes",
    "object_bytes",
    "object_gap_s",
    "latency_quiet_class",
    "latency_quiet_all",
    "latency_any",
)


@dataclass(frozen=True)
class PartContext:
    """What every part needs of the whole log (found by one streaming scan first)."""

    latency_every_s: int
    top_paths: tuple[str, ...]
    quiet: pl.DataFrame  # minute, cls_user, quiet_all, quiet_class
    sample_size: int
    rules: Rules | None = None
    classify: bool = False
    settings: SessionSettings | None = field(default=None)


@dataclass(frozen=True)
class Partial:
    frames: dict[str, pl.DataFrame]


def map_part(df: pl.DataFrame, context: PartContext, parts: int = 1) -> Partial:
    """The partial results of one part (of ``parts``): every request of the clients it
    holds."""
    part = annotated_part(df, context.rules, context.classify, context.settings, pl.String())
    del df
    reqs = part.requests
    minute = pl.col("ts").dt.truncate("1m")
    reqs = reqs.with_columns(minute.alias("minute")).join(
        context.quiet, on=["minute", "cls_user"], how="left", nulls_equal=True
    )
    groups = list(dict.fromkeys((*context.top_paths, OTHER_PATHS)))
    reqs = reqs.with_columns(_path_group_code(groups).alias("path_group"))
    # the requests are counted by their groups' codes: integers, not strings, hashed
    named = pl.lit(pl.Series(groups, dtype=pl.String)).gather("path_group").alias("path_group")
    session_classes = _session_classes(part)
    reqs_lazy, pages, sessions = reqs.lazy(), part.pages.lazy(), part.sessions.lazy()
    counted = {
        "classes": reqs_lazy.group_by("cls_request", "cls_user").agg(_n()),
        "pages_60s": _counts(pages, pl.col("ts").dt.truncate("60s"), "cls_user"),
        "sessions_60s": _counts(
            session_classes.lazy(), pl.col("ts").dt.truncate("60s"), "cls_user"
        ),
        "pages_per_session": sessions.group_by("pages").agg(_n()),
        "path_requests": reqs_lazy.group_by("path_group").agg(_n()).with_columns(named),
        "lat_path": histogram_query(
            reqs_lazy, HISTOGRAM_KEYS["lat_path"], "latency_s"
        ).with_columns(named),
    }
    # one collect: polars runs the small queries beside each other
    fits = _fit_values(part, reqs, session_classes)
    collected = pl.collect_all([*counted.values(), *fits])
    frames = {
        "totals": _totals(part, reqs),
        **dict(zip(counted, collected[: len(counted)], strict=True)),
    }
    values = collected[len(counted) :]
    sampled = counts_and_sample(
        dict(zip(QUANTITIES, values, strict=True)), context.sample_size, parts
    )
    frames["sample_counts"] = sampled.counts
    frames["samples"], frames["sample_tails"] = sampled.head, sampled.tail
    frames["sample_cuts"] = sampled.cuts
    return Partial(frames)


def _path_group_code(groups: list[str]) -> pl.Expr:
    """Each request's index among ``groups`` (the top paths, then ``other``): its path's,
    or ``other``'s when its path is not a top one."""
    other = groups.index(OTHER_PATHS)
    code = pl.col("path").replace_strict(
        groups, range(len(groups)), default=other, return_dtype=pl.UInt32
    )
    return code.fill_null(other)


def _counts(frame: pl.LazyFrame, t: pl.Expr, by: str) -> pl.LazyFrame:
    return frame.group_by(t.alias("ts"), pl.col(by)).agg(_n())


def _n() -> pl.Expr:
    return pl.len().cast(pl.Int64).alias("n")


def _totals(part: Annotated, reqs: pl.DataFrame) -> pl.DataFrame:
    pages, sessions = part.pages, part.sessions
    load_sum_ns, load_times = load_time_sum_ns(pages)
    row = {
        "requests": reqs.height,
        "clients": _distinct_clients(part.requests["client"]),
        "pages": pages.height,
        "with_base": int(pages["has_base"].sum()),
        "page_objects": int(pages["objects"].sum()),
        "page_bytes": int(pages["bytes"].sum()),
        "load_time_sum_ns": load_sum_ns,
        "load_times": load_times,
        "sessions": sessions.height,
        "session_pages": int(sessions["pages"].sum()),
        "session_requests": int(sessions["requests"].sum()),
    }
    schema = {k: (LOAD_TIME_SUM if k == "load_time_sum_ns" else pl.Int64) for k in TOTALS}
    return pl.DataFrame([row], schema=schema)


def _distinct_clients(client: pl.Series) -> int:
    """The distinct non-null clients of requests in session order (by client): the rows
    where the client changes."""
    changed = client.ne_missing(client.shift(1)) & client.is_not_null()
    return int(changed.sum())


def _session_classes(part: Annotated) -> pl.DataFrame:
    """Sessions with the user class of their first page. Pages in page id order are in
    session order (annotate's), so a session's first page starts its run of pages."""
    pages, sessions = part.pages, part.sessions
    if pages["page_id"].is_sorted() and pages["session_id"].is_sorted():
        first_pages, _ = run_bounds(pages["session_id"].to_numpy())
        starts = pages.select("session_id", "cls_user")[first_pages]
        if starts["session_id"].equals(sessions["session_id"]):
            return sessions.with_columns(starts["cls_user"])
    first = pages.group_by("session_id").agg(pl.col("cls_user").sort_by("page_id").first())
    return sessions.join(first, on="session_id", how="left")


def _fit_values(part: Annotated, reqs: pl.DataFrame, sessions: pl.DataFrame) -> list[pl.LazyFrame]:
    """Per quantity (in QUANTITIES order), ``cls_user, key, value``: every observed value
    of every fitted quantity (and of the latencies service time is chosen from);
    ``sessions`` with their classes. Each filter gathers only the columns its quantity
    reads."""
    ident = ["cls_user", "client", "user_agent", "ts"]
    pages = _class_coded(part.pages).lazy().sort("page_id")
    session_rows = _class_coded(sessions).lazy()
    reqs = _class_coded(reqs)
    same_page = pl.col("page_id") == pl.col("page_id").shift(1)
    gaps = reqs.lazy().select(*ident, "page_id").sort("page_id", maintain_order=True)
    gap = (pl.col("ts") - pl.col("ts").shift(1)).dt.total_nanoseconds() / 1e9
    same_session = pl.col("session_id") == pl.col("session_id").shift(1)
    think = (pl.col("ts") - pl.col("end_ts").shift(1)).dt.total_nanoseconds() / 1e9
    role = pl.col("page_role")
    reqs_lazy = reqs.lazy()
    latency = reqs_lazy.filter(pl.col("latency_s").is_not_null())
    return [
        _quantity(
            session_rows.with_columns(user_agent=pl.lit(None, pl.String)),
            "requests_per_session",
            pl.col("requests"),
        ),
        _quantity(
            pages.with_columns(
                pl.lit(None, pl.String).alias("user_agent"), think.alias("v")
            ).filter(same_session.fill_null(False) & (pl.col("v") >= 0)),
            "think_time_s",
            pl.col("v"),
        ),
        _quantity(
            pages.with_columns(user_agent=pl.lit(None, pl.String)),
            "objects_per_page",
            pl.col("objects"),
        ),
        _quantity(reqs_lazy.filter(role == "base"), "html_bytes", pl.col("bytes")),
        _quantity(reqs_lazy.filter(role != "base"), "object_bytes", pl.col("bytes")),
        _quantity(
            gaps.with_columns(gap.alias("v")).filter(same_page.fill_null(False)),
            "object_gap_s",
            pl.col("v"),
        ),
        _quantity(
            latency.filter(pl.col("quiet_class")), "latency_quiet_class", pl.col("latency_s")
        ),
        _quantity(latency.filter(pl.col("quiet_all")), "latency_quiet_all", pl.col("latency_s")),
        _quantity(latency, "latency_any", pl.col("latency_s")),
    ]


def _class_coded(frame: pl.DataFrame) -> pl.DataFrame:
    """The user class as a categorical: cast once per source row instead of once per
    fit value, and the samples group by its codes (a cast of strings hashes each)."""
    return frame.with_columns(pl.col("cls_user").cast(pl.Categorical()))


def _quantity(frame: pl.LazyFrame, name: str, value: pl.Expr) -> pl.LazyFrame:
    """``cls_user, key, value`` of the finite, non-negative values: the key a hash of the
    value and its request (the same in whichever part the request is), made here so no
    string is copied."""
    ident = pl.struct(
        pl.col("client").cast(pl.String),
        pl.col("user_agent").cast(pl.String),
        pl.col("ts"),
        value.cast(pl.Float64).alias("value"),
    )
    observed = frame.select(
        "cls_user",
        ident.hash(SAMPLE_SEED + QUANTITIES.index(name)).alias("key"),
        value.cast(pl.Float64).alias("value"),
    )
    return observed.filter(pl.col("value").is_finite() & (pl.col("value") >= 0))


def _categorical_groups() -> pl.Expr:
    """The sample's groups as categoricals: the joins on them then hash integers, not
    strings."""
    return pl.col(SAMPLE_GROUP).cast(pl.Categorical())


def _string_groups() -> pl.Expr:
    return pl.col(SAMPLE_GROUP).cast(pl.String)


def merge(partials: Iterable[Partial], sample_size: int) -> Partial:
    """One partial of several: counts added, histograms merged, samples' bottom-k."""
    collected: dict[str, list[pl.DataFrame]] = {}
    lazy: list[dict[str, pl.LazyFrame]] = []
    for partial in partials:
        for name, frame in partial.frames.items():
            collected.setdefault(name, []).append(frame)
        lazy.append({n: f.lazy() for n, f in partial.frames.items() if n in SAMPLE_FRAMES})
    merged = {
        name: _merged(name, frames)
        for name, frames in collected.items()
        if name not in SAMPLE_FRAMES
    }
    return Partial(merged | _merged_samples(lazy, sample_size))


def merge_stored(
    parts: Sequence[Mapping[str, pl.LazyFrame]],
    sample_size: int,
    batch_rows: int = MERGE_BATCH_ROWS,
) -> Partial:
    """:func:`merge` of partials stored as Parquet (each part: its frames' scans), one
    frame at a time: counts and histograms folded in batches of parts of about
    ``batch_rows`` rows (:func:`_fold_counts`), the samples folded in part by part
    (:func:`_fold_samples`). Memory follows the merged frames and the batch, not the
    number of parts (each part's frames span the whole log, so every part adds rows)."""
    names = sorted({name for part in parts for name in part} - set(SAMPLE_FRAMES))
    merged = {}
    for name in names:
        scans = [part[name] for part in parts if name in part]
        merged[name] = _fold_counts(name, scans, batch_rows)
    return Partial(merged | _merged_samples(parts, sample_size))


def _fold_counts(name: str, scans: Sequence[pl.LazyFrame], batch_rows: int) -> pl.DataFrame:
    """The frames aggregated a batch of parts at a time into the running result (sums and
    maxima regroup exactly: a batch's result is an input to the next)."""
    merged: pl.DataFrame | None = None
    for batch in _batches(scans, batch_rows):
        inputs = batch if merged is None else [merged.lazy(), *batch]
        merged = _aggregated(name, pl.concat(inputs, how="vertical_relaxed")).collect(
            engine="streaming"
        )
    assert merged is not None  # at least one part
    return merged


def _batches(scans: Sequence[pl.LazyFrame], batch_rows: int) -> Iterable[list[pl.LazyFrame]]:
    """Consecutive parts, each batch of at least one part and about ``batch_rows`` rows
    (counted from the files' metadata)."""
    batch: list[pl.LazyFrame] = []
    rows = 0
    for scan in scans:
        height = scan.select(pl.len()).collect().item()
        if batch and rows + height > batch_rows:
            yield batch
            batch, rows = [], 0
        batch.append(scan)
        rows += height
    if batch:
        yield batch


def _aggregated(name: str, frames: pl.LazyFrame) -> pl.LazyFrame:
    if name in HISTOGRAM_KEYS:
        keys = [*HISTOGRAM_KEYS[name], "idx"]
        return frames.group_by(keys).agg(pl.col("n").sum(), pl.col("max").max())
    keys = list(SUM_KEYS[name])
    if not keys:
        return frames.select(pl.all().sum())
    return frames.group_by(keys).agg(pl.all().sum()).sort(keys, nulls_last=True)


def _merged_samples(parts: Sequence[Mapping[str, pl.LazyFrame]], k: int) -> dict[str, pl.DataFrame]:
    """The merged sample: the exact bottom-k of every part's (docs/methods/workload.md,
    "Bounded memory"), as a part that kept every row of its ``k`` in its head. The heads
    are folded first; a group whose folded heads hold fewer than ``k`` rows below its
    smallest cut (of the parts with a tail of it) may miss rows of a tail, and only
    such groups' tails are then read and folded in."""
    folded = _fold_samples([part["samples"] for part in parts], k)
    short = _short_groups(
        folded, [part["sample_cuts"] for part in parts if "sample_cuts" in part], k
    )
    if short.height:
        tails = [
            part["sample_tails"].join(short.lazy(), on=SAMPLE_GROUP, how="semi", nulls_equal=True)
            for part in parts
            if "sample_tails" in part
        ]
        folded = _fold_samples([folded.lazy(), *tails], k)
    return {
        "samples": folded,
        "sample_tails": pl.DataFrame(schema=SAMPLE_SCHEMA),
        "sample_cuts": pl.DataFrame(schema=CUTS_SCHEMA),
    }


def _short_groups(folded: pl.DataFrame, cuts: Sequence[pl.LazyFrame], k: int) -> pl.DataFrame:
    """The groups with a tail whose folded heads hold fewer than ``k`` rows below their
    smallest cut. A part keeps every row below its cut in its head (its tail holds
    rows, so its ``k`` reach past the cut), so below the smallest cut of the parts with
    a tail, a row missing from the heads is only one its own part dropped: beaten by
    ``k`` rows of that part's head."""
    if not cuts:
        return pl.DataFrame(schema={name: pl.String for name in SAMPLE_GROUP})
    smallest = (
        pl.concat(cuts, how="vertical_relaxed").group_by(SAMPLE_GROUP).agg(pl.col("cut").min())
    )
    below = (
        folded.lazy()
        .join(smallest, on=SAMPLE_GROUP, nulls_equal=True)
        .filter(pl.col("key") < pl.col("cut"))
        .group_by(SAMPLE_GROUP)
        .agg(pl.len().alias("below"))
    )
    short = smallest.join(below, on=SAMPLE_GROUP, how="left", nulls_equal=True)
    return short.filter(pl.col("below").fill_null(0) < k).select(SAMPLE_GROUP).collect()


def _fold_samples(scans: Sequence[pl.LazyFrame], k: int) -> pl.DataFrame:
    """The bottom-k of the union of stored samples, read one part at a time. Once a group
    holds ``k`` rows, a row with a larger key than all of them has ``k`` smaller ones and
    cannot be chosen: it is dropped as it is read. The rows read are cut back to ``k`` a
    group whenever they have doubled."""
    scans = [scan.with_columns(_categorical_groups()) for scan in scans]
    kept = bottom_k(scans[0].collect(), k)
    cut = _cuts(kept, k)
    pending: list[pl.DataFrame] = []
    for scan in scans[1:]:
        chosen = scan.join(cut, on=SAMPLE_GROUP, how="left", nulls_equal=True)
        above = pl.col("key") > pl.col("_cut")
        pending.append(chosen.filter(above.not_().fill_null(True)).drop("_cut").collect())
        if sum(p.height for p in pending) >= kept.height:
            kept = bottom_k(pl.concat([kept, *pending], how="vertical_relaxed"), k)
            cut = _cuts(kept, k)
            pending = []
    folded = bottom_k(pl.concat([kept, *pending], how="vertical_relaxed"), k)
    return folded.with_columns(_string_groups())


def _cuts(kept: pl.DataFrame, k: int) -> pl.LazyFrame:
    """Per group holding ``k`` rows, its largest key."""
    full = kept.group_by(SAMPLE_GROUP).agg(pl.col("key").max().alias("_cut"), pl.len())
    return full.filter(pl.col("len") >= k).drop("len").lazy()


def _merged(name: str, frames: list[pl.DataFrame]) -> pl.DataFrame:
    if name in HISTOGRAM_KEYS:
        return merge_histograms(frames, HISTOGRAM_KEYS[name])
    return _sum(frames, SUM_KEYS[name])


def _sum(frames: list[pl.DataFrame], keys: tuple[str, ...]) -> pl.DataFrame:
    both = pl.concat(frames, how="vertical_relaxed")
    if not keys:
        return both.select(pl.all().sum())
    return both.group_by(list(keys)).agg(pl.all().sum()).sort(list(keys), nulls_last=True)
