"""The fast path of the Common/Combined family: one hand-written pass per line.

`scanner.scan_template` tries this first for CLF-family templates, straight from the
line's first byte (it finds the line's end itself, so lines are read once). A line it
does not recognise as typical (odd time layout, a status that is not 3 digits, trailing
blanks, ...) returns -1 and goes through the generic template steps, so results never
depend on which path ran. Every scan stops at a newline. Times are parsed once per
distinct day and zone; the seconds of the day come from their digits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .fields import NS_PER_S, days_from_civil, month_at, parse_decimal, split_request
from .loads import find3

# shape[] layout: flags, then the slots of each field (-1 when absent)
VHOST, COMBINED, LATENCY = 0, 1, 2
S_SERVER, S_CLIENT, S_TIME, S_REQUEST, S_STATUS, S_BYTES, S_REFERER, S_AGENT, S_LATENCY = range(
    3, 12
)
SHAPE_SIZE = 12
VALID = 1  # scanner.VALID / POINT / ESCAPED (not imported: scanner imports this module)
POINT = 2
ESCAPED = 4


def clf_shape(vhost: bool, combined: bool, slots: dict[str, int]) -> np.ndarray:
    """The shape array for a CLF-family template with these field slots."""
    shape = np.full(SHAPE_SIZE, -1, np.int64)
    shape[VHOST], shape[COMBINED] = vhost, combined
    shape[LATENCY] = slots.get("latency", -1) >= 0
    names = ("server", "client", "time", "request", "status", "bytes", "referer", "user_agent")
    for k, name in enumerate((*names, "latency")):
        shape[S_SERVER + k] = slots.get(name, -1)
    return shape


@njit(cache=True, inline="always")
def _to(buf: np.ndarray, pos: int, end: int, b: int) -> int:
    """The next b at or after pos; at a newline or the end: -1."""
    while pos < end:
        c = buf[pos]
        if c == b:
            return pos
        if c == 10:
            return -1
        pos += 1
    return -1


@njit(cache=True, inline="always")
def _line_end(buf: np.ndarray, pos: int, end: int) -> int:
    """pos when a line ends there (newline, CR LF or the buffer's end), else -1."""
    if pos == end or buf[pos] == 10:
        return pos
    if buf[pos] == 13 and (pos + 1 == end or buf[pos + 1] == 10):
        return pos
    return -1


@njit(cache=True, inline="always")
def _quoted_end(buf: np.ndarray, pos: int, end: int) -> tuple[int, bool]:
    """The first unescaped `"` followed by a space (-1 when none before a newline), and
    whether the field holds a backslash (the generic QUOTED rule with a space after)."""
    j = pos
    esc = False
    while True:
        j = find3(buf, j, 34, 92, 10)
        if j + 1 >= end or buf[j] == 10:
            return -1, esc
        if buf[j] == 92:
            if buf[j + 1] == 10:
                return -1, esc
            esc = True
            j += 2
        elif buf[j + 1] == 32:
            return j, esc
        else:
            j += 1


@njit(cache=True, inline="always")
def _last_quoted_end(buf: np.ndarray, pos: int, end: int) -> tuple[int, int, bool]:
    """The final field: (its closing quote, the line's end, whether it holds a backslash)
    when its last unescaped quote ends the line, else (-1, -1, _)."""
    j = pos
    esc = False
    last = -1
    while j < end and buf[j] != 10:
        if buf[j] == 92 and j + 1 < end and buf[j + 1] != 10:
            esc = True
            j += 2
            continue
        if buf[j] == 34:
            last = j
        j += 1
    e = j - 1 if j > pos and buf[j - 1] == 13 else j
    if last < 0 or last != e - 1:
        return -1, -1, esc
    return last, e, esc


@njit(cache=True, inline="always")
def _d2(buf: np.ndarray, s: int) -> int:
    a = int(buf[s]) - 48
    b = int(buf[s + 1]) - 48
    if a < 0 or a > 9 or b < 0 or b > 9:
        return -1000
    return a * 10 + b


@njit(cache=True, inline="always")
def _same(buf: np.ndarray, a: int, b: int, n: int) -> bool:
    for t in range(n):  # noqa: SIM110 (numba compiles no generators)
        if buf[a + t] != buf[b + t]:
            return False
    return True


@njit(cache=True, inline="always")
def _day_ns(buf: np.ndarray, s: int) -> int:
    """UTC ns of midnight local time of `dd/Mon/yyyy:..:..:.. +hhmm` at s, minus the zone
    offset; -1 when the date or zone is malformed."""
    if buf[s + 2] != 47 or buf[s + 6] != 47 or buf[s + 11] != 58 or buf[s + 20] != 32:
        return -1
    sign = buf[s + 21]
    d, y1, y2 = _d2(buf, s), _d2(buf, s + 7), _d2(buf, s + 9)
    oh, om = _d2(buf, s + 22), _d2(buf, s + 24)
    mon, n = month_at(buf, s + 3, s + 6)
    if min(d, y1, y2, oh, om) < 0 or n != 3 or d < 1 or d > 31 or (sign != 43 and sign != 45):
        return -1
    off = (oh * 3600 + om * 60) * (1 if sign == 43 else -1)
    return (days_from_civil(y1 * 100 + y2, mon, d) * 86400 - off) * NS_PER_S


@njit(cache=True, inline="always")
def _seconds_of_day(buf: np.ndarray, s: int) -> int:
    """`HH:MM:SS` at s+12 as seconds, or -1."""
    if buf[s + 14] != 58 or buf[s + 17] != 58:
        return -1
    hh, mi, ss = _d2(buf, s + 12), _d2(buf, s + 15), _d2(buf, s + 18)
    if hh < 0 or mi < 0 or ss < 0 or hh > 23 or mi > 59 or ss > 60:
        return -1
    return hh * 3600 + mi * 60 + ss


@njit(cache=True, inline="always")
def _number(buf: np.ndarray, s: int, e: int) -> int:
    """Unsigned decimal of 1..18 digits filling [s, e), or -1."""
    if e <= s or e - s > 18:
        return -1
    v = 0
    for j in range(s, e):
        c = int(buf[j]) - 48
        if c < 0 or c > 9:
            return -1
        v = v * 10 + c
    return v


@njit(cache=True, inline="always")
def _token(buf: np.ndarray, pos: int, end: int) -> int:
    """The end of a token: the next space, CR, newline or the buffer's end."""
    while pos < end and buf[pos] != 32 and buf[pos] != 10 and buf[pos] != 13:
        pos += 1
    return pos


@njit(cache=True)
def match_clf(
    buf: np.ndarray, pos: int, shape: np.ndarray, out: tuple, i: int, day: np.ndarray
) -> int:
    """Delimit and convert the line starting at pos as line i: its end (excluding the
    newline), or -1 to leave it to the generic steps. `day` caches (time field start, UTC
    ns of its day) across lines."""
    fs, fe, ival, _fval, flag, _req = out
    n = buf.size
    if shape[VHOST]:
        j = _to(buf, pos, n, 58)
        j2 = _to(buf, j, n, 32) if j >= 0 else -1
        if j2 < 0:
            return -1
        fs[shape[S_SERVER], i], fe[shape[S_SERVER], i] = pos, j
        pos = j2 + 1
    j = _to(buf, pos, n, 32)
    fs[shape[S_CLIENT], i], fe[shape[S_CLIENT], i] = pos, j
    j1 = _to(buf, j + 1, n, 32) if j >= 0 else -1  # ident
    j = _to(buf, j1 + 1, n, 32) if j1 >= 0 else -1  # user
    s = j + 2  # the time field
    if j < 0 or s + 29 > n or buf[j + 1] != 91 or buf[s + 26] != 93 or buf[s + 27] != 32:
        return -1
    d = day[0]
    if d < 0 or not _same(buf, s, d, 11) or not _same(buf, s + 20, d + 20, 6):
        ns = _day_ns(buf, s)
        if ns == -1:
            return -1
        day[0], day[1] = s, ns
    secs = _seconds_of_day(buf, s)
    if secs < 0:
        return -1
    k = shape[S_TIME]
    fs[k, i], fe[k, i], ival[k, i], flag[k, i] = s, s + 26, day[1] + secs * NS_PER_S, VALID
    return _after_time(buf, s + 28, n, shape, out, i)


@njit(cache=True, inline="always")
def _after_time(buf: np.ndarray, pos: int, n: int, shape: np.ndarray, out: tuple, i: int) -> int:
    """From the request's opening quote to the end of the line."""
    fs, fe, ival, _fval, flag, req = out
    if buf[pos] != 34:
        return -1
    j, esc = _quoted_end(buf, pos + 1, n)
    if j < 0 or j + 6 > n or buf[j + 5] != 32:
        return -1
    k = shape[S_REQUEST]
    fs[k, i], fe[k, i], flag[k, i] = pos + 1, j, ESCAPED if esc else 0
    split_request(buf, pos + 1, j, req, i)
    status = _number(buf, j + 2, j + 5)
    if status < 0:
        return -1
    k = shape[S_STATUS]
    fs[k, i], fe[k, i], ival[k, i], flag[k, i] = j + 2, j + 5, status, VALID
    s = j + 6
    j = _token(buf, s, n)
    size = 0 if (j - s == 1 and buf[s] == 45) else _number(buf, s, j)
    if size < 0:
        return -1
    k = shape[S_BYTES]
    fs[k, i], fe[k, i], ival[k, i], flag[k, i] = s, j, size, VALID
    if shape[COMBINED]:
        return _quoted_pair(buf, j, n, shape, out, i)
    return _latency(buf, j, n, shape, out, i)


@njit(cache=True, inline="always")
def _quoted_pair(buf: np.ndarray, pos: int, n: int, shape: np.ndarray, out: tuple, i: int) -> int:
    """` "referer" "agent"` and what follows."""
    fs, fe, _ival, _fval, flag, _req = out
    if pos + 2 > n or buf[pos] != 32 or buf[pos + 1] != 34:
        return -1
    j, esc = _quoted_end(buf, pos + 2, n)
    if j < 0 or j + 2 >= n or buf[j + 2] != 34:
        return -1
    k = shape[S_REFERER]
    fs[k, i], fe[k, i], flag[k, i] = pos + 2, j, ESCAPED if esc else 0
    s = j + 3
    k = shape[S_AGENT]
    if not shape[LATENCY]:
        j, e, esc = _last_quoted_end(buf, s, n)
        fs[k, i], fe[k, i], flag[k, i] = s, j, ESCAPED if esc else 0
        return e
    j, esc = _quoted_end(buf, s, n)
    if j < 0:
        return -1
    fs[k, i], fe[k, i], flag[k, i] = s, j, ESCAPED if esc else 0
    return _latency(buf, j + 1, n, shape, out, i)


@njit(cache=True, inline="always")
def _latency(buf: np.ndarray, pos: int, n: int, shape: np.ndarray, out: tuple, i: int) -> int:
    """The trailing ` <latency>` (when the template has one), then the line's end."""
    fs, fe, _ival, fval, flag, _req = out
    if not shape[LATENCY]:
        return _line_end(buf, pos, n)
    if pos + 2 > n or buf[pos] != 32:
        return -1
    s = pos + 1
    e = _line_end(buf, _token(buf, s, n), n)
    if e < 0:
        return -1
    k = shape[S_LATENCY]
    fs[k, i], fe[k, i] = s, e
    if e - s == 1 and buf[s] == 45:
        fval[k, i], flag[k, i] = 0.0, 0
        return e
    ok, x, point = parse_decimal(buf, s, e)
    fval[k, i], flag[k, i] = x, VALID | (POINT if point else 0)
    return e if ok else -1
