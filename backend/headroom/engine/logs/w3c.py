"""W3C extended logs (IIS and others): `#Fields:` directives name the columns and may
change mid-file; each data line is read with the latest one before it.

Values are space separated (IIS writes `+` for spaces) or double-quoted. `time-taken`
is milliseconds in IIS; a value with a decimal point is read as seconds (the W3C draft's
unit). A chunk's lines before its first `#Fields:` use the header given in the format
name (``w3c:<#Fields line>``, which detect_format fills in from the sample).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from .linetable import Lines, finish, split
from .tabulate import Scan

# W3C field -> request-table column (several spellings seen in the wild)
FIELD_COLUMNS = {
    "date": "date", "date-local": "date", "time": "time", "time-local": "time",
    "c-ip": "client", "cs-method": "method", "cs-uri-stem": "path", "cs-uri-query": "query",
    "cs-uri": "url", "sc-status": "status", "sc-bytes": "bytes", "bytes": "bytes",
    "time-taken": "latency", "timetakenms": "latency_ms", "cs(user-agent)": "user_agent",
    "cs(referer)": "referer", "cs(referrer)": "referer", "cs-host": "server", "cs(host)": "server",
}  # fmt: skip
TOKEN = r'"[^"]*"|\S+'
E_DIRECTIVE, E_EMPTY, E_NO_HEADER, E_COUNT, E_TIME = 1, 2, 3, 4, 5
REASONS = {
    E_DIRECTIVE: "W3C directive line, not a request",
    E_EMPTY: "empty line",
    E_NO_HEADER: "no #Fields: directive before this line",
    E_COUNT: "number of values differs from the #Fields: directive",
    E_TIME: "bad or missing date/time",
}


@dataclass(frozen=True)
class W3CParser:
    name: str = "w3c"
    default_fields: str | None = None
    latency_unit: str | None = "ms"
    time_is_completion: bool = False
    notes: tuple[str, ...] = field(default=("W3C extended log: times read as UTC",))

    def fields_count(self) -> int:
        return len((self.default_fields or "").split()) or 1

    def scan(self, buf: np.ndarray) -> Scan:
        lines = split(buf)
        frame = _frame(lines, self.default_fields)
        raw = _values(frame)
        table = _convert(raw)
        err = _errors(frame, raw, table)
        structural = (err == E_DIRECTIVE) | (err == E_EMPTY)
        reason = lambda i: REASONS[int(err[i])]  # noqa: E731
        return finish(lines, table, err, reason, self.fields_count(), structural)


def _frame(lines: Lines, default_fields: str | None) -> pl.DataFrame:
    text = lines.text
    header = text.str.extract(r"^#Fields:\s*(.*)$").str.strip_chars()
    date = text.str.extract(r"^#Date:\s*(\d{4}-\d{2}-\d{2})")
    frame = pl.DataFrame({"line": text, "header": header, "hdate": date})
    return frame.with_columns(
        pl.col("header").forward_fill().fill_null(pl.lit(default_fields, pl.String)),
        pl.col("hdate").forward_fill(),
        pl.col("line").str.starts_with("#").alias("directive"),
        pl.col("line").str.extract_all(TOKEN).alias("tokens"),
    )


def _values(frame: pl.DataFrame) -> pl.DataFrame:
    """One text column per request-table field, picked per line by its header."""
    picks: dict[str, list[pl.Expr]] = {}  # column -> one `when(header).then(value)` per header
    headers = frame.filter(~pl.col("directive"))["header"].drop_nulls().unique().to_list()
    for h in headers:
        for i, name in enumerate(h.split()):
            column = FIELD_COLUMNS.get(name.lower())
            if column:
                value = pl.col("tokens").list.get(i, null_on_oob=True).str.strip_chars('"')
                picks.setdefault(column, []).append(pl.when(pl.col("header") == h).then(value))
    counts: list[pl.Expr] = [pl.when(pl.col("header") == h).then(len(h.split())) for h in headers]
    exprs = [pl.coalesce(v).alias(c) for c, v in picks.items()]
    exprs.append(pl.coalesce(counts or [pl.lit(None)]).alias("n_fields"))
    return frame.with_columns(exprs)


def _dash(c: str) -> pl.Expr:
    return pl.when(pl.col(c) != "-").then(pl.col(c))


def _convert(raw: pl.DataFrame) -> pl.DataFrame:
    cols = set(raw.columns)
    date = pl.col("date") if "date" in cols else pl.col("hdate")
    stamp = pl.concat_str([date, pl.col("time") if "time" in cols else pl.lit(None)], separator=" ")
    out = [
        stamp.str.to_datetime("%Y-%m-%d %H:%M:%S%.f", strict=False, time_unit="ns")
        .dt.replace_time_zone("UTC").alias("ts")
    ]  # fmt: skip
    for c in ("client", "method", "path", "query", "server"):
        if c in cols:
            out.append(_dash(c).alias(c))
    for c in ("user_agent", "referer"):
        if c in cols:
            out.append(_dash(c).str.replace_all("+", " ", literal=True).alias(c))
    if "url" in cols and "path" not in cols:
        out.append(_dash("url").str.extract(r"^([^?]*)").alias("path"))
    if "url" in cols and "query" not in cols:
        out.append(_dash("url").str.extract(r"\?(.+)$").alias("query"))
    for c, t in (("status", pl.Int16), ("bytes", pl.Int64)):
        if c in cols:
            out.append(pl.col(c).cast(t, strict=False))
    out.append(_latency(cols))
    return raw.with_columns(out)


def _latency(cols: set[str]) -> pl.Expr:
    if "latency_ms" in cols:
        return (pl.col("latency_ms").cast(pl.Float64, strict=False) / 1e3).alias("latency_s")
    if "latency" not in cols:
        return pl.lit(None, pl.Float64).alias("latency_s")
    v = pl.col("latency")
    secs = v.str.contains(".", literal=True)  # the W3C draft's seconds; IIS writes integer ms
    number = v.cast(pl.Float64, strict=False)
    return pl.when(secs).then(number).otherwise(number / 1e3).alias("latency_s")


def _errors(frame: pl.DataFrame, raw: pl.DataFrame, table: pl.DataFrame) -> np.ndarray:
    code = (
        pl.when(pl.col("directive")).then(E_DIRECTIVE)
        .when(pl.col("line") == "").then(E_EMPTY)
        .when(pl.col("n_fields").is_null()).then(E_NO_HEADER)
        .when(pl.col("tokens").list.len() != pl.col("n_fields")).then(E_COUNT)
        .when(pl.col("ts").is_null()).then(E_TIME)
        .otherwise(0)
    )  # fmt: skip
    both = raw.select("directive", "line", "n_fields", "tokens").with_columns(table["ts"])
    return both.select(code).to_series().to_numpy().astype(np.int8)


def format_after(fmt: str, chunk: bytes | bytearray | np.ndarray) -> str:
    """The format for the text that follows `chunk`: a W3C format takes the last `#Fields:`
    directive in `chunk` (at a line start), so the next chunk reads its columns right."""
    if fmt.partition(":")[0] != "w3c":
        return fmt
    data = bytes(chunk)
    at = len(data)
    while (at := data.rfind(b"#Fields:", 0, at)) >= 0:
        if at == 0 or data[at - 1] == 10:
            line_end = data.find(b"\n", at)
            line = bytes(data[at : line_end if line_end >= 0 else len(data)])
            return "w3c:" + line.decode("utf-8", "replace").removeprefix("#Fields:").strip()
    return fmt
