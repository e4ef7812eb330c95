"""Line templates (literals and fields) compiled for the byte scanner, and their parser."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import polars as pl
import pyarrow as pa

from . import fields as fx
from . import scanner as sc
from .records import REQUEST_SCHEMA
from .strings import null_series, string_series

LATENCY_SCALE = {"s": 1.0, "ms": 1e-3, "us": 1e-6}
# roles whose text goes straight into a string column: role -> (column, dash_null)
STRING_ROLES = {
    "client": ("client", False),
    "referer": ("referer", True),
    "user_agent": ("user_agent", True),
    "server": ("server", True),
}


@dataclass(frozen=True)
class Field:
    """A field of a line; `role` names what it becomes (``skip`` is dropped)."""

    role: str


@dataclass(frozen=True)
class Program:
    kind: np.ndarray
    lit: np.ndarray
    lit_off: np.ndarray
    lit_len: np.ndarray
    slot: np.ndarray
    mode: np.ndarray
    term: np.ndarray
    after: np.ndarray
    roles: tuple[str, ...]
    quoted: tuple[bool, ...]


def _field_mode(prev: bytes | None, nxt: bytes | None, is_last_step: bool) -> int:
    if prev is not None and prev.endswith(b'"') and nxt is not None and nxt.startswith(b'"'):
        return sc.QUOTED_LAST if (nxt == b'"' and is_last_step) else sc.QUOTED
    return sc.TOKEN


def compile_template(parts: tuple[bytes | Field, ...]) -> Program:
    """Turn literals and fields into step arrays; adjacent literals must be merged."""
    n = len(parts)
    kind, lit_off, lit_len, slot, mode, term, after = ([0] * n for _ in range(7))
    lit = b""
    roles: list[str] = []
    quoted: list[bool] = []
    for k, part in enumerate(parts):
        if isinstance(part, bytes):
            kind[k], lit_off[k], lit_len[k], mode[k] = sc.LIT, len(lit), len(part), -1
            lit += part
            continue
        prev = parts[k - 1] if k > 0 else None
        nxt = parts[k + 1] if k + 1 < n else None
        assert not isinstance(prev, Field) and not isinstance(nxt, Field), "fields must be apart"
        kind[k], slot[k] = sc.FIELD, len(roles)
        mode[k] = _field_mode(prev, nxt, k + 1 == n - 1)
        term[k] = nxt[0] if nxt else 32
        after[k] = nxt[1] if nxt and len(nxt) > 1 else -1
        roles.append(part.role)
        quoted.append(mode[k] != sc.TOKEN)

    def ints(x: list[int]) -> np.ndarray:
        return np.asarray(x, np.int64)

    return Program(
        kind=np.asarray(kind, np.int8),
        lit=np.frombuffer(lit, np.uint8).copy() if lit else np.zeros(1, np.uint8),
        lit_off=ints(lit_off),
        lit_len=ints(lit_len),
        slot=ints(slot),
        mode=ints(mode),
        term=ints(term),
        after=ints(after),
        roles=tuple(roles),
        quoted=tuple(quoted),
    )


@dataclass(frozen=True)
class Scan:
    """Per-line outcome of a parser over a buffer, before rejects are collected."""

    table: pl.DataFrame  # rows of the lines with err == 0, in order
    err: np.ndarray
    reason: Callable[[int], str]  # line index -> why it was rejected
    progress: float = 0.0  # mean fraction of the template matched per line (1 = parsed)
    latency_raw: np.ndarray | None = None  # the parsed ok lines' response times, unscaled
    latency_point: np.ndarray | None = None  # ... and whether each had a decimal point


@dataclass(frozen=True)
class TemplateParser:
    name: str
    parts: tuple[bytes | Field, ...]
    latency_unit: str | None = None
    program: Program = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "program", compile_template(self.parts))

    def fields_count(self) -> int:
        return sum(1 for r in self.program.roles if r != "skip")

    def scan(self, buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Scan:
        p = self.program
        fs, fe, err, step, pos = sc.tokenise(
            buf, starts, ends, p.kind, p.lit, p.lit_off, p.lit_len, p.slot, p.mode,
            p.term, p.after, len(p.roles),
        )  # fmt: skip
        typed = _typed_columns(self, buf, fs, fe, err)
        ok = np.flatnonzero(err == 0)
        table = _assemble(self, buf, fs[ok], fe[ok], {k: v[ok] for k, v in typed.items()})
        reason = _reasons(self, buf, starts, fs, fe, err, step, pos)
        done = np.where(err == 0, 1.0, step / max(len(p.kind), 1))
        progress = float(done.mean()) if done.size else 0.0
        if "latency" not in typed:
            return Scan(table, err, reason, progress)
        valid = typed["latency_valid"][ok]
        raw, point = typed["latency"][ok][valid], typed["latency_point"][ok][valid]
        return Scan(table, err, reason, progress, raw, point)


def _slot(parser: TemplateParser, role: str) -> int:
    roles = parser.program.roles
    return len(roles) - 1 - roles[::-1].index(role) if role in roles else -1


def _typed_columns(
    parser: TemplateParser, buf: np.ndarray, fs: np.ndarray, fe: np.ndarray, err: np.ndarray
) -> dict[str, np.ndarray]:
    """Convert the typed fields of every line; a bad value marks the line's error code."""
    out: dict[str, np.ndarray] = {}
    if (k := _slot(parser, "time")) >= 0:
        out["ts"] = fx.clf_times(buf, fs[:, k], fe[:, k], err, sc.E_TIME, fx._MONTHS)
    if (k := _slot(parser, "status")) >= 0:
        out["status"], out["status_valid"] = fx.integers(
            buf, fs[:, k], fe[:, k], err, sc.E_STATUS, 0, False
        )
    if (k := _slot(parser, "bytes")) >= 0:
        out["bytes"], out["bytes_valid"] = fx.integers(
            buf, fs[:, k], fe[:, k], err, sc.E_BYTES, 0, True
        )
    if (k := _slot(parser, "latency")) >= 0:
        out["latency"], out["latency_valid"], out["latency_point"] = fx.decimals(
            buf, fs[:, k], fe[:, k], err, sc.E_LATENCY
        )
    return out


def _numeric(name: str, values: np.ndarray, valid: np.ndarray, dtype: pl.DataType) -> pl.Series:
    mask = None if valid.all() else ~valid
    return pl.Series(name, pa.array(values, mask=mask)).cast(dtype)


def _assemble(
    parser: TemplateParser,
    buf: np.ndarray,
    fs: np.ndarray,
    fe: np.ndarray,
    typed: dict[str, np.ndarray],
) -> pl.DataFrame:
    n = fs.shape[0]
    cols: dict[str, pl.Series] = {}
    if "ts" in typed:
        cols["ts"] = (
            pl.Series("ts", typed["ts"]).cast(pl.Datetime("ns")).dt.replace_time_zone("UTC")
        )
    for role, (name, dash_null) in STRING_ROLES.items():
        if (k := _slot(parser, role)) >= 0:
            quoted = parser.program.quoted[k]
            cols[name] = string_series(
                name, buf, fs[:, k], fe[:, k], unescape=quoted, dash_null=dash_null
            )
    if (k := _slot(parser, "request")) >= 0:
        req = fx.split_requests(buf, fs[:, k], fe[:, k])
        for j, name in enumerate(("method", "path", "query")):
            cols[name] = string_series(name, buf, req[:, 2 * j], req[:, 2 * j + 1], unescape=True)
    if "status" in typed:
        cols["status"] = _numeric("status", typed["status"], typed["status_valid"], pl.Int16())
    if "bytes" in typed:
        cols["bytes"] = _numeric("bytes", typed["bytes"], typed["bytes_valid"], pl.Int64())
    if "latency" in typed and parser.latency_unit is not None:
        secs = typed["latency"] * LATENCY_SCALE[parser.latency_unit]
        cols["latency_s"] = _numeric("latency_s", secs, typed["latency_valid"], pl.Float64())
    return pl.DataFrame([cols.get(c, null_series(c, t, n)) for c, t in REQUEST_SCHEMA.items()])


_ROLE_NAMES = {"time": "time", "request": "request line", "user_agent": "user agent"}
_VALUE_ERRORS = {
    sc.E_TIME: ("time", "bad timestamp"),
    sc.E_STATUS: ("status", "bad status"),
    sc.E_BYTES: ("bytes", "bad size"),
    sc.E_LATENCY: ("latency", "bad response time"),
}


def _reasons(
    parser: TemplateParser,
    buf: np.ndarray,
    starts: np.ndarray,
    fs: np.ndarray,
    fe: np.ndarray,
    err: np.ndarray,
    step: np.ndarray,
    pos: np.ndarray,
) -> Callable[[int], str]:
    """A function explaining line i's error; called only for the few rejects kept."""
    p = parser.program

    def reason(i: int) -> str:
        code = int(err[i])
        if code == sc.E_EMPTY:
            return "empty line"
        if code in _VALUE_ERRORS:
            role, what = _VALUE_ERRORS[code]
            k = _slot(parser, role)
            value = bytes(buf[fs[i, k] : fe[i, k]]).decode("utf-8", "replace")[:80]
            return f"{what} {value!r}"
        col = int(pos[i]) + 1
        if code == sc.E_TRAILING:
            return f"unexpected text after the last field at column {col}"
        k = int(step[i])
        if p.kind[k] == sc.LIT:
            lit = bytes(p.lit[p.lit_off[k] : p.lit_off[k] + p.lit_len[k]]).decode()
            where = "line ends" if code == sc.E_EARLY_END else "mismatch"
            return f"{where}: expected {lit!r} at column {col}"
        role = p.roles[p.slot[k]]
        name = _ROLE_NAMES.get(role, role)
        if code == sc.E_UNTERMINATED:
            return f"unterminated quote in {name} at column {col}"
        return f"line ends inside {name} at column {col}"

    return reason
