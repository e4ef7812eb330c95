"""Field spans -> polars string columns without copying: Arrow string views into the chunk.

Each value is a 16-byte view (length, then the bytes inline when <= 12, else a 4-byte
prefix, buffer index and offset) pointing into the chunk itself (buffer 0); only values
that need unescaping are copied, into buffer 1.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa
from numba import njit

INLINE = 12
ESCAPED = 4  # scanner.ESCAPED (not imported: keeps this module free of the scanner)


@njit(cache=True, inline="always")
def _span(fs: np.ndarray, fe: np.ndarray, req: np.ndarray, src: int, i: int) -> tuple[int, int]:
    if src >= 0:
        return fs[src, i], fe[src, i]
    j = -1 - src
    return req[2 * j, i], req[2 * j + 1, i]


@njit(cache=True, inline="always")
def _put_i32(v: np.ndarray, o: int, x: int) -> None:
    v[o] = x & 255
    v[o + 1] = (x >> 8) & 255
    v[o + 2] = (x >> 16) & 255
    v[o + 3] = (x >> 24) & 255


@njit(cache=True, inline="always")
def _unescape(buf: np.ndarray, s: int, e: int, out: np.ndarray, w: int) -> int:
    j = s
    while j < e:
        b = buf[j]
        if b == 92 and j + 1 < e and (buf[j + 1] == 34 or buf[j + 1] == 92):
            j += 1
            b = buf[j]
        out[w] = b
        w += 1
        j += 1
    return w


@njit(cache=True, inline="always")
def _write_view(v: np.ndarray, o: int, src: np.ndarray, s: int, n: int, index: int) -> None:
    _put_i32(v, o, n)
    if n <= INLINE:
        for t in range(n):
            v[o + 4 + t] = src[s + t]
    else:
        for t in range(4):
            v[o + 4 + t] = src[s + t]
        _put_i32(v, o + 8, index)
        _put_i32(v, o + 12, s)


@njit(cache=True)
def make_views(
    buf: np.ndarray,
    fs: np.ndarray,
    fe: np.ndarray,
    req: np.ndarray,
    flag: np.ndarray,
    src: np.ndarray,
    rows: np.ndarray,
    esc_slot: np.ndarray,
    dash_null: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Views (m, 16 * len(rows)) for m columns at `rows`, the unescaped-copies buffer, and
    validity (m, len(rows)). Column c comes from field slot src[c] or, when negative, from
    request part -1-src[c]; a negative start is null; `dash_null[c]` nulls a lone `-`.
    Values are unescaped when flag[esc_slot[c]] marks the field ESCAPED."""
    m, n = src.size, rows.size
    views = np.zeros((m, 16 * n), np.uint8)
    valid = np.zeros((m, n), np.bool_)
    extra = np.empty(1024, np.uint8)
    w = 0
    for r in range(n):
        i = rows[r]
        for c in range(m):
            s, e = _span(fs, fe, req, src[c], i)
            if s < 0 or (dash_null[c] and e - s == 1 and buf[s] == 45):
                continue
            valid[c, r] = True
            if esc_slot[c] >= 0 and flag[esc_slot[c], i] & ESCAPED:
                if w + e - s > extra.size:
                    grown = np.empty(2 * extra.size + e - s, np.uint8)
                    grown[:w] = extra[:w]
                    extra = grown
                w2 = _unescape(buf, s, e, extra, w)
                _write_view(views[c], 16 * r, extra, w, w2 - w, 1)
                w = w2
            else:
                _write_view(views[c], 16 * r, buf, s, e - s, 0)
    return views, extra[:w], valid


def _validity(valid: np.ndarray) -> pa.Buffer | None:
    if valid.all():
        return None
    return pa.py_buffer(np.packbits(valid, bitorder="little"))


def string_columns(
    sources: list[tuple[str, int, int, bool]],
    buf: np.ndarray,
    spans: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    rows: np.ndarray,
) -> list[pl.Series]:
    """String series at `rows` for (name, source, escape slot, dash_null) sources; spans
    are the scanner's fs, fe, req and flag. buf must be valid UTF-8 (unescaping only
    drops backslashes, so copies stay valid)."""
    src = np.asarray([s[1] for s in sources], np.int64)
    esc_slot = np.asarray([s[2] for s in sources], np.int64)
    dash_null = np.asarray([s[3] for s in sources], np.bool_)
    fs, fe, req, flag = spans
    views, extra, valid = make_views(buf, fs, fe, req, flag, src, rows, esc_slot, dash_null)
    data = [pa.py_buffer(buf), pa.py_buffer(extra)]
    out = []
    for c, (name, _, _, _) in enumerate(sources):
        buffers = [_validity(valid[c]), pa.py_buffer(views[c]), *data]
        arr = pa.Array.from_buffers(pa.string_view(), rows.size, buffers)
        out.append(pl.Series(name, arr, dtype=pl.String))
    return out


def line_strings(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, name: str) -> pl.Series:
    """Each line as one string (no copy), for the formats parsed with polars expressions."""
    fs = starts.astype(np.int32).reshape(1, -1)
    fe = ends.astype(np.int32).reshape(1, -1)
    req = np.full((6, 1), -1, np.int32)
    flag = np.zeros((1, starts.size), np.uint8)
    spans = (fs, fe, req, flag)
    return string_columns([(name, 0, -1, False)], buf, spans, np.arange(starts.size))[0]
