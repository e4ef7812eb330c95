"""TemplateParser: scanner outputs -> the request table, plus why each bad line failed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import polars as pl

from . import scanner as sc
from .clf import clf_shape
from .records import REQUEST_SCHEMA
from .template import PER_S, SCALE_S, STRING_ROLES, Parts, Program, compile_template
from .views import line_strings, view_columns, views_to_series

DASH_NULL = {"client": False, "method": False, "path": False, "query": False}


@dataclass(frozen=True)
class Scan:
    """Per-line outcome of a parser over a buffer, before rejects are collected."""

    table: pl.DataFrame  # rows of the lines with err == 0, in order
    starts: np.ndarray
    ends: np.ndarray
    err: np.ndarray
    reason: Callable[[int], str]  # line index -> why it was rejected
    progress: float = 0.0  # mean fraction of the template matched per line (1 = parsed)
    latency_raw: np.ndarray | None = None  # the parsed lines' response times, unscaled
    latency_point: np.ndarray | None = None  # ... and whether each had a decimal point
    structural: np.ndarray | None = None  # lines that are format structure (blank, headers)


class LineParser(Protocol):
    """What every format's parser offers (templates, JSON lines, W3C, traces)."""

    @property
    def name(self) -> str: ...
    @property
    def latency_unit(self) -> str | None: ...
    @property
    def notes(self) -> tuple[str, ...]: ...
    def fields_count(self) -> int: ...
    def scan(self, buf: np.ndarray) -> Scan: ...


@dataclass(frozen=True)
class TemplateParser:
    """A parser for one line template. `time_is_completion`: the logged time is when the
    response finished (nginx $time_local), so arrival = time - latency."""

    name: str
    parts: Parts
    time_is_completion: bool = False
    notes: tuple[str, ...] = ()
    clf: bool = False  # a Common/Combined family template: try clf.py's fast path first
    messages: str | None = None  # regex: a line that fails and matches is the server's own
    # message (e.g. HAProxy's "Proxy web started."): skipped, not rejected
    program: Program = field(init=False, repr=False, compare=False)
    fast: np.ndarray = field(init=False, repr=False, compare=False)
    strings: list[tuple[str, int, int, bool]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        p = compile_template(self.parts)
        object.__setattr__(self, "program", p)
        slots = {f.role: k for k, f in enumerate(p.fields)}
        shape = clf_shape("server" in slots, "referer" in slots, slots) if self.clf else None
        object.__setattr__(self, "fast", np.zeros(0, np.int64) if shape is None else shape)
        object.__setattr__(self, "strings", _string_sources(p))

    @property
    def latency_unit(self) -> str | None:
        k = self.program.slot("latency", "latency_sum", "timers")
        return self.program.fields[k].unit if k >= 0 else None

    def fields_count(self) -> int:
        return sum(1 for f in self.program.fields if f.role != "skip")

    def scan(self, buf: np.ndarray) -> Scan:
        p = self.program
        cols = view_columns(self.strings)
        out = sc.scan_template(buf, sc.line_count(buf), p.arrays, p.conv, self.fast, cols)
        starts, ends, fs, fe, ival, fval, flag, _req, err, step, pos = out[:11]
        ok = np.flatnonzero(err == 0)
        table = _assemble(self, buf, ok, (ival, fval, flag), out[11:])
        reason = _reasons(p, buf, fs, fe, err, step, pos)
        done = np.where(err == 0, 1.0, step / max(p.n_steps, 1))
        progress = float(done.mean()) if done.size else 0.0
        k = p.slot("latency", "latency_sum", "timers")
        blank = (err == sc.E_EMPTY) | self._messages(buf, starts, ends, err)
        if k < 0:
            return Scan(table, starts, ends, err, reason, progress, structural=blank)
        flags = flag[k, ok]
        valid = (flags & sc.VALID) != 0
        point = (flags & sc.POINT) != 0
        raw = fval[k, ok][valid]
        return Scan(table, starts, ends, err, reason, progress, raw, point[valid], blank)

    def _messages(
        self, buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, err: np.ndarray
    ) -> np.ndarray:
        """Which lines are the server's own messages (only failing lines are looked at)."""
        out = np.zeros(err.size, np.bool_)
        failed = np.flatnonzero((err != 0) & (err != sc.E_EMPTY))
        if self.messages is None or failed.size == 0:
            return out
        text = line_strings(buf, starts[failed], ends[failed], "line")
        out[failed] = text.str.contains(self.messages).fill_null(False).to_numpy()
        return out


def null_series(name: str, dtype: pl.DataType, n: int) -> pl.Series:
    return pl.repeat(None, n, dtype=dtype, eager=True).alias(name)


def _masked(name: str, values: np.ndarray, valid: np.ndarray, dtype: pl.DataType) -> pl.Series:
    """values as a polars series, null where not valid. Built by polars from numpy, not
    through `pyarrow.array`: that imports pandas (a second of a command's start-up)."""
    series = pl.Series(name, values).cast(dtype)
    if valid.all():
        return series
    return pl.select(pl.when(pl.Series(valid)).then(series)).to_series().alias(name)


def _time_ns(
    p: Program, ok: np.ndarray, ival: np.ndarray, fval: np.ndarray, flag: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """(UTC ns, valid) of the first time field, or None without one."""
    k = p.slot("time", "time_iso", "time_pattern", "time_epoch")
    if k < 0:
        return None
    f = p.fields[k]
    valid = (flag[k, ok] & sc.VALID) != 0
    if f.role != "time_epoch":
        return ival[k, ok], valid
    return np.round(fval[k, ok] * (SCALE_S[f.unit or "s"] * 1e9)).astype(np.int64), valid


def _numeric_columns(
    parser: TemplateParser, ok: np.ndarray, ival: np.ndarray, fval: np.ndarray, flag: np.ndarray
) -> dict[str, pl.Series]:
    p = parser.program
    cols: dict[str, pl.Series] = {}
    for role, dtype in (("status", pl.Int16()), ("bytes", pl.Int64())):
        if (k := p.slot(role)) >= 0:
            cols[role] = _masked(role, ival[k, ok], (flag[k, ok] & sc.VALID) != 0, dtype)
    latency = None
    if (k := p.slot("latency", "latency_sum", "timers")) >= 0:
        lat_valid = (flag[k, ok] & sc.VALID) != 0
        raw = ival[k, ok].astype(np.float64) if p.fields[k].role == "timers" else fval[k, ok]
        w = p.slot("latency_unit_word")
        per_s = fval[w, ok] if w >= 0 else PER_S[p.fields[k].unit or "s"]
        latency = raw / per_s
        cols["latency_s"] = _masked("latency_s", latency, lat_valid, pl.Float64())
    time = _time_ns(p, ok, ival, fval, flag)
    if time is not None:
        ts, ts_valid = time
        if parser.time_is_completion and latency is not None:
            ts = ts - np.where(lat_valid, np.round(latency * 1e9), 0).astype(np.int64)
        ts_series = _masked("ts", ts, ts_valid, pl.Int64())
        cols["ts"] = ts_series.cast(pl.Datetime("ns")).dt.replace_time_zone("UTC")
    return cols


def _string_sources(p: Program) -> list[tuple[str, int, int, bool]]:
    """(column, source, escape slot, dash_null) for every string column present; a source
    < 0 is request-line part -1-j (0 method, 1 path, 2 query), else the field's slot."""
    out: dict[str, tuple[str, int, int, bool]] = {}
    if (k := p.slot("request", "url")) >= 0:
        for j, name in enumerate(("method", "path", "query")):
            out[name] = (name, -1 - j, k if p.quoted[k] else -1, False)
    for role in STRING_ROLES:
        if (k := p.slot(role)) >= 0:
            out[role] = (role, k, k if p.quoted[k] else -1, DASH_NULL.get(role, True))
    return list(out.values())


def _assemble(
    parser: TemplateParser, buf: np.ndarray, ok: np.ndarray, values: tuple, strings: tuple
) -> pl.DataFrame:
    """The table of the ok lines from the scanner's (ival, fval, flag) of every line and
    (views, extra, valid) of the ok lines."""
    cols = _numeric_columns(parser, ok, *values)
    views, extra, valid = strings
    names = [s[0] for s in parser.strings]
    for series in views_to_series(names, buf, views, extra, valid):
        cols[series.name] = series
    if "query" in cols:  # Apache %q keeps its `?`; an empty query is no query
        q = cols["query"]
        q = q.str.strip_prefix("?") if parser.program.slot("query") >= 0 else q
        cols["query"] = pl.select(pl.when(q != "").then(q)).to_series().alias("query")
    n = ok.size
    return pl.DataFrame([cols.get(c, null_series(c, t, n)) for c, t in REQUEST_SCHEMA.items()])


_LIT_WHERE = {sc.E_EARLY_END: "line ends", sc.E_LITERAL: "mismatch"}


def _reasons(
    p: Program,
    buf: np.ndarray,
    fs: np.ndarray,
    fe: np.ndarray,
    err: np.ndarray,
    step: np.ndarray,
    pos: np.ndarray,
) -> Callable[[int], str]:
    """A function explaining line i's error; called only for the few rejects kept."""
    kind, lit, lit_off, lit_len, slot = p.arrays[:5]

    def reason(i: int) -> str:
        code, k, col = int(err[i]), int(step[i]), int(pos[i]) + 1
        if code == sc.E_EMPTY:
            return "empty line"
        if code == sc.E_VALUE:
            value = bytes(buf[fs[k, i] : fe[k, i]]).decode("utf-8", "replace")[:80]
            return f"bad {p.fields[k].role} {value!r}"
        if code == sc.E_TRAILING:
            return f"unexpected text after the last field at column {col}"
        if kind[k] == sc.LIT:
            text = bytes(lit[lit_off[k] : lit_off[k] + lit_len[k]]).decode("utf-8", "replace")
            return f"{_LIT_WHERE.get(code, 'mismatch')}: expected {text!r} at column {col}"
        role = p.fields[slot[k]].role
        if code == sc.E_UNTERMINATED:
            return f"unterminated quote in {role} at column {col}"
        return f"line ends inside {role} at column {col}"

    return reason
