"""JSON-lines access logs: a field map (column -> JSONPath) applied with polars.

Anything before the first `{` on a line (e.g. a docker-compose `caddy  | ` prefix or a
syslog header) is ignored. A line is a request when its time and status fields are
present. A parser with a `message_only` rule skips the server's own log messages (Caddy:
an entry with a `msg` and no `request`, e.g. "server running"): they are not requests and
not failures. Other lines (broken JSON, an entry with a request but no status) are rejects.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from .linetable import LATENCY_PER_S, finish, parse_time, split, split_url
from .records import LogInputError
from .tabulate import Scan

COLUMNS = ("ts", "client", "method", "url", "path", "query", "status", "bytes", "latency",
           "referer", "user_agent", "server")  # fmt: skip
REQUIRED = ("ts", "status")
CADDY_FIELDS: dict[str, str | list[str]] = {
    "ts": "$.ts",
    "client": ["$.request.client_ip", "$.request.remote_ip"],
    "method": "$.request.method",
    "url": "$.request.uri",
    "status": "$.status",
    "bytes": "$.size",
    "latency": "$.duration",
    "referer": "$.request.headers.Referer[0]",
    "user_agent": "$.request.headers.User-Agent[0]",
    "server": "$.request.host",
}


@dataclass(frozen=True)
class JsonLinesParser:
    """`fields` maps request-table columns (plus `url` and `latency`) to JSONPaths, or
    lists of paths tried in order; `time` is epoch_s/epoch_ms/epoch_us/epoch_ns/iso8601."""

    name: str
    fields: dict[str, str | list[str]]
    time: str = "epoch_s"
    latency_unit: str | None = "s"
    time_is_completion: bool = False
    notes: tuple[str, ...] = field(default=())
    message_only: tuple[str, str] | None = None  # (present, absent) JSONPaths: a message

    def fields_count(self) -> int:
        return len(self.fields)

    def scan(self, buf: np.ndarray) -> Scan:
        lines = split(buf)
        body = lines.text.str.replace(r"^[^{]*", "")
        raw = pl.DataFrame({c: _extract(body, p) for c, p in self.fields.items()})
        frame = raw.select(self._columns(raw))
        if self.time_is_completion and {"ts", "latency_s"} <= set(frame.columns):
            took = pl.duration(nanoseconds=(pl.col("latency_s") * 1e9).round(0).cast(pl.Int64))
            frame = frame.with_columns(pl.col("ts") - took.fill_null(pl.duration(nanoseconds=0)))
        missing = [pl.col(c).is_null() for c in REQUIRED if c in frame.columns]
        bad = frame.select(pl.any_horizontal(missing) if missing else pl.lit(False)).to_series()
        err = bad.to_numpy().astype(np.int8)
        reason = _reasons(raw, frame)
        skip = None
        if self.message_only is not None:
            present, absent = (body.str.json_path_match(p) for p in self.message_only)
            skip = (present.is_not_null() & absent.is_null()).to_numpy()
            err = np.where(skip, 1, err).astype(np.int8)
        return finish(lines, frame, err, reason, len(self.fields), skip)

    def _columns(self, raw: pl.DataFrame) -> list[pl.Expr]:
        out = []
        for c in raw.columns:
            col = pl.col(c)
            if c == "ts":
                out.append(parse_time(col, self.time).alias("ts"))
            elif c == "status":
                out.append(col.cast(pl.Float64, strict=False).cast(pl.Int16, strict=False))
            elif c == "bytes":
                out.append(col.cast(pl.Float64, strict=False).cast(pl.Int64, strict=False))
            elif c == "latency":
                per_s = LATENCY_PER_S[self.latency_unit or "s"]
                out.append((col.cast(pl.Float64, strict=False) / per_s).alias("latency_s"))
            elif c == "url":
                path, query = split_url(col)
                out.extend([path.alias("path"), query.alias("query")])
            else:
                out.append(col)
        return out


def _extract(body: pl.Series, paths: str | list[str]) -> pl.Series:
    options = [paths] if isinstance(paths, str) else paths
    found = [body.str.json_path_match(p) for p in options]
    return pl.select(pl.coalesce(found)).to_series() if len(found) > 1 else found[0]


def _reasons(raw: pl.DataFrame, frame: pl.DataFrame) -> Any:
    def reason(i: int) -> str:
        for c in REQUIRED:
            if c in raw.columns and raw[c][i] is None:
                return f"no {c} field (not an access entry, or not JSON)"
            if c in frame.columns and frame[c][i] is None:
                return f"bad {c} {raw[c][i]!r}"
        return "unparseable"

    return reason


def caddy() -> JsonLinesParser:
    note = "Caddy JSON access log: duration in seconds, ts = completion time"
    messages = ("$.msg", "$.request")  # Caddy's own messages: start-up, shutdown, TLS
    return JsonLinesParser("caddy", CADDY_FIELDS, "epoch_s", "s", True, (note,), messages)


def from_spec(spec: str) -> JsonLinesParser:
    """`json:{"fields": {...}, "time": "iso8601", "latency_unit": "ms"}`."""
    try:
        doc = json.loads(spec)
        fields = doc["fields"]
        unknown = set(fields) - set(COLUMNS)
        assert not unknown, f"unknown columns {sorted(unknown)}"
        return JsonLinesParser(
            f"json:{spec}", fields, doc.get("time", "epoch_s"), doc.get("latency_unit", "s"),
            bool(doc.get("time_is_completion", False)),
        )  # fmt: skip
    except (ValueError, KeyError, TypeError, AssertionError) as exc:
        raise LogInputError("bad_log_format", f"bad JSON field map: {exc}") from exc
