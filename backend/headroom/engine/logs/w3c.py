"""W3C extended logs (IIS and others): `#Fields:` directives name the columns and may
change mid-file; each data line is read with the latest one before it.

Values are space separated (IIS writes `+` for spaces) or double-quoted (a quote inside
is doubled, as the W3C draft says). `time-taken` is milliseconds in IIS; a value with a
decimal point is read as seconds (the W3C draft's unit). Times are UTC unless a
`#GMT-Offset: -0800` directive says they are local: then UTC = local - offset (the latest
offset before a line applies). Directive and blank lines are structure: skipped, not
rejected. A chunk's lines before its first directive use the header (and offset) given in
the format name (``w3c:<#Fields line>[ #GMT-Offset: <+-hhmm>]``, which detect_format
fills in from the sample and format_after carries from chunk to chunk).
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
TOKEN = r'"(?:[^"]|"")*"|\S+'
OFFSET_DIRECTIVE = "#GMT-Offset:"
OFFSET = r"^#GMT-Offset:\s*([+-]?)(\d{1,2}):?(\d{2})\s*$"
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
    default_offset_min: int = 0  # minutes east of UTC (#GMT-Offset) before a directive says
    latency_unit: str | None = "ms"
    time_is_completion: bool = False
    notes: tuple[str, ...] = field(default=("W3C extended log: times read as UTC",))

    def fields_count(self) -> int:
        return len((self.default_fields or "").split()) or 1

    def scan(self, buf: np.ndarray) -> Scan:
        lines = split(buf)
        frame = _frame(lines, self.default_fields, self.default_offset_min)
        raw = _values(frame)
        table = _convert(raw)
        err = _errors(frame, raw, table)
        structural = (err == E_DIRECTIVE) | (err == E_EMPTY)
        reason = lambda i: REASONS[int(err[i])]  # noqa: E731
        return finish(lines, table, err, reason, self.fields_count(), structural)


def offset_minutes(text: pl.Expr) -> pl.Expr:
    """Minutes east of UTC of a `#GMT-Offset: -0800` line (null on other lines)."""
    sign = pl.when(text.str.extract(OFFSET, 1) == "-").then(-1).otherwise(1)
    hours = text.str.extract(OFFSET, 2).cast(pl.Int32)
    return sign * (hours * 60 + text.str.extract(OFFSET, 3).cast(pl.Int32))


def _frame(lines: Lines, default_fields: str | None, default_offset_min: int) -> pl.DataFrame:
    text = lines.text
    header = text.str.extract(r"^#Fields:\s*(.*)$").str.strip_chars()
    date = text.str.extract(r"^#Date:\s*(\d{4}-\d{2}-\d{2})")
    frame = pl.DataFrame({"line": text, "header": header, "hdate": date})
    return frame.with_columns(
        pl.col("header").forward_fill().fill_null(pl.lit(default_fields, pl.String)),
        pl.col("hdate").forward_fill(),
        offset_minutes(pl.col("line")).forward_fill().fill_null(default_offset_min).alias("gmt"),
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
                value = _unquote(pl.col("tokens").list.get(i, null_on_oob=True))
                picks.setdefault(column, []).append(pl.when(pl.col("header") == h).then(value))
    counts: list[pl.Expr] = [pl.when(pl.col("header") == h).then(len(h.split())) for h in headers]
    exprs = [pl.coalesce(v).alias(c) for c, v in picks.items()]
    exprs.append(pl.coalesce(counts or [pl.lit(None)]).alias("n_fields"))
    return frame.with_columns(exprs)


def _unquote(token: pl.Expr) -> pl.Expr:
    """A token's value: a quoted one without its quotes and with `""` read as `"`."""
    quoted = token.str.starts_with('"') & token.str.ends_with('"') & (token.str.len_bytes() > 1)
    inner = token.str.slice(1, token.str.len_chars() - 2).str.replace_all('""', '"', literal=True)
    return pl.when(quoted).then(inner).otherwise(token.str.strip_chars('"'))


def _dash(c: str) -> pl.Expr:
    return pl.when(pl.col(c) != "-").then(pl.col(c))


def _convert(raw: pl.DataFrame) -> pl.DataFrame:
    cols = set(raw.columns)
    date = pl.col("date") if "date" in cols else pl.col("hdate")
    stamp = pl.concat_str([date, pl.col("time") if "time" in cols else pl.lit(None)], separator=" ")
    local = stamp.str.to_datetime("%Y-%m-%d %H:%M:%S%.f", strict=False, time_unit="ns")
    utc = local - pl.duration(minutes=pl.col("gmt"))
    out = [utc.dt.replace_time_zone("UTC").alias("ts")]
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


def w3c_name(fields: str | None, offset: str | None) -> str:
    """The format name carrying a `#Fields:` line's fields and a `#GMT-Offset:` value."""
    spec = (fields or "").strip() + (f" {OFFSET_DIRECTIVE} {offset.strip()}" if offset else "")
    return "w3c:" + spec.strip() if spec.strip() else "w3c"


def parse_spec(spec: str) -> tuple[str | None, int]:
    """(fields, offset minutes) of a ``w3c:`` name's spec."""
    fields, _, offset = spec.partition(OFFSET_DIRECTIVE)
    minutes = pl.select(offset_minutes(pl.lit(f"{OFFSET_DIRECTIVE} {offset.strip()}"))).item()
    return fields.strip() or None, int(minutes or 0)


def last_directive(data: bytes, directive: bytes) -> str | None:
    """The value of the last `directive` line (at a line start) in data, else None."""
    at = len(data)
    while (at := data.rfind(directive, 0, at)) >= 0:
        if at == 0 or data[at - 1] == 10:
            line_end = data.find(b"\n", at)
            line = bytes(data[at : line_end if line_end >= 0 else len(data)])
            return line.decode("utf-8", "replace").removeprefix(directive.decode()).strip()
    return None


def format_after(fmt: str, chunk: bytes | bytearray | np.ndarray) -> str:
    """The format for the text that follows `chunk`: a W3C format takes the last `#Fields:`
    and `#GMT-Offset:` directives in `chunk` (at a line start), so the next chunk reads
    its columns and times right."""
    kind, _, spec = fmt.partition(":")
    if kind != "w3c":
        return fmt
    data = bytes(chunk)
    fields = last_directive(data, b"#Fields:")
    offset = last_directive(data, OFFSET_DIRECTIVE.encode())
    if fields is None and offset is None:
        return fmt
    old_fields, _ = parse_spec(spec)
    old_offset = spec.partition(OFFSET_DIRECTIVE)[2].strip() or None
    return w3c_name(fields if fields is not None else old_fields, offset or old_offset)
