"""Latency traces from CSV or JSON lines: one row per request with an arrival time and
either a departure time or a duration, and optionally the server that handled it.

Times may be epoch seconds, milliseconds, microseconds or nanoseconds (told apart by
size) or ISO-8601 strings;
a duration's unit comes from its column name (`_ms`, `_us`, else seconds)."""

from pathlib import Path

import polars as pl

from headroom.engine.logs import LogInputError

ARRIVAL = ("arrival", "arrive", "arrival_ts", "start", "start_time", "ts", "timestamp", "time")
DEPARTURE = ("departure", "depart", "departure_ts", "end", "end_time", "finish")
DURATION = ("duration", "latency", "response_time", "elapsed")
UNITS = {"_s": 1.0, "_ms": 1e-3, "_us": 1e-6, "": 1.0}
SERVER = ("server", "host", "instance", "upstream")
EPOCH_MS_ABOVE = 1e11  # epoch seconds stay below this until the year 5138
TS = pl.Datetime("ns", "UTC")


def read_trace(path: Path) -> pl.DataFrame:
    """The trace as a table with columns ts, latency_s and (when given) server."""
    raw = _read_raw(path)
    names = {c.strip().lower(): c for c in raw.columns}
    arrival = _pick(names, ARRIVAL)
    if arrival is None:
        raise LogInputError(
            "no_arrival", f"the trace has no arrival column ({', '.join(ARRIVAL)}); "
            f"columns: {', '.join(c[:40] for c in raw.columns[:20])}"
        )  # fmt: skip
    ts = timestamps(raw[arrival])
    columns = {"ts": ts, "latency_s": _latency_s(raw, names, ts)}
    server = _pick(names, SERVER)
    if server is not None:
        columns["server"] = raw[server].cast(pl.Utf8)
    return pl.DataFrame(columns).filter(pl.col("latency_s").is_not_null()).sort("ts")


def _read_raw(path: Path) -> pl.DataFrame:
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096).lstrip()
        if head.startswith(b"{"):
            return pl.read_ndjson(path, infer_schema_length=10_000)
        return pl.read_csv(path, infer_schema_length=10_000, try_parse_dates=False)
    except (pl.exceptions.PolarsError, ValueError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise LogInputError("unparseable_trace", f"cannot read the trace: {first}") from error


def _pick(names: dict[str, str], wanted: tuple[str, ...]) -> str | None:
    return next((names[w] for w in wanted if w in names), None)


def _latency_s(raw: pl.DataFrame, names: dict[str, str], ts: pl.Series) -> pl.Series:
    departure = _pick(names, DEPARTURE)
    if departure is not None:
        seconds = (timestamps(raw[departure]) - ts).dt.total_nanoseconds() / 1e9
        return seconds.cast(pl.Float64)
    for base in DURATION:
        for suffix, scale in UNITS.items():
            if base + suffix in names:
                return _numbers(raw[names[base + suffix]]) * scale
    raise LogInputError(
        "no_latency",
        "the trace has no departure column (departure, end, ...) and no duration column "
        "(duration, duration_ms, latency_s, ...): SCT needs each request's response time",
    )


def _numbers(column: pl.Series) -> pl.Series:
    values = column.cast(pl.Float64, strict=False)
    if values.null_count() > column.null_count():
        raise LogInputError(
            "bad_number", f"column {column.name!r} holds values that are not numbers"
        )
    return values


def timestamps(column: pl.Series) -> pl.Series:
    """Epoch s / epoch ms / ISO-8601 -> Datetime(ns, UTC)."""
    if column.dtype == pl.Utf8:
        as_number = column.cast(pl.Float64, strict=False)
        if as_number.null_count() == column.null_count():
            return timestamps(as_number)
        try:
            return column.str.to_datetime(time_zone="UTC", time_unit="ns")
        except pl.exceptions.PolarsError as error:
            raise LogInputError(
                "bad_timestamp", f"column {column.name!r} holds times that are not ISO-8601"
            ) from error
    if isinstance(column.dtype, pl.Datetime):
        return column.cast(TS) if column.dtype.time_zone else column.dt.replace_time_zone("UTC")
    values = _numbers(column)
    nanoseconds = values * _ns_per_unit(float(values.abs().max() or 0.0))  # type: ignore[arg-type]
    return nanoseconds.round().cast(pl.Int64).cast(pl.Datetime("ns")).dt.replace_time_zone("UTC")


def _ns_per_unit(largest: float) -> float:
    """Epoch s, ms, us or ns by magnitude (each unit is 1000x the last; now is ~1.7e9 s)."""
    for above, scale in ((1e17, 1.0), (1e14, 1e3), (EPOCH_MS_ABOVE, 1e6)):
        if largest > above:
            return scale
    return 1e9
