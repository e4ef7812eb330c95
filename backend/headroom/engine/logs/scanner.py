"""Compiled byte scanners: split a buffer into lines and lines into template fields.

A template is compiled (see `template.py`) into parallel step arrays; each step is a
literal to match or a field to delimit. Fields are returned as byte spans, never copied.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .clf import match_clf
from .fields import (
    parse_clf_time,
    parse_decimal,
    parse_decimal_sum,
    parse_int,
    parse_iso_time,
    parse_last_timer,
    split_request,
    split_url,
    unit_word_scale,
)
from .loads import borrow
from .strftime import match_strftime
from .views import make_views

# step kinds
LIT = 0
FIELD = 1
# field modes
TOKEN = 0  # runs to the terminator byte (next literal's first byte); last field: to a space
QUOTED = 1  # backslash escapes; ends at a quote followed by the next literal's 2nd byte
QUOTED_LAST = 2  # last quoted field: ends at the line's final quote; unterminated is tolerated
REST = 3  # to the end of the line
TOKEN_LIST = 4  # like TOKEN, but `, ` and ` : ` separators do not end it (upstream times)
PATTERN = 5  # a strftime pattern decides the extent (and the value) of the field
WORDS = 6  # an unquoted request line: `-`, or method and target and an optional HTTP/x
SEEK = 7  # skipped text up to the LAST occurrence of the next literal on the line

# line error codes (0 = ok)
E_EMPTY = 1
E_LITERAL = 2
E_EARLY_END = 3
E_TRAILING = 4
E_UNTERMINATED = 5
E_VALUE = 6  # a typed field failed to convert; err_step holds its slot
# typed conversions per slot
C_NONE = 0
C_TIME_CLF = 1  # 10/Oct/2000:13:55:36 -0700 -> UTC ns
C_INT = 2  # `-` is null
C_INT_DASH0 = 3  # `-` is 0 (CLF %b)
C_DECIMAL = 4  # `-` is null; flag POINT when written with a decimal point
C_REQUEST = 5  # request line -> method/path/query spans
C_TIME_ISO = 6  # 2000-10-10T13:55:36-07:00 -> UTC ns
C_EPOCH = 7  # decimal epoch time (unit from the field) -> fval
C_DECIMAL_SUM = 8  # `0.012, 0.004` -> their sum; all `-` is null
C_URL = 9  # path[?query] -> path/query spans
C_TIMERS = 10  # HAProxy `Tq/Tw/Tc/Tr/Tt`: the last (total) timer; -1 (aborted) is null
C_UNIT_WORD = 11  # uWSGI `msecs`/`micros` -> seconds per unit in fval
VALID = 1
POINT = 2
ESCAPED = 4  # a quoted field holding backslash escapes


@njit(cache=True, inline="always")
def _scan_quoted(buf: np.ndarray, pos: int, end: int, after: int) -> tuple[int, bool]:
    """End of a quoted field: the first unescaped quote followed by `after` (any when < 0)
    or ending the line; -1 when there is none. Also whether a backslash was seen."""
    j = pos
    esc = False
    while j < end:
        b = buf[j]
        if b == 92:  # backslash escapes the next byte
            esc = True
            j += 2
            continue
        if b == 34 and (j + 1 >= end or after < 0 or buf[j + 1] == after):
            return j, esc
        j += 1
    return -1, esc


@njit(cache=True, inline="always")
def _scan_last_quoted(buf: np.ndarray, pos: int, end: int) -> tuple[int, bool]:
    """The last field's end: its closing quote must end the line (-3 otherwise); with no
    unescaped quote at all the field was truncated and runs to the end of the line."""
    j = pos
    esc = False
    last = -1
    while j < end:
        b = buf[j]
        if b == 92:
            esc = True
            j += 2
            continue
        if b == 34:
            last = j
        j += 1
    if last < 0:
        return end, esc  # tolerated: truncated before its closing quote
    return (last if last == end - 1 else -3), esc


@njit(cache=True, inline="always")
def _scan_plain_quoted(buf: np.ndarray, pos: int, end: int, after: int) -> int:
    """_scan_quoted for a line without backslashes."""
    j = pos
    while j < end:
        if buf[j] == 34 and (j + 1 >= end or after < 0 or buf[j + 1] == after):
            return j
        j += 1
    return -1


@njit(cache=True, inline="always")
def _scan_field(
    buf: np.ndarray, pos: int, end: int, mode: int, term: int, after: int, slashed: bool
) -> tuple[int, bool]:
    """(field end (exclusive) or -1 line ends early / -2 unterminated / -3 text after the
    closing quote, whether it holds a backslash escape). `slashed`: the line holds a
    backslash (else quoted fields take the fast paths)."""
    if mode == REST:
        return end, False
    if mode == QUOTED:
        if not slashed:
            j = _scan_plain_quoted(buf, pos, end, after)
            return (j if j >= 0 else -2), False
        j, esc = _scan_quoted(buf, pos, end, after)
        return (j if j >= 0 else -2), esc
    if mode == QUOTED_LAST:
        if not slashed and end > pos and buf[end - 1] == 34:
            return end - 1, False
        return _scan_last_quoted(buf, pos, end)
    if mode == WORDS:
        return _scan_words(buf, pos, end), False
    if mode == SEEK:
        j = end - 1
        while j >= pos and not (
            buf[j] == term and (after < 0 or (j + 1 < end and buf[j + 1] == after))
        ):
            j -= 1
        return (j if j >= pos else -1), False
    j = pos
    if mode == TOKEN_LIST:
        j = _scan_list(buf, pos, end, term)
    else:
        while j < end and buf[j] != term:
            j += 1
    if j == end and term != 32:
        return -1, False
    return j, False


@njit(cache=True, inline="always")
def _token_end(buf: np.ndarray, pos: int, end: int) -> int:
    while pos < end and buf[pos] != 32:
        pos += 1
    return pos


@njit(cache=True, inline="always")
def _scan_words(buf: np.ndarray, pos: int, end: int) -> int:
    j = _token_end(buf, pos, end)
    if (j - pos == 1 and buf[pos] == 45) or j >= end:
        return j
    j = _token_end(buf, j + 1, end)
    if j + 6 <= end and buf[j + 1] == 72 and buf[j + 2] == 84 and buf[j + 5] == 80:  # HTTP/
        j = _token_end(buf, j + 1, end)
    return j


@njit(cache=True, inline="always")
def _scan_list(buf: np.ndarray, pos: int, end: int, term: int) -> int:
    """Like a token, but `, ` and ` : ` separators (nginx upstream times) do not end it."""
    j = pos
    while j < end and buf[j] != term:
        j += 1
        if j < end and buf[j] == 32:
            if buf[j - 1] == 44:  # `, `
                j += 1
            elif j + 2 < end and buf[j + 1] == 58 and buf[j + 2] == 32:  # ` : `
                j += 3
    return j


@njit(cache=True)
def _fill_lines(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, slashed: np.ndarray) -> int:
    """Fill line spans and which lines hold a backslash; -1 when the arrays are too short."""
    n = buf.size
    cap = starts.size
    k = 0
    s = 0
    bs = False
    for i in range(n):
        b = buf[i]
        if b == 10:
            if k == cap:
                return -1
            starts[k], ends[k], slashed[k] = s, _rstrip(buf, s, i), bs
            k += 1
            s = i + 1
            bs = False
        elif b == 92:
            bs = True
    if s < n:
        if k == cap:
            return -1
        starts[k], ends[k], slashed[k] = s, _rstrip(buf, s, n), bs
        k += 1
    return k


@njit(cache=True)
def line_spans(buf: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Line (start, end, holds a backslash); end excludes the newline and trailing
    CR/space/tab. One pass when lines average over 40 bytes, else a count first."""
    cap = buf.size // 40 + 64
    for _ in range(2):
        starts = np.empty(cap, np.int64)
        ends = np.empty(cap, np.int64)
        slashed = np.empty(cap, np.bool_)
        k = _fill_lines(buf, starts, ends, slashed)
        if k >= 0:
            return starts[:k], ends[:k], slashed[:k]
        cap = 1
        for i in range(buf.size):
            cap += buf[i] == 10
    raise AssertionError("unreachable")


@njit(cache=True, inline="always")
def _rstrip(buf: np.ndarray, s: int, e: int) -> int:
    while e > s and (buf[e - 1] == 13 or buf[e - 1] == 32 or buf[e - 1] == 9):
        e -= 1
    return e


@njit(cache=True)
def _scan_pattern(
    buf: np.ndarray,
    pos: int,
    end: int,
    prog: tuple,
    k: int,
    ival: np.ndarray,
    flag: np.ndarray,
    i: int,
) -> int:
    """A strftime-pattern field at step k: stores its time, returns its end (-1: no match).
    A lone `-` (Apache's conditional directives) is a null time."""
    slot, term = prog[4], prog[6]
    pat_op, pat_arg, pat_off, pat_len = prog[8], prog[9], prog[10], prog[11]
    if pos < end and buf[pos] == 45 and (pos + 1 == end or buf[pos + 1] == term[k]):
        return pos + 1
    o, m = pat_off[k], pat_len[k]
    j, has_date, ns = match_strftime(buf, pos, end, pat_op[o : o + m], pat_arg[o : o + m])
    if j >= 0 and has_date:
        ival[slot[k], i] = ns
        flag[slot[k], i] = VALID
    return j


@njit(cache=True, inline="always")
def _match_line(
    buf: np.ndarray,
    pos: int,
    end: int,
    slashed: bool,
    prog: tuple,
    fs: np.ndarray,
    fe: np.ndarray,
    ival: np.ndarray,
    flag: np.ndarray,
    i: int,
) -> tuple[int, int, int]:
    """Delimit line i's fields into fs/fe[:, i] (flagging ESCAPED ones): (error code,
    failing step, position)."""
    kind, lit, lit_off, lit_len, slot, mode, term, after = prog[:8]
    n_steps = kind.size
    for k in range(n_steps):
        if kind[k] == LIT:
            m = lit_len[k]
            if k == n_steps - 1 and pos == end and k > 0 and mode[k - 1] == QUOTED_LAST:
                return 0, k, pos  # truncated last quoted field: its closing quote is missing
            if pos + m > end:
                return E_EARLY_END, k, pos
            o = lit_off[k]
            for t in range(m):
                if buf[pos + t] != lit[o + t]:
                    return E_LITERAL, k, pos
            pos += m
        elif mode[k] == PATTERN:
            j = _scan_pattern(buf, pos, end, prog, k, ival, flag, i)
            if j < 0:
                return E_VALUE, k, pos
            fs[slot[k], i] = pos
            fe[slot[k], i] = j
            pos = j
        else:
            j, esc = _scan_field(buf, pos, end, mode[k], term[k], after[k], slashed)
            if j < 0:
                code = E_EARLY_END if j == -1 else (E_UNTERMINATED if j == -2 else E_TRAILING)
                return code, k, pos
            fs[slot[k], i] = pos
            fe[slot[k], i] = j
            if esc:
                flag[slot[k], i] = ESCAPED
            pos = j
    if pos != end:
        return E_TRAILING, n_steps - 1, pos
    return 0, 0, pos


@njit(cache=True)
def _convert(
    buf: np.ndarray,
    conv: np.ndarray,
    fs: np.ndarray,
    fe: np.ndarray,
    i: int,
    ival: np.ndarray,
    fval: np.ndarray,
    flag: np.ndarray,
    req: np.ndarray,
) -> int:
    """Convert line i's typed fields; returns the failing slot or -1."""
    for c in range(conv.size):
        code = conv[c]
        if code == C_NONE:
            continue
        s, e = fs[c, i], fe[c, i]
        ok = True
        if code == C_REQUEST:
            split_request(buf, s, e, req, i)
            continue
        if code == C_URL:
            split_url(buf, s, e, req, i)
            continue
        if code == C_TIMERS:
            ok, v, seen = parse_last_timer(buf, s, e)
            ival[c, i] = v
            flag[c, i] = VALID if seen else 0
            if not ok:
                return c
            continue
        if code == C_UNIT_WORD:
            x = unit_word_scale(buf, s, e)
            fval[c, i] = x
            flag[c, i] = VALID
            if x <= 0:
                return c
            continue
        if code in (C_TIME_CLF, C_TIME_ISO) and not (e - s == 1 and buf[s] == 45):
            if code == C_TIME_CLF:
                ok, v = parse_clf_time(buf, s, e)
            else:
                ok, v = parse_iso_time(buf, s, e)
            ival[c, i] = v
            flag[c, i] = VALID
        elif code == C_DECIMAL_SUM:
            ok, x, seen, point = parse_decimal_sum(buf, s, e)
            fval[c, i] = x
            flag[c, i] = (VALID if seen else 0) | (POINT if point else 0)
        elif e - s == 1 and buf[s] == 45:  # `-`
            ival[c, i] = 0
            fval[c, i] = 0.0
            flag[c, i] = VALID if code == C_INT_DASH0 else 0
        elif code in (C_DECIMAL, C_EPOCH):
            ok, x, point = parse_decimal(buf, s, e)
            fval[c, i] = x
            flag[c, i] = VALID | (POINT if point else 0)
        else:
            ok, v = parse_int(buf, s, e)
            ival[c, i] = v
            flag[c, i] = VALID
        if not ok:
            return c
    return -1


@njit(cache=True, nogil=True)
def line_count(buf: np.ndarray) -> int:
    """Lines in buf: newlines, plus an unterminated last line (vectorised by LLVM)."""
    c = 0
    for i in range(buf.size):
        c += buf[i] == 10
    return c + (buf.size > 0 and buf[buf.size - 1] != 10)


@njit(cache=True, inline="always")
def _next_line(buf: np.ndarray, pos: int) -> tuple[int, int, bool]:
    """(position after the line's newline, its end without trailing CR/space/tab, whether
    it holds a backslash) of the line starting at pos."""
    j = pos
    bs = False
    n = buf.size
    while j < n and buf[j] != 10:
        bs = bs or buf[j] == 92
        j += 1
    return min(j + 1, n), _rstrip(buf, pos, j), bs


@njit(cache=True, inline="always")
def _after_end(buf: np.ndarray, e: int) -> int:
    """The next line's start after a line the fast path ended at e (CR LF, LF or the end)."""
    if e < buf.size and buf[e] == 13:
        e += 1
    return e + 1 if e < buf.size else e


@njit(cache=True, nogil=True)  # chunks are scanned by several threads at once
def scan_template(
    buf: np.ndarray, n: int, prog: tuple, conv: np.ndarray, fast: np.ndarray, cols: tuple
) -> tuple:
    """Split, delimit and convert the n lines of buf in one pass over the bytes, then make
    the string views of the lines that parse (see views.make_views for `cols`).
    `fast`: a CLF shape (see clf.py) to try that fast path first, or empty.

    Returns starts, ends, fs, fe, ival, fval, flag, req, err, err_step, err_pos, views,
    extra, valid; the per-field arrays are (slot, line), only meaningful where err == 0; the
    views and their validity have one row per parsed line.
    """
    n_slots = conv.size
    starts, ends = np.empty(n, np.int64), np.empty(n, np.int64)
    fs = np.empty((n_slots, n), np.int32)  # chunks are < 2 GiB
    fe = np.empty((n_slots, n), np.int32)
    ival = np.empty((n_slots, n), np.int64)  # rows of untyped slots are never touched
    fval = np.empty((n_slots, n), np.float64)
    flag = np.zeros((n_slots, n), np.uint8)
    req = np.empty((6, n), np.int32)
    err = np.zeros(n, np.int8)
    err_step = np.zeros(n, np.int16)
    err_pos = np.zeros(n, np.int64)
    day = np.array([-1, 0], np.int64)
    # the loop's helpers get borrowed arrays: no atomic reference counting per line
    out = (borrow(fs), borrow(fe), borrow(ival), borrow(fval), borrow(flag), borrow(req))
    buf_, fast_, day_ = borrow(buf), borrow(fast), borrow(day)
    pos = 0
    for i in range(n):
        starts[i] = pos
        end = match_clf(buf_, pos, fast_, out, i, day_) if fast.size else -1
        if end >= 0:
            ends[i], pos = end, _after_end(buf, end)
        else:
            flag[:, i] = 0
            pos, end, slashed = _next_line(buf, pos)
            ends[i] = end
            err[i], err_step[i], err_pos[i] = _generic(
                buf_, starts[i], end, slashed, prog, conv, out, i
            )
    views, extra, valid = make_views(buf, (fs, fe, req, flag), cols, np.flatnonzero(err == 0))
    return (
        starts,
        ends,
        fs,
        fe,
        ival,
        fval,
        flag,
        req,
        err,
        err_step,
        err_pos,
        views,
        extra,
        valid,
    )


@njit(cache=True, inline="always")
def _generic(
    buf: np.ndarray,
    pos: int,
    end: int,
    slashed: bool,
    prog: tuple,
    conv: np.ndarray,
    out: tuple,
    i: int,
) -> tuple[int, int, int]:
    """The template steps and conversions for line i: (error code, step, column)."""
    fs, fe, ival, fval, flag, req = out
    if pos == end:
        return E_EMPTY, 0, 0
    code, step, at = _match_line(buf, pos, end, slashed, prog, fs, fe, ival, flag, i)
    if code == 0:
        bad = _convert(buf, conv, fs, fe, i, ival, fval, flag, req)
        if bad >= 0:
            return E_VALUE, bad, at - pos
    return code, step, at - pos
