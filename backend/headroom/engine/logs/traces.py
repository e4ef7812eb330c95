"""Latency traces: CSV or TSV (with a header) or JSON lines, one row per request, with an
arrival time and usually a departure time or a duration (without either, latency is null);
optional server/tier/host, class, status, bytes, method, path/url columns. Times are epoch
seconds/milliseconds/... or ISO-8601. Request logs converted to TSV (NASA-HTTP's
`host logname time method url response bytes`: `logname` marks host as the client) read
the same way.

Names: ``trace_csv:<time kind>:<header line>`` (tab-separated when the header holds tabs)
and ``trace_jsonl:<time kind>``; the time kind (epoch_s, epoch_ms, epoch_us, epoch_ns,
iso8601) is decided from a sample by `trace_parser_for`. A duration column's unit comes
from its suffix (`_ms`, `_us`, `_s`), else seconds. Empty values after the last column
are allowed (converters leave trailing separators).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from .linetable import LATENCY_PER_S, TIME_SCALE_NS, Lines, finish, parse_time, split, split_url
from .tabulate import Scan

ARRIVAL = ("arrival", "arrival_time", "arrival_ts", "start", "start_time", "timestamp", "ts",
           "time", "request_time")  # fmt: skip
DEPARTURE = ("departure", "departure_time", "end", "end_time", "completion", "finish")
DURATION = ("duration", "duration_s", "duration_ms", "duration_us", "latency", "latency_s",
            "latency_ms", "latency_us", "response_time", "response_time_ms", "rt")  # fmt: skip
OPTIONAL = {"server": "server", "tier": "server", "host": "server", "class": "cls_request",
            "status": "status", "response": "status", "bytes": "bytes", "size": "bytes",
            "path": "path", "url": "url", "method": "method", "client": "client"}  # fmt: skip
CLF_DERIVED = "logname"  # a CLF column: the log was converted, `host` is the client
E_HEADER, E_COUNT, E_TIME = 1, 2, 3
REASONS = {E_HEADER: "CSV header line", E_COUNT: "wrong number of values",
           E_TIME: "bad or missing arrival time"}  # fmt: skip


def _pick(names: list[str], options: tuple[str, ...]) -> str | None:
    lower = {n.lower(): n for n in names}
    return next((lower[o] for o in options if o in lower), None)


def _unit(name: str) -> str:
    for suffix in ("ms", "us", "ns", "s"):
        if name.lower().endswith("_" + suffix):
            return suffix
    return "s"


def time_kind(values: pl.Series) -> str:
    """epoch_s/ms/us/ns by magnitude of numeric values, else iso8601."""
    numbers = values.cast(pl.Float64, strict=False).drop_nulls()
    if numbers.len() == 0:
        return "iso8601"
    median = float(np.median(numbers.abs().to_numpy()))
    for kind, limit in (("epoch_s", 1e11), ("epoch_ms", 1e14), ("epoch_us", 1e17)):
        if median < limit:
            return kind
    return "epoch_ns"


@dataclass(frozen=True)
class TraceParser:
    name: str
    kind: str  # epoch_s ... or iso8601
    header: tuple[str, ...] = ()  # CSV column names; empty for JSON lines
    sep: str = ","
    time_is_completion: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def latency_unit(self) -> str | None:
        return "s"

    def fields_count(self) -> int:
        return len(self.header) or 3

    def scan(self, buf: np.ndarray) -> Scan:
        lines = split(buf)
        raw, err = self._raw(lines)
        table = _table(raw, self.kind, lines.text.len())
        err = np.where((err == 0) & table["ts"].is_null().to_numpy(), E_TIME, err).astype(np.int8)
        reason = lambda i: REASONS[int(err[i])]  # noqa: E731
        return finish(lines, table, err, reason, self.fields_count(), err == E_HEADER)

    def _raw(self, lines: Lines) -> tuple[pl.DataFrame, np.ndarray]:
        text = lines.text
        if not self.header:
            body = text.str.replace(r"^[^{]*", "")
            keys = _json_keys(body)
            raw = pl.DataFrame({k: body.str.json_path_match(f"$.{k}") for k in keys})
            return raw, np.zeros(text.len(), np.int8)
        parts = text.str.split(self.sep)
        raw = pl.DataFrame(
            {
                n: parts.list.get(i, null_on_oob=True).str.strip_chars(' "')
                for i, n in enumerate(self.header)
            }
        )
        n = len(self.header)
        is_header = (text == self.sep.join(self.header)).to_numpy()
        extra = parts.list.slice(n).list.join("").fill_null("") != ""
        bad = ((parts.list.len() < n) | extra).to_numpy()
        return raw, np.where(is_header, E_HEADER, np.where(bad, E_COUNT, 0)).astype(np.int8)


def _json_keys(body: pl.Series) -> list[str]:
    wanted = set(ARRIVAL + DEPARTURE + DURATION) | set(OPTIONAL)
    sample = body.head(50).to_list()
    keys: set[str] = set()
    for line in sample:
        try:
            keys |= set(json.loads(line)) if line else set()
        except (ValueError, TypeError):
            continue
    return sorted(k for k in keys if k.lower() in wanted)


def _table(raw: pl.DataFrame, kind: str, n: int) -> pl.DataFrame:
    names = raw.columns
    if not names:  # no known key on any line: every line fails for want of a time
        return pl.DataFrame({"ts": pl.Series([None] * n, dtype=pl.Datetime("ns", "UTC"))})
    arrival, departure = _pick(names, ARRIVAL), _pick(names, DEPARTURE)
    duration = _pick(names, DURATION)
    cols: list[pl.Expr] = []
    ts = parse_time(pl.col(arrival), kind) if arrival else pl.lit(None, pl.Datetime("ns", "UTC"))
    cols.append(ts.alias("ts"))
    if duration:
        per_s = LATENCY_PER_S[_unit(duration)]
        cols.append((pl.col(duration).cast(pl.Float64, strict=False) / per_s).alias("latency_s"))
    elif departure and arrival and kind in TIME_SCALE_NS:  # difference of the numbers as given
        took = pl.col(departure).cast(pl.Float64, strict=False) - pl.col(arrival).cast(
            pl.Float64, strict=False
        )
        cols.append((took / (1e9 / TIME_SCALE_NS[kind])).alias("latency_s"))
    elif departure and arrival:
        took = parse_time(pl.col(departure), kind) - parse_time(pl.col(arrival), kind)
        cols.append((took.dt.total_nanoseconds() / 1e9).alias("latency_s"))
    converted = CLF_DERIVED in {n.lower() for n in names}
    for name in names:
        column = OPTIONAL.get(name.lower())
        if converted and name.lower() == "host":
            column = "client"
        if column == "url":
            path, query = split_url(pl.col(name))
            cols += [path.alias("path"), query.alias("query")]
        elif column in ("status", "bytes"):
            dtype = pl.Int16 if column == "status" else pl.Int64
            cols.append(pl.col(name).cast(pl.Float64, strict=False).cast(dtype).alias(column))
        elif column:
            cols.append(pl.col(name).alias(column))
    return raw.select(cols)


def trace_parser_for(sample: bytes) -> TraceParser | None:
    """A trace parser fitted to the sample's header and time values, or None."""
    first, _, rest = sample.partition(b"\n")
    text = first.decode("utf-8", "replace").strip()
    if text.startswith("{"):
        keys = _json_keys(pl.Series([text]))
        arrival = _pick(keys, ARRIVAL)
        if not arrival:
            return None
        value = pl.Series([text]).str.json_path_match(f"$.{arrival}")
        kind = time_kind(value)
        return TraceParser(f"trace_jsonl:{kind}", kind)
    sep = "\t" if "\t" in text and "," not in text else ","
    header = [h.strip(' "') for h in text.split(sep)]
    arrival = _pick(header, ARRIVAL)
    if len(header) < 2 or not arrival:
        return None
    rows = [r.split(sep) for r in rest.decode("utf-8", "replace").splitlines()[:200]]
    i = header.index(arrival)
    kind = time_kind(pl.Series([r[i].strip(' "') for r in rows if len(r) > i], dtype=pl.String))
    return TraceParser(f"trace_csv:{kind}:{text}", kind, tuple(header), sep)


def trace_from_name(name: str) -> TraceParser | None:
    kind, _, rest = name.partition(":")
    if kind == "trace_jsonl" and rest:
        return TraceParser(name, rest)
    if kind == "trace_csv" and rest:
        time, _, header = rest.partition(":")
        sep = "\t" if "\t" in header and "," not in header else ","
        return TraceParser(name, time, tuple(h.strip(' "') for h in header.split(sep)), sep)
    return None
