"""Compiled converters from field spans to typed columns (vectorised over all lines)."""

from __future__ import annotations

import numpy as np
from numba import njit

NS_PER_S = 1_000_000_000
# month name -> number, keyed by the lower-cased 3 bytes packed into an int
_MONTHS = np.array(
    [
        (ord(m[0]) << 16) | (ord(m[1]) << 8) | ord(m[2])
        for m in (
            "jan",
            "feb",
            "mar",
            "apr",
            "may",
            "jun",
            "jul",
            "aug",
            "sep",
            "oct",
            "nov",
            "dec",
        )
    ],
    np.int64,
)


@njit(cache=True)
def days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm)."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    mp = m + 9 if m <= 2 else m - 3
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


@njit(cache=True)
def _digits(buf: np.ndarray, pos: int, end: int, n_max: int) -> tuple[int, int]:
    """Parse up to n_max digits: (value, new_pos); new_pos == pos when none."""
    v = 0
    j = pos
    while j < end and j - pos < n_max and 48 <= buf[j] <= 57:
        v = v * 10 + (buf[j] - 48)
        j += 1
    return v, j


@njit(cache=True)
def _month(buf: np.ndarray, pos: int, end: int, months: np.ndarray) -> int:
    if pos + 3 > end:
        return 0
    key = ((buf[pos] | 32) << 16) | ((buf[pos + 1] | 32) << 8) | (buf[pos + 2] | 32)
    for i in range(12):
        if months[i] == key:
            return i + 1
    return 0


@njit(cache=True)
def _fraction_ns(buf: np.ndarray, pos: int, end: int) -> tuple[int, int]:
    """Parse `.ddd...` at pos: (nanoseconds, new_pos)."""
    if pos >= end or buf[pos] != 46:
        return 0, pos
    j = pos + 1
    ns = 0
    scale = 100_000_000
    while j < end and 48 <= buf[j] <= 57:
        ns += (buf[j] - 48) * scale
        scale //= 10
        j += 1
    return ns, j


@njit(cache=True)
def _tz_offset_s(buf: np.ndarray, pos: int, end: int) -> tuple[int, int, bool]:
    """Parse an optional ` +hhmm`/`Z` suffix: (offset seconds, new_pos, ok)."""
    j = pos
    while j < end and buf[j] == 32:
        j += 1
    if j == end:
        return 0, j, True
    if buf[j] == 90:  # Z
        return 0, j + 1, True
    if buf[j] != 43 and buf[j] != 45:
        return 0, j, False
    sign = 1 if buf[j] == 43 else -1
    hh, k = _digits(buf, j + 1, end, 2)
    if k != j + 3:
        return 0, j, False
    if k < end and buf[k] == 58:
        k += 1
    mm, k2 = _digits(buf, k, end, 2)
    if k2 != k + 2:
        return 0, j, False
    return sign * (hh * 3600 + mm * 60), k2, True


@njit(cache=True)
def parse_clf_time(buf: np.ndarray, s: int, e: int, months: np.ndarray) -> tuple[bool, int]:
    """`10/Oct/2000:13:55:36[.fff] [-0700]` -> (ok, UTC ns)."""
    d, j = _digits(buf, s, e, 2)
    if j == s or j >= e or buf[j] != 47:
        return False, 0
    mon = _month(buf, j + 1, e, months)
    j += 4
    if mon == 0 or j >= e or buf[j] != 47:
        return False, 0
    y, k = _digits(buf, j + 1, e, 4)
    if k != j + 5 or k >= e or buf[k] != 58:
        return False, 0
    hh, k1 = _digits(buf, k + 1, e, 2)
    mi, k2 = _digits(buf, k1 + 1, e, 2)
    ss, k3 = _digits(buf, k2 + 1, e, 2)
    if k1 != k + 3 or k2 != k1 + 3 or k3 != k2 + 3 or buf[k1] != 58 or buf[k2] != 58:
        return False, 0
    if d < 1 or d > 31 or hh > 23 or mi > 59 or ss > 60:
        return False, 0
    frac, k4 = _fraction_ns(buf, k3, e)
    off, k5, ok = _tz_offset_s(buf, k4, e)
    if not ok or k5 != e:
        return False, 0
    secs = days_from_civil(y, mon, d) * 86400 + hh * 3600 + mi * 60 + ss - off
    return True, secs * NS_PER_S + frac


@njit(cache=True)
def clf_times(
    buf: np.ndarray, fs: np.ndarray, fe: np.ndarray, err: np.ndarray, code: int, months: np.ndarray
) -> np.ndarray:
    n = fs.size
    out = np.zeros(n, np.int64)
    for i in range(n):
        if err[i] != 0:
            continue
        ok, v = parse_clf_time(buf, fs[i], fe[i], months)
        if ok:
            out[i] = v
        else:
            err[i] = code
    return out


@njit(cache=True)
def integers(
    buf: np.ndarray,
    fs: np.ndarray,
    fe: np.ndarray,
    err: np.ndarray,
    code: int,
    dash_value: int,
    dash_valid: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Signed integers; `-` becomes dash_value (valid iff dash_valid); others flag `code`."""
    n = fs.size
    out = np.zeros(n, np.int64)
    valid = np.zeros(n, np.bool_)
    for i in range(n):
        s = fs[i]
        e = fe[i]
        if err[i] != 0 or s < 0:
            continue
        if e - s == 1 and buf[s] == 45:
            out[i] = dash_value
            valid[i] = dash_valid
            continue
        neg = s < e and buf[s] == 45
        v, j = _digits(buf, s + neg, e, 18)
        if j == s + neg or j != e:
            err[i] = code
            continue
        out[i] = -v if neg else v
        valid[i] = True
    return out, valid


@njit(cache=True)
def _decimal(buf: np.ndarray, s: int, e: int) -> tuple[bool, float, bool]:
    """`12`, `0.004` -> (ok, value, had_point)."""
    v, j = _digits(buf, s, e, 18)
    if j == s:
        return False, 0.0, False
    if j == e:
        return True, float(v), False
    if buf[j] != 46:
        return False, 0.0, False
    f, k = _digits(buf, j + 1, e, 18)
    if k != e:
        return False, 0.0, False
    return True, v + f / 10.0 ** (k - j - 1), True


@njit(cache=True)
def decimals(
    buf: np.ndarray, fs: np.ndarray, fe: np.ndarray, err: np.ndarray, code: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Non-negative decimals; `-` is null. Returns values, validity, had-a-decimal-point."""
    n = fs.size
    out = np.zeros(n, np.float64)
    valid = np.zeros(n, np.bool_)
    point = np.zeros(n, np.bool_)
    for i in range(n):
        s = fs[i]
        e = fe[i]
        if err[i] != 0 or s < 0 or (e - s == 1 and buf[s] == 45):
            continue
        ok, v, p = _decimal(buf, s, e)
        if not ok:
            err[i] = code
            continue
        out[i] = v
        valid[i] = True
        point[i] = p
    return out, valid, point


@njit(cache=True)
def _is_protocol(buf: np.ndarray, s: int, e: int) -> bool:
    return e - s >= 5 and buf[s] == 72 and buf[s + 1] == 84 and buf[s + 4] == 47  # H T . . /


@njit(cache=True)
def split_requests(buf: np.ndarray, fs: np.ndarray, fe: np.ndarray) -> np.ndarray:
    """`METHOD target [PROTO]` -> spans of method, path, query (-1 = null)."""
    n = fs.size
    out = np.full((n, 6), -1, np.int64)
    for i in range(n):
        s = fs[i]
        e = fe[i]
        if s < 0:
            continue
        sp1 = s
        while sp1 < e and buf[sp1] != 32:
            sp1 += 1
        if sp1 >= e - 1:
            continue  # `-` or a single token: not a request line
        t_end = e
        sp2 = e - 1
        while sp2 > sp1 and buf[sp2] != 32:
            sp2 -= 1
        if sp2 > sp1 and _is_protocol(buf, sp2 + 1, e):
            t_end = sp2
        out[i, 0] = s
        out[i, 1] = sp1
        q = sp1 + 1
        while q < t_end and buf[q] != 63:
            q += 1
        out[i, 2] = sp1 + 1
        out[i, 3] = q
        if q < t_end:
            out[i, 4] = q + 1
            out[i, 5] = t_end
    return out
