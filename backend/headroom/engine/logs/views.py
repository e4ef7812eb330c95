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
def _view_words(w0: np.uint64, w4: np.uint64, s: int, n: int, index: int) -> tuple:
    """The view of n bytes at s whose first words are w0 (bytes 0..7) and w4 (4..11):
    length and 4-byte prefix, then 8 more inline bytes or the buffer index and offset.
    Scalars only: a helper taking arrays costs reference counting on every call."""
    head = np.uint64(n) | (low_bytes(w0, min(n, 4)) << np.uint64(32))
    if n <= INLINE:
        return head, (low_bytes(w4, n - 4) if n > 4 else np.uint64(0))
    return head, np.uint64(index) | (np.uint64(s) << np.uint64(32))


@njit(cache=True)
def _grown(extra: np.ndarray, w: int, need: int) -> np.ndarray:
    """extra with room for `need` more bytes after its first w."""
    if w + need <= extra.size:
        return extra
    grown = np.empty(2 * extra.size + need, np.uint8)
    grown[:w] = extra[:w]
    return grown


@njit(cache=True)
def _escaped_views(
    buf: np.ndarray, spans: tuple, cols: tuple, rows: np.ndarray, out: tuple
) -> np.ndarray:
    """Overwrite the views of valid ESCAPED values with unescaped copies; returns the copies."""
    fs, fe, req, flag = spans
    src, esc_slot, _dash = cols
    views, valid = out
    extra = np.empty(1024, np.uint8)
    w = 0
    for r in range(rows.size):
        i = rows[r]
        for c in range(src.size):
            k, esc = src[c], esc_slot[c]
            if esc < 0 or not valid[c, r] or not flag[esc, i] & ESCAPED:
                continue
            s, e = (fs[k, i], fe[k, i]) if k >= 0 else (req[-2 - 2 * k, i], req[-1 - 2 * k, i])
            extra = _grown(extra, w, e - s)
            w2 = _unescape(buf, s, e, extra, w)
            a, b = _view_words(word_at(extra, w), word_at(extra, w + 4), w, w2 - w, 1)
            views[c, 2 * r], views[c, 2 * r + 1] = a, b
            w = w2
    return extra[:w]


@njit(cache=True)
def make_views(
    buf: np.ndarray, spans: tuple, cols: tuple, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Views (m, 2 * len(rows)) words for m columns at `rows`, the unescaped-copies buffer, and
    validity (m, len(rows)). spans = (fs, fe, req, flag) of the scanner; cols = (src,
    esc_slot, dash_null): column c comes from field slot src[c] or, when negative, from
    request part -1-src[c]; a negative start is null; `dash_null[c]` nulls a lone `-`.
    Values are unescaped when flag[esc_slot[c]] marks the field ESCAPED.

    Row by row (a line's fields share cache lines); escaped values in a second pass, so
    this loop calls no helper taking arrays (each such call costs atomic reference
    counting) and keeps no growing buffer."""
    fs, fe, req, flag = spans
    src, esc_slot, dash_null = cols
    m, n = src.size, rows.size
    views = np.empty((m, 2 * n), np.uint64)
    valid = np.empty((m, n), np.bool_)
    escaped = 0
    for r in range(n):
        i = rows[r]
        for c in range(m):
            k, esc = src[c], esc_slot[c]
            s, e = (fs[k, i], fe[k, i]) if k >= 0 else (req[-2 - 2 * k, i], req[-1 - 2 * k, i])
            ok = s >= 0 and not (dash_null[c] and e - s == 1 and buf[s] == 45)
            valid[c, r] = ok
            s = max(s, 0)
            a, b = _view_words(word_at(buf, s), word_at(buf, s + 4), s, e - s, 0)
            views[c, 2 * r] = a if ok else np.uint64(0)
            views[c, 2 * r + 1] = b if ok else np.uint64(0)
            escaped += ok and esc >= 0 and (flag[esc, i] & ESCAPED) != 0
    if escaped == 0:
        return views, np.empty(0, np.uint8), valid
    return views, _escaped_views(buf, spans, cols, rows, (views, valid)), valid


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
        out.append(pl.Series(_ArrowArray(arr)).alias(name))
    return out


class _ArrowArray:
    """An Arrow array offered to polars through the Arrow C data interface only: given a
    pyarrow array, polars first imports pyarrow.compute (a twentieth of a command's
    start-up) to check for chunks this array never has."""

    def __init__(self, array: pa.Array) -> None:
        self.array = array

    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]:
        return self.array.__arrow_c_array__(requested_schema)


def line_strings(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, name: str) -> pl.Series:
    """Each line as one string (no copy), for the formats parsed with polars expressions."""
    fs = starts.astype(np.int32).reshape(1, -1)
    fe = ends.astype(np.int32).reshape(1, -1)
    req = np.full((6, 1), -1, np.int32)
    flag = np.zeros((1, starts.size), np.uint8)
    cols = view_columns([(name, 0, -1, False)])
    views, extra, valid = make_views(buf, (fs, fe, req, flag), cols, np.arange(starts.size))
    return views_to_series([name], buf, views, extra, valid)[0]
