"""strftime-style time patterns (Apache `%{...}t`) compiled for the byte scanner.

A pattern becomes (op, arg) pairs; the compiled matcher consumes as many bytes as the
pattern matches and returns the UTC time. Missing date parts leave the time null (valid);
`%Z` names other than GMT/UTC are read as UTC.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .fields import NS_PER_S, days_from_civil, month_at
from .records import LogInputError

P_LIT, P_SPACE, P_NUM, P_MON, P_LETTERS, P_TZ, P_AMPM, P_EPOCH, P_FRAC, P_ZONE, P_WDAY = range(11)
# P_NUM targets (the arg is target * 8 + max width); ISO week dates: %G year, %V week,
# %u/%w or a weekday name the day
T_YEAR, T_MON, T_DAY, T_HOUR, T_MIN, T_SEC, T_YY, T_HOUR12, T_SKIP = range(9)
T_ISO_YEAR, T_ISO_WEEK, T_WDAY_MON1, T_WDAY_SUN0 = range(9, 13)
_NUM = {
    "Y": (T_YEAR, 4), "m": (T_MON, 2), "d": (T_DAY, 2), "e": (T_DAY, 2), "H": (T_HOUR, 2),
    "k": (T_HOUR, 2), "M": (T_MIN, 2), "S": (T_SEC, 2), "y": (T_YY, 2), "I": (T_HOUR12, 2),
    "l": (T_HOUR12, 2), "j": (T_SKIP, 3), "w": (T_WDAY_SUN0, 1), "u": (T_WDAY_MON1, 1),
    "G": (T_ISO_YEAR, 4), "V": (T_ISO_WEEK, 2), "U": (T_SKIP, 2), "W": (T_SKIP, 2),
    "C": (T_SKIP, 2), "g": (T_SKIP, 2),
}  # fmt: skip
_ALIASES = {"T": "%H:%M:%S", "D": "%m/%d/%y", "F": "%Y-%m-%d", "R": "%H:%M", "r": "%I:%M:%S %p"}
_SINGLE = {"b": (P_MON, 0), "h": (P_MON, 0), "B": (P_MON, 0), "a": (P_WDAY, 0),
           "A": (P_WDAY, 0), "Z": (P_ZONE, 0), "z": (P_TZ, 0), "p": (P_AMPM, 0),
           "s": (P_EPOCH, 0), "n": (P_SPACE, 0), "t": (P_SPACE, 0)}  # fmt: skip
# %Z names we read (hours east of UTC); any other name is read as UTC
_ZONES = {
    "UTC": 0, "GMT": 0, "Z": 0, "UT": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
    "MST": -7, "MDT": -6, "PST": -8, "PDT": -7, "CET": 1, "CEST": 2, "EET": 2, "EEST": 3,
}  # fmt: skip


# weekday names (English, and German as apachelogs' locale tests write them), by prefix
_WEEKDAYS = {1: ("mon", "mo"), 2: ("tue", "di"), 3: ("wed", "mi"), 4: ("thu", "do"),
             5: ("fri", "fr"), 6: ("sat", "sa"), 7: ("sun", "so")}  # fmt: skip
_WDAY_NAMES = sorted(((n, d) for d, ns in _WEEKDAYS.items() for n in ns), key=lambda t: -len(t[0]))
WDAY_BYTES = np.frombuffer("".join(n for n, _ in _WDAY_NAMES).encode(), np.uint8).copy()
WDAY_LEN = np.array([len(n) for n, _ in _WDAY_NAMES], np.int64)
WDAY_OFF = np.concatenate(([0], np.cumsum(WDAY_LEN)[:-1])).astype(np.int64)
WDAY_NUM = np.array([d for _, d in _WDAY_NAMES], np.int64)


def _zone_key(name: str) -> int:
    key = 0
    for ch in name[:4]:
        key = key * 256 + ord(ch)
    return key


ZONE_KEYS = np.array([_zone_key(z) for z in _ZONES], np.int64)
ZONE_OFFSETS_S = np.array([3600 * h for h in _ZONES.values()], np.int64)
APACHE_NAMED = {"sec": (P_EPOCH, 0), "msec": (P_EPOCH, 3), "usec": (P_EPOCH, 6),
                "msec_frac": (P_FRAC, 3), "usec_frac": (P_FRAC, 6)}  # fmt: skip


def compile_strftime(pattern: str) -> list[tuple[int, int]]:
    """`%Y-%m-%d %H:%M:%S %z` -> ops; raises LogInputError on unknown or dangling `%`."""
    ops: list[tuple[int, int]] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch != "%":
            ops.extend((P_LIT, b) for b in ch.encode())
            i += 1
            continue
        if i + 1 >= len(pattern):
            raise LogInputError("bad_log_format", f"dangling % in time format {pattern!r}")
        ops.extend(_directive(pattern[i + 1], pattern))
        i += 2
    return ops


def _directive(d: str, pattern: str) -> list[tuple[int, int]]:
    if d == "%":
        return [(P_LIT, ord("%"))]
    if d in _ALIASES:
        return compile_strftime(_ALIASES[d])
    if d in _NUM:
        target, width = _NUM[d]
        return [(P_NUM, target * 8 + width)]
    if d in _SINGLE:
        return [_SINGLE[d]]
    raise LogInputError("bad_log_format", f"unsupported time directive %{d} in {pattern!r}")


@njit(cache=True, inline="always")
def _num(buf: np.ndarray, pos: int, end: int, width: int) -> tuple[int, int]:
    j = pos
    while j < end and j - pos < width and buf[j] == 32 and width == 2:  # %e/%k space padding
        j += 1
    v = 0
    k = j
    while k < end and k - pos < width and 48 <= buf[k] <= 57:
        v = v * 10 + (buf[k] - 48)
        k += 1
    return (v, k) if k > j else (-1, pos)


@njit(cache=True, inline="always")
def _letters(buf: np.ndarray, pos: int, end: int) -> int:
    j = pos
    while j < end and ((65 <= buf[j] <= 90) or (97 <= buf[j] <= 122) or buf[j] >= 128):
        j += 1
    return j


@njit(cache=True, inline="always")
def _weekday_at(buf: np.ndarray, pos: int, end: int) -> int:
    """ISO weekday 1..7 of a weekday name starting at pos, or -1."""
    for k in range(WDAY_LEN.size):
        n, o = WDAY_LEN[k], WDAY_OFF[k]
        if pos + n > end:
            continue
        t = 0
        while t < n and (buf[pos + t] | 32) == WDAY_BYTES[o + t]:
            t += 1
        if t == n:
            return WDAY_NUM[k]
    return -1


@njit(cache=True, inline="always")
def _iso_week_days(year: int, week: int, weekday: int) -> int:
    """Days since 1970-01-01 of an ISO week date (week 1 holds January 4th)."""
    jan4 = days_from_civil(year, 1, 4)
    monday = jan4 - (jan4 + 3) % 7  # 1970-01-01 was a Thursday
    return monday + (week - 1) * 7 + (weekday - 1)


@njit(cache=True)
def match_strftime(
    buf: np.ndarray, pos: int, end: int, ops: np.ndarray, args: np.ndarray
) -> tuple[int, bool, int]:
    """Match the pattern at pos: (end position or -1, has a full date, UTC ns)."""
    # year, mon, day, hour, min, sec, frac ns, offset s, epoch ns, pm(1)/am(0)/none(-1),
    # ISO year, ISO week, ISO weekday
    f = np.array([-1, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1], np.int64)
    j = pos
    for k in range(ops.size):
        op, arg = ops[k], args[k]
        if op == P_LIT:
            if j >= end or buf[j] != arg:
                return -1, False, 0
            j += 1
        elif op == P_SPACE:
            while j < end and (buf[j] == 32 or buf[j] == 9 or buf[j] == 10):
                j += 1
        elif op == P_NUM:
            v, j2 = _num(buf, j, end, arg % 8)
            if v < 0:
                return -1, False, 0
            t = arg // 8
            if t == T_YY:
                f[0] = v + (2000 if v < 69 else 1900)
            elif t == T_HOUR12:
                f[3] = v % 12
            elif t < T_SKIP:
                f[t] = v
            elif t == T_ISO_YEAR or t == T_ISO_WEEK:  # noqa: SIM109 (plain compares for numba)
                f[t + 1] = v
            elif t > T_SKIP:  # %u is 1..7 from Monday, %w 0..6 from Sunday
                f[12] = v if v > 0 else 7
            j = j2
        elif op == P_MON:
            f[1], n = month_at(buf, j, end)
            if n == 0:
                return -1, False, 0
            j = _letters(buf, j + n, end)
        elif op == P_WDAY:
            f[12] = max(f[12], _weekday_at(buf, j, end))
            j2 = _letters(buf, j, end)
            if j2 == j:
                return -1, False, 0
            j = j2
        elif op == P_LETTERS:
            j2 = _letters(buf, j, end)
            if j2 == j:
                return -1, False, 0
            j = j2
        elif op == P_ZONE:
            j2 = _letters(buf, j, end)
            if j2 == j:
                return -1, False, 0
            key = 0
            for t in range(j, min(j2, j + 4)):
                key = key * 256 + (buf[t] & 223)  # upper case
            for z in range(ZONE_KEYS.size):
                if ZONE_KEYS[z] == key and j2 - j <= 4:
                    f[7] = ZONE_OFFSETS_S[z]
            j = j2
        elif op == P_TZ:
            if j + 5 > end or (buf[j] != 43 and buf[j] != 45):
                return -1, False, 0
            hh, j2 = _num(buf, j + 1, end, 2)
            mm, j3 = _num(buf, j2 + (1 if j2 < end and buf[j2] == 58 else 0), end, 2)
            if hh < 0 or mm < 0:
                return -1, False, 0
            f[7] = (hh * 3600 + mm * 60) * (1 if buf[j] == 43 else -1)
            j = j3
        elif op == P_AMPM:
            if j + 2 > end:
                return -1, False, 0
            f[9] = 1 if (buf[j] | 32) == 112 else 0
            j += 2
        else:  # P_EPOCH (arg: decimal digits of the unit) or P_FRAC (arg: digits)
            v, j2 = _num(buf, j, end, 19 if op == P_EPOCH else arg)
            if v < 0:
                return -1, False, 0
            scale = 10 ** (9 - arg)
            if op == P_EPOCH:
                f[8] = v * scale
            else:
                f[6] = v * scale
            j = j2
    if f[9] == 1:
        f[3] += 12
    if f[8] >= 0:
        return j, True, f[8] + f[6]
    if f[0] >= 0 and f[1] >= 0 and f[2] >= 0:
        days = days_from_civil(f[0], f[1], f[2])
    elif f[10] >= 0 and 1 <= f[11] <= 53 and 1 <= f[12] <= 7:
        days = _iso_week_days(f[10], f[11], f[12])
    else:
        return j, False, 0
    secs = days * 86400 + f[3] * 3600 + f[4] * 60 + f[5] - f[7]
    return j, True, secs * NS_PER_S + f[6]
