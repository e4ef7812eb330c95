"""Line templates (literals and fields) compiled into step arrays for the byte scanner."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import scanner as sc
from .records import LogInputError

# role -> typed conversion done inside the scanner (string roles are copied afterwards)
ROLE_CONVERSION = {
    "time": sc.C_TIME_CLF,
    "time_iso": sc.C_TIME_ISO,
    "time_epoch": sc.C_EPOCH,
    "status": sc.C_INT,
    "bytes": sc.C_INT_DASH0,
    "latency": sc.C_DECIMAL,
    "latency_sum": sc.C_DECIMAL_SUM,
    "request": sc.C_REQUEST,
    "url": sc.C_URL,
    "timers": sc.C_TIMERS,
    "latency_unit_word": sc.C_UNIT_WORD,
}
STRING_ROLES = ("client", "referer", "user_agent", "server", "method", "path", "query")
LATENCY_UNITS = ("s", "ms", "us")
SCALE_S = {"s": 1.0, "ms": 1e-3, "us": 1e-6}
PER_S = {"s": 1.0, "ms": 1e3, "us": 1e6}  # divide by these: 236 / 1e3 is exactly 0.236


@dataclass(frozen=True)
class Field:
    """A field of a line: `role` names what it becomes (``skip`` is dropped); `unit` is
    the time unit of latency and epoch-time fields."""

    role: str
    unit: str | None = None
    pattern: tuple[tuple[int, int], ...] = ()  # strftime ops (role time_pattern)


Parts = tuple[bytes | Field, ...]


@dataclass(frozen=True)
class Program:
    arrays: tuple[np.ndarray, ...]  # kind, lit, lit_off, lit_len, slot, mode, term, after,
    # pat_op, pat_arg, pat_off, pat_len
    conv: np.ndarray  # slot -> conversion code
    fields: tuple[Field, ...]  # slot -> field
    quoted: tuple[bool, ...]  # slot -> written inside quotes (so escapes are undone)

    @property
    def n_steps(self) -> int:
        return int(self.arrays[0].size)

    def slot(self, *roles: str) -> int:
        """The first slot holding one of `roles` (in the order given), or -1."""
        for role in roles:
            for k, f in enumerate(self.fields):
                if f.role == role:
                    return k
        return -1


def join(*groups: Parts) -> Parts:
    """Concatenate parts, merging literals that end up adjacent and dropping empty ones."""
    out: list[bytes | Field] = []
    for part in (p for g in groups for p in g):
        if isinstance(part, bytes) and out and isinstance(out[-1], bytes):
            out[-1] += part
        elif part != b"":
            out.append(part)
    return tuple(out)


def _field_mode(prev: bytes | Field | None, nxt: bytes | Field | None, last: bool, f: Field) -> int:
    quoted = isinstance(prev, bytes) and isinstance(nxt, bytes) and prev.endswith(b'"')
    if quoted and isinstance(nxt, bytes) and nxt.startswith(b'"'):
        return sc.QUOTED_LAST if (nxt == b'"' and last) else sc.QUOTED
    if f.pattern:
        return sc.PATTERN
    if f.role == "request":
        return sc.REST if nxt is None else sc.WORDS
    if f.role == "seek":
        return sc.SEEK
    if f.role == "rest":
        return sc.REST
    if f.role in ("latency_sum", "skip_list") and (
        nxt is None or (isinstance(nxt, bytes) and nxt[:1] == b" ")
    ):
        return sc.TOKEN_LIST
    return sc.TOKEN


def compile_template(parts: Parts) -> Program:
    """Turn merged literals and fields into the scanner's step arrays."""
    n = len(parts)
    kind, lit_off, lit_len, slot, mode, term, after, pat_off, pat_len = ([0] * n for _ in range(9))
    pat: list[tuple[int, int]] = []
    lit = b""
    fields: list[Field] = []
    for k, part in enumerate(parts):
        if isinstance(part, bytes):
            kind[k], lit_off[k], lit_len[k], mode[k] = sc.LIT, len(lit), len(part), -1
            lit += part
            continue
        prev = parts[k - 1] if k > 0 else None
        nxt = parts[k + 1] if k + 1 < n else None
        if isinstance(nxt, Field):
            raise LogInputError("bad_log_format", "two fields with nothing between them")
        kind[k], slot[k] = sc.FIELD, len(fields)
        mode[k] = _field_mode(prev, nxt, k + 1 == n - 1, part)
        term[k] = nxt[0] if nxt else 32
        after[k] = nxt[1] if nxt and len(nxt) > 1 else -1
        pat_off[k], pat_len[k] = len(pat), len(part.pattern)
        pat.extend(part.pattern)
        fields.append(part)
    arrays: tuple[np.ndarray, ...] = (
        np.asarray(kind, np.int8),
        np.frombuffer(lit, np.uint8).copy() if lit else np.zeros(1, np.uint8),
        *(np.asarray(x, np.int64) for x in (lit_off, lit_len, slot, mode, term, after)),
        np.asarray([op for op, _ in pat] or [0], np.int64),
        np.asarray([arg for _, arg in pat] or [0], np.int64),
        np.asarray(pat_off, np.int64),
        np.asarray(pat_len, np.int64),
    )
    conv = np.asarray([ROLE_CONVERSION.get(f.role, sc.C_NONE) for f in fields], np.int8)
    quoted = tuple(mode[k] in (sc.QUOTED, sc.QUOTED_LAST) for k in range(n) if kind[k] == sc.FIELD)
    return Program(arrays, conv, tuple(fields), quoted)
