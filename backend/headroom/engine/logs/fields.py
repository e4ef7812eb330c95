"""Compiled converters from field spans to typed columns (vectorised over all lines)."""

from __future__ import annotations

import numpy as np
from numba import njit

NS_PER_S = 1_000_000_000
# Month names read in times, lower case: English, then the abbreviations other locales'
# strftime %b writes (de, fr, es, it, nl, pt). Matched longest first, ASCII letters in any
# case; "juin"/"juil." need the longest match. Full names are matched by their prefix.
MONTH_NAMES: dict[int, tuple[str, ...]] = {
    1: ("jan", "janv.", "ene", "gen"),
    2: ("feb", "févr.", "fév", "fev"),
    3: ("mar", "mär", "mrz", "mrt", "mars"),
    4: ("apr", "avr.", "avril", "abr"),
    5: ("may", "mai", "mag", "mei"),
    6: ("jun", "juin", "giu"),
    7: ("jul", "juil.", "lug"),
    8: ("aug", "août", "ago"),
    9: ("sep", "sept.", "set"),
    10: ("oct", "okt", "ott", "out"),
    11: ("nov",),
    12: ("dec", "déc.", "dez", "dic"),
}


def _month_table() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    names = sorted(
        ((n.encode(), m) for m, ns in MONTH_NAMES.items() for n in ns), key=lambda t: -len(t[0])
    )
    data = b"".join(n for n, _ in names)
    lens = np.array([len(n) for n, _ in names], np.int64)
    offs = np.concatenate(([0], np.cumsum(lens)[:-1])).astype(np.int64)
    return np.frombuffer(data, np.uint8).copy(), offs, lens, np.array([m for _, m in names])


MONTH_BYTES, MONTH_OFF, MONTH_LEN, MONTH_NUM = _month_table()


@njit(cache=True, inline="always")
def days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm)."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    mp = m + 9 if m <= 2 else m - 3
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


@njit(cache=True, inline="always")
def _digits(buf: np.ndarray, pos: int, end: int, n_max: int) -> tuple[int, int]:
    """Parse up to n_max digits: (value, new_pos); new_pos == pos when none."""
    v = 0
    j = pos
    while j < end and j - pos < n_max and 48 <= buf[j] <= 57:
        v = v * 10 + (buf[j] - 48)
        j += 1
    return v, j


@njit(cache=True, inline="always")
def month_at(buf: np.ndarray, pos: int, end: int) -> tuple[int, int]:
    """(month 1..12, bytes matched) of a month name at pos, or (0, 0)."""
    for k in range(MONTH_LEN.size):
        n, o = MONTH_LEN[k], MONTH_OFF[k]
        if pos + n > end:
            continue
        t = 0
        while t < n:
            b = buf[pos + t]
            if (b | 32 if 65 <= b <= 90 else b) != MONTH_BYTES[o + t]:
                break
            t += 1
        if t == n:
            return MONTH_NUM[k], n
    return 0, 0


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _d2(buf: np.ndarray, s: int) -> int:
    """Two ASCII digits at s, or -1000 when either is not a digit."""
    a = int(buf[s]) - 48
    b = int(buf[s + 1]) - 48
    if a < 0 or a > 9 or b < 0 or b > 9:
        return -1000
    return a * 10 + b


@njit(cache=True, inline="always")
def _clf_fixed(buf: np.ndarray, s: int) -> tuple[bool, int]:
    """The layout Apache and nginx always write: `dd/Mon/yyyy:HH:MM:SS +hhmm`."""
    if buf[s + 2] != 47 or buf[s + 6] != 47 or buf[s + 11] != 58 or buf[s + 20] != 32:
        return False, 0
    if buf[s + 14] != 58 or buf[s + 17] != 58 or (buf[s + 21] != 43 and buf[s + 21] != 45):
        return False, 0
    d, y1, y2, hh = _d2(buf, s), _d2(buf, s + 7), _d2(buf, s + 9), _d2(buf, s + 12)
    mi, ss, oh, om = _d2(buf, s + 15), _d2(buf, s + 18), _d2(buf, s + 22), _d2(buf, s + 24)
    mon, n = month_at(buf, s + 3, s + 6)
    if min(d, y1, y2, hh, mi, ss, oh, om) < 0 or n != 3 or d < 1 or d > 31:
        return False, 0
    if hh > 23 or mi > 59 or ss > 60:
        return False, 0
    off = (oh * 3600 + om * 60) * (1 if buf[s + 21] == 43 else -1)
    days = days_from_civil(y1 * 100 + y2, mon, d)
    return True, (days * 86400 + hh * 3600 + mi * 60 + ss - off) * NS_PER_S


@njit(cache=True)
def parse_clf_time(buf: np.ndarray, s: int, e: int) -> tuple[bool, int]:
    """`10/Oct/2000:13:55:36[.fff] [-0700]` -> (ok, UTC ns)."""
    if e - s == 26:
        ok, v = _clf_fixed(buf, s)
        if ok:
            return ok, v
    d, j = _digits(buf, s, e, 2)
    if j == s or j >= e or buf[j] != 47:
        return False, 0
    mon, n = month_at(buf, j + 1, e)
    j += 1 + n
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
def parse_decimal(buf: np.ndarray, s: int, e: int) -> tuple[bool, float, bool]:
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


@njit(cache=True, inline="always")
def _is_protocol(buf: np.ndarray, s: int, e: int) -> bool:
    return e - s >= 5 and buf[s] == 72 and buf[s + 1] == 84 and buf[s + 4] == 47  # H T . . /


@njit(cache=True)
def parse_int(buf: np.ndarray, s: int, e: int) -> tuple[bool, int]:
    """A signed integer of up to 18 digits filling [s, e)."""
    neg = s < e and buf[s] == 45
    v, j = _digits(buf, s + neg, e, 18)
    if j == s + neg or j != e:
        return False, 0
    return True, -v if neg else v


@njit(cache=True)
def split_request(buf: np.ndarray, s: int, e: int, out: np.ndarray, i: int) -> None:
    """`METHOD target [PROTO]` -> spans of method, path, query in out[0:6, i] (-1 = null)."""
    for r in range(6):
        out[r, i] = -1
    sp1 = s
    while sp1 < e and buf[sp1] != 32:
        sp1 += 1
    if sp1 >= e - 1:
        return  # `-` or a single token: not a request line
    t_end = e
    sp2 = e - 1
    while sp2 > sp1 and buf[sp2] != 32:
        sp2 -= 1
    if sp2 > sp1 and _is_protocol(buf, sp2 + 1, e):
        t_end = sp2
    q = sp1 + 1
    while q < t_end and buf[q] != 63:
        q += 1
    out[0, i], out[1, i], out[2, i], out[3, i] = s, sp1, sp1 + 1, q
    if q < t_end:
        out[4, i], out[5, i] = q + 1, t_end


@njit(cache=True)
def split_url(buf: np.ndarray, s: int, e: int, out: np.ndarray, i: int) -> None:
    """`path[?query]` -> path and query spans in out[2:6, i]; `-` is null."""
    for r in range(6):
        out[r, i] = -1
    if e - s == 1 and buf[s] == 45:
        return
    q = s
    while q < e and buf[q] != 63:
        q += 1
    out[2, i], out[3, i] = s, q
    if q < e:
        out[4, i], out[5, i] = q + 1, e


@njit(cache=True)
def parse_iso_time(buf: np.ndarray, s: int, e: int) -> tuple[bool, int]:
    """`2000-10-10T13:55:36[.fff][Z|+hh:mm]` (T or space) -> (ok, UTC ns); no zone = UTC."""
    y, j = _digits(buf, s, e, 4)
    if j != s + 4 or j + 15 > e or buf[j] != 45 or buf[j + 3] != 45:
        return False, 0
    mo, _ = _digits(buf, j + 1, e, 2)
    d, _ = _digits(buf, j + 4, e, 2)
    if buf[j + 6] != 84 and buf[j + 6] != 32 and buf[j + 6] != 116:
        return False, 0
    hh, k1 = _digits(buf, j + 7, e, 2)
    mi, k2 = _digits(buf, j + 10, e, 2)
    ss, k3 = _digits(buf, j + 13, e, 2)
    if k1 != j + 9 or k2 != j + 12 or k3 != j + 15 or buf[k1] != 58 or buf[k2] != 58:
        return False, 0
    if not (1 <= mo <= 12 and 1 <= d <= 31 and hh <= 23 and mi <= 59 and ss <= 60):
        return False, 0
    frac, k4 = _fraction_ns(buf, k3, e)
    off, k5, ok = _tz_offset_s(buf, k4, e)
    if not ok or k5 != e:
        return False, 0
    secs = days_from_civil(y, mo, d) * 86400 + hh * 3600 + mi * 60 + ss - off
    return True, secs * NS_PER_S + frac


@njit(cache=True)
def parse_decimal_sum(buf: np.ndarray, s: int, e: int) -> tuple[bool, float, bool, bool]:
    """`0.012, 0.004 : -` (nginx upstream times) -> (ok, sum, any value, had point)."""
    total = 0.0
    seen = False
    point = False
    j = s
    while j < e:
        k = j
        while k < e and buf[k] != 44 and buf[k] != 58 and buf[k] != 32:
            k += 1
        if k > j and not (k - j == 1 and buf[j] == 45):
            ok, v, p = parse_decimal(buf, j, k)
            if not ok:
                return False, 0.0, False, False
            total += v
            seen = True
            point = point or p
        j = k
        while j < e and (buf[j] == 44 or buf[j] == 58 or buf[j] == 32):
            j += 1
    return True, total, seen, point


@njit(cache=True)
def parse_last_timer(buf: np.ndarray, s: int, e: int) -> tuple[bool, int, bool]:
    """`0/0/7/1457/+1487` -> (ok, last timer, present); `-1` (aborted) is absent."""
    j = e
    while j > s and buf[j - 1] != 47:
        j -= 1
    if j < e and buf[j] == 43:  # `+` (logasap)
        j += 1
    ok, v = parse_int(buf, j, e)
    return ok, v, ok and v >= 0


@njit(cache=True)
def unit_word_scale(buf: np.ndarray, s: int, e: int) -> float:
    """Units per second of `msecs`, `ms`, `micros`, `us`, `secs`, `s`, `nsecs` (else -1):
    a divisor, since dividing 236 by 1e3 rounds to 0.236 exactly and multiplying does not."""
    c = buf[s] | 32 if e > s else 0
    if c == 109:  # m: msecs / ms / micros
        if e - s >= 2 and (buf[s + 1] | 32) == 105:  # mi(cros)
            return 1e6
        return 1e3
    if c == 117:  # us
        return 1e6
    if c == 115:  # s / secs
        return 1.0
    if c == 110:  # nsecs
        return 1e9
    return -1.0
