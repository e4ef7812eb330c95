"""Compiled byte scanners: split a buffer into lines and lines into template fields.

A template is compiled (see `template.py`) into parallel step arrays; each step is a
literal to match or a field to delimit. Fields are returned as byte spans, never copied.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# step kinds
LIT = 0
FIELD = 1
# field modes
TOKEN = 0  # runs to the terminator byte (next literal's first byte); last field: to a space
QUOTED = 1  # backslash escapes; ends at a quote followed by the next literal's 2nd byte
QUOTED_LAST = 2  # last quoted field: ends at the line's final quote; unterminated is tolerated
REST = 3  # to the end of the line

# line error codes (0 = ok)
E_EMPTY = 1
E_LITERAL = 2
E_EARLY_END = 3
E_TRAILING = 4
E_UNTERMINATED = 5
E_TIME = 6
E_STATUS = 7
E_BYTES = 8
E_LATENCY = 9
E_NUMBER = 10


@njit(cache=True)
def split_lines(buf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Line spans (start, end); end excludes the newline and trailing CR/space/tab."""
    n = buf.size
    count = 0
    for i in range(n):
        if buf[i] == 10:
            count += 1
    if n > 0 and buf[n - 1] != 10:
        count += 1
    starts = np.empty(count, np.int64)
    ends = np.empty(count, np.int64)
    k = 0
    s = 0
    for i in range(n + 1):
        if i == n and (n == 0 or buf[n - 1] == 10):
            break
        if i == n or buf[i] == 10:
            e = i
            while e > s and (buf[e - 1] == 13 or buf[e - 1] == 32 or buf[e - 1] == 9):
                e -= 1
            starts[k] = s
            ends[k] = e
            k += 1
            s = i + 1
    return starts, ends


@njit(cache=True)
def _scan_quoted(buf: np.ndarray, pos: int, end: int, after: int) -> int:
    j = pos
    while j < end:
        b = buf[j]
        if b == 92:  # backslash escapes the next byte
            j += 2
            continue
        if b == 34 and (j + 1 >= end or after < 0 or buf[j + 1] == after):
            return j
        j += 1
    return -1


@njit(cache=True)
def _scan_field(buf: np.ndarray, pos: int, end: int, mode: int, term: int, after: int) -> int:
    """Return the field's end (exclusive), -1 when the line ends early, -2 unterminated."""
    if mode == REST:
        return end
    if mode == QUOTED:
        j = _scan_quoted(buf, pos, end, after)
        return j if j >= 0 else -2
    if mode == QUOTED_LAST:
        if end > pos and buf[end - 1] == 34 and (end - 1 == pos or buf[end - 2] != 92):
            return end - 1
        if _scan_quoted(buf, pos, end, -1) >= 0:
            return -3  # a closing quote with text after it
        return end  # tolerated: a last field truncated before its closing quote
    j = pos
    while j < end and buf[j] != term:
        j += 1
    if j == end and term != 32:
        return -1
    return j


@njit(cache=True)
def tokenise(
    buf: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    kind: np.ndarray,
    lit: np.ndarray,
    lit_off: np.ndarray,
    lit_len: np.ndarray,
    slot: np.ndarray,
    mode: np.ndarray,
    term: np.ndarray,
    after: np.ndarray,
    n_slots: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Delimit every line's fields: spans (n, n_slots) and an error code and step per line."""
    n = starts.size
    fs = np.full((n, n_slots), -1, np.int64)
    fe = np.full((n, n_slots), -1, np.int64)
    err = np.zeros(n, np.int8)
    err_step = np.zeros(n, np.int16)
    err_pos = np.zeros(n, np.int64)
    n_steps = kind.size
    for i in range(n):
        pos = starts[i]
        end = ends[i]
        if pos == end:
            err[i] = E_EMPTY
            continue
        for k in range(n_steps):
            if kind[k] == LIT:
                m = lit_len[k]
                if k == n_steps - 1 and pos == end and k > 0 and mode[k - 1] == QUOTED_LAST:
                    break  # truncated last quoted field: its closing quote is missing
                ok = pos + m <= end
                if ok:
                    for t in range(m):
                        if buf[pos + t] != lit[lit_off[k] + t]:
                            ok = False
                            break
                if not ok:
                    err[i] = E_LITERAL if pos < end else E_EARLY_END
                    break
                pos += m
            else:
                j = _scan_field(buf, pos, end, mode[k], term[k], after[k])
                if j < 0:
                    err[i] = E_EARLY_END if j == -1 else (E_UNTERMINATED if j == -2 else E_TRAILING)
                    break
                fs[i, slot[k]] = pos
                fe[i, slot[k]] = j
                pos = j
        if err[i] == 0 and pos != end:
            err[i] = E_TRAILING
        if err[i] != 0:
            err_step[i] = k
            err_pos[i] = pos - starts[i]
    return fs, fe, err, err_step, err_pos
