"""Field spans -> polars string columns, through one compiled gather and Arrow buffers."""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa
from numba import njit


@njit(cache=True)
def gather(
    buf: np.ndarray, fs: np.ndarray, fe: np.ndarray, unescape: bool, dash_null: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Copy the spans into one buffer: (offsets, data, valid). fs < 0 is null.

    `unescape` turns the escapes Apache and nginx write inside quotes (\\" and \\\\)
    back into the character; `dash_null` makes a lone `-` null.
    """
    n = fs.size
    total = 0
    for i in range(n):
        if fs[i] >= 0:
            total += fe[i] - fs[i]
    data = np.empty(total, np.uint8)
    offsets = np.zeros(n + 1, np.int64)
    valid = np.zeros(n, np.bool_)
    w = 0
    for i in range(n):
        s = fs[i]
        e = fe[i]
        if s >= 0 and not (dash_null and e - s == 1 and buf[s] == 45):
            valid[i] = True
            j = s
            while j < e:
                b = buf[j]
                if unescape and b == 92 and j + 1 < e and (buf[j + 1] == 34 or buf[j + 1] == 92):
                    j += 1
                    b = buf[j]
                data[w] = b
                w += 1
                j += 1
        offsets[i + 1] = w
    return offsets, data[:w], valid


def arrow_validity(valid: np.ndarray) -> tuple[pa.Buffer | None, int]:
    nulls = int(valid.size - np.count_nonzero(valid))
    if nulls == 0:
        return None, 0
    return pa.py_buffer(np.packbits(valid, bitorder="little")), nulls


def string_series(
    name: str,
    buf: np.ndarray,
    fs: np.ndarray,
    fe: np.ndarray,
    *,
    unescape: bool = False,
    dash_null: bool = False,
) -> pl.Series:
    """A String series of the spans; the buffer must already be valid UTF-8."""
    offsets, data, valid = gather(buf, fs, fe, unescape, dash_null)
    validity, nulls = arrow_validity(valid)
    arr = pa.LargeStringArray.from_buffers(
        fs.size, pa.py_buffer(offsets), pa.py_buffer(data), validity, nulls
    )
    series = pl.Series(name, arr)
    return series.cast(pl.String)


def null_series(name: str, dtype: pl.DataType, n: int) -> pl.Series:
    return pl.repeat(None, n, dtype=dtype, eager=True).alias(name)
