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

from .loads import low_bytes, word_at

INLINE = 12
ESCAPED = 4  # scanner.ESCAPED (not imported: keeps this module free of the scanner)


@njit(cache=True, inline="always")
def _span(fs: np.ndarray, fe: np.ndarray, req: np.ndarray, src: int, i: int) -> tuple[int, int]:
    if src >= 0:
        return fs[src, i], fe[src, i]
    j = -1 - src
    return req[2 * j, i], req[2 * j + 1, i]


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
def _write_view(v: np.ndarray, c: int, o: int, src: np.ndarray, s: int, n: int, index: int) -> None:
    """The view at v[c, o:o+2]: length and 4-byte prefix, then 8 more inline bytes or the
    buffer index and offset."""
    head = np.uint64(n) | (low_bytes(word_at(src, s), min(n, 4)) << np.uint64(32))
    v[c, o] = head
    if n <= INLINE:
        v[c, o + 1] = low_bytes(word_at(src, s + 4), n - 4) if n > 4 else np.uint64(0)
    else:
        v[c, o + 1] = np.uint64(index) | (np.uint64(s) << np.uint64(32))


@njit(cache=True, inline="always")
def row_views(
    buf: np.ndarray,
    spans: tuple,
    cols: tuple,
    out: tuple,
    r: int,
    i: int,
    w: int,
) -> tuple[np.ndarray, int]:
    """Write line i's views into row r of out = (views, valid, extra); returns the unescaped
    copies buffer (grown when needed) and its fill."""
    fs, fe, req, flag = spans
    src, esc_slot, dash_null = cols
    views, valid, extra = out
    for c in range(src.size):
        s, e = _span(fs, fe, req, src[c], i)
        if s < 0 or (dash_null[c] and e - s == 1 and buf[s] == 45):
            views[c, 2 * r] = views[c, 2 * r + 1] = 0
            valid[c, r] = False
            continue
        valid[c, r] = True
        if esc_slot[c] >= 0 and flag[esc_slot[c], i] & ESCAPED:
            if w + e - s > extra.size:
                grown = np.empty(2 * extra.size + e - s, np.uint8)
                grown[:w] = extra[:w]
                extra = grown
            w2 = _unescape(buf, s, e, extra, w)
            _write_view(views, c, 2 * r, extra, w, w2 - w, 1)
            w = w2
        else:
            _write_view(views, c, 2 * r, buf, s, e - s, 0)
    return extra, w


@njit(cache=True)
def make_views(
    buf: np.ndarray, spans: tuple, cols: tuple, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Views (m, 2 * len(rows)) words for m columns at `rows`, the unescaped-copies buffer, and
    validity (m, len(rows)). spans = (fs, fe, req, flag) of the scanner; cols = (src,
    esc_slot, dash_null): column c comes from field slot src[c] or, when negative, from
    request part -1-src[c]; a negative start is null; `dash_null[c]` nulls a lone `-`.
    Values are unescaped when flag[esc_slot[c]] marks the field ESCAPED."""
    m, n = cols[0].size, rows.size
    views = np.empty((m, 2 * n), np.uint64)
    valid = np.empty((m, n), np.bool_)
    extra = np.empty(1024, np.uint8)
    w = 0
    for r in range(n):
        extra, w = row_views(buf, spans, cols, (views, valid, extra), r, rows[r], w)
    return views, extra[:w], valid


def _validity(valid: np.ndarray) -> pa.Buffer | None:
    if valid.all():
        return None
    return pa.py_buffer(np.packbits(valid, bitorder="little"))


def view_columns(sources: list[tuple[str, int, int, bool]]) -> tuple:
    """make_views' `cols` for (name, source, escape slot, dash_null) sources."""
    src = np.asarray([s[1] for s in sources], np.int64)
    esc_slot = np.asarray([s[2] for s in sources], np.int64)
    dash_null = np.asarray([s[3] for s in sources], np.bool_)
    return src, esc_slot, dash_null


def views_to_series(
    names: list[str], buf: np.ndarray, views: np.ndarray, extra: np.ndarray, valid: np.ndarray
) -> list[pl.Series]:
    """String series from make_views' output. buf must be valid UTF-8 (unescaping only
    drops backslashes, so copies stay valid)."""
    data = [pa.py_buffer(buf), pa.py_buffer(extra)]
    out = []
    n = valid.shape[1]
    for c, name in enumerate(names):
        buffers = [_validity(valid[c]), pa.py_buffer(np.ascontiguousarray(views[c])), *data]
        arr = pa.Array.from_buffers(pa.string_view(), n, buffers)
        out.append(pl.Series(name, arr, dtype=pl.String))
    return out


def line_strings(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, name: str) -> pl.Series:
    """Each line as one string (no copy), for the formats parsed with polars expressions."""
    fs = starts.astype(np.int32).reshape(1, -1)
    fe = ends.astype(np.int32).reshape(1, -1)
    req = np.full((6, 1), -1, np.int32)
    flag = np.zeros((1, starts.size), np.uint8)
    cols = view_columns([(name, 0, -1, False)])
    views, extra, valid = make_views(buf, (fs, fe, req, flag), cols, np.arange(starts.size))
    return views_to_series([name], buf, views, extra, valid)[0]
