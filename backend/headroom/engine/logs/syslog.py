"""Access lines wrapped in a syslog header (nginx `access_log syslog:`, rsyslog files).

Recognised headers, each optionally after a `<PRI>`:
  RFC 3164: `Nov 22 05:00:00 host tag: ` (also `Nov  2`, `tag[pid]:`, no host) or the same
  with an RFC 3339 time (rsyslog's high-precision files);
  RFC 5424: `1 2026-11-22T05:00:00Z host app procid msgid [sd...] ` (or `-` for no sd).
A `syslog+<format>` parser copies the chunk without the headers (one pass) and parses
that with the inner format; the header's own time is ignored, the access line's is used.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numba import njit

from .tabulate import LineParser, Scan

PREFIX = "syslog+"


@njit(cache=True, inline="always")
def _digit(b: int) -> bool:
    return 48 <= b <= 57


@njit(cache=True, inline="always")
def _token_end(buf: np.ndarray, j: int, e: int) -> int:
    while j < e and buf[j] != 32:
        j += 1
    return j


@njit(cache=True, inline="always")
def _structured_data(buf: np.ndarray, j: int, e: int) -> int:
    """After RFC 5424 structured data (`-` or `[..][..]`, `\\]` escaped): -1 if malformed."""
    if j < e and buf[j] == 45:
        return j + 1
    while j < e and buf[j] == 91:
        j += 1
        while j < e and buf[j] != 93:
            j += 2 if buf[j] == 92 else 1
        if j >= e:
            return -1
        j += 1
    return j


@njit(cache=True)
def _rfc5424(buf: np.ndarray, j: int, e: int) -> int:
    """Header length after `<PRI>` when `1 time host app procid msgid sd ` follows, else -1."""
    k = j
    while k < e and _digit(buf[k]):
        k += 1
    if k == j or k - j > 2 or k >= e or buf[k] != 32:
        return -1
    k += 1
    for _ in range(5):
        t = _token_end(buf, k, e)
        if t == k or t >= e:
            return -1
        k = t + 1
    k = _structured_data(buf, k, e)
    if k < 0 or k >= e or buf[k] != 32:
        return -1
    k += 1
    if k + 3 <= e and buf[k] == 0xEF and buf[k + 1] == 0xBB and buf[k + 2] == 0xBF:
        k += 3  # the message's UTF-8 BOM
    return k


@njit(cache=True)
def _rfc3164_time(buf: np.ndarray, j: int, e: int) -> int:
    """After `Mmm dd hh:mm:ss ` or an RFC 3339 time and a space, else -1."""
    if j + 16 <= e and buf[j + 3] == 32 and buf[j + 6] == 32 and buf[j + 15] == 32:
        month = (buf[j] | 32) >= 97 and (buf[j + 1] | 32) >= 97 and (buf[j + 2] | 32) >= 97
        day = (buf[j + 4] == 32 or _digit(buf[j + 4])) and _digit(buf[j + 5])
        if month and day and buf[j + 9] == 58 and buf[j + 12] == 58:
            return j + 16
    if j + 20 <= e and _digit(buf[j]) and _digit(buf[j + 3]) and buf[j + 4] == 45:
        t = _token_end(buf, j, e)
        if buf[j + 10] == 84 and t < e:
            return t + 1
    return -1


@njit(cache=True)
def header_length(buf: np.ndarray, s: int, e: int) -> int:
    """Bytes of the syslog header starting the line [s, e), or 0 when it has none."""
    j = s
    if j < e and buf[j] == 60:  # <PRI>
        k = j + 1
        while k < e and k - j <= 4 and _digit(buf[k]):
            k += 1
        if k == j + 1 or k >= e or buf[k] != 62:
            return 0
        j = k + 1
        k = _rfc5424(buf, j, e)
        if k >= 0:
            return k - s
    k = _rfc3164_time(buf, j, e)
    if k < 0:
        return 0
    for _ in range(2):  # `host tag: ` or just `tag: `
        t = _token_end(buf, k, e)
        if t == k or t >= e:
            return 0
        if buf[t - 1] == 58:
            return t + 1 - s
        k = t + 1
    return 0


@njit(cache=True)
def strip_headers(buf: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(buf without the headers, each line's start and end in the original, wrapped lines)."""
    out = np.empty(buf.size, np.uint8)
    n_lines = 0
    for i in range(buf.size):
        n_lines += buf[i] == 10
    n_lines += buf.size > 0 and buf[buf.size - 1] != 10
    starts = np.empty(n_lines, np.int64)
    ends = np.empty(n_lines, np.int64)
    w = 0
    s = 0
    wrapped = 0
    for i in range(n_lines):
        e = s
        while e < buf.size and buf[e] != 10:
            e += 1
        h = header_length(buf, s, e)
        wrapped += h > 0
        starts[i], ends[i] = s, e
        n = min(e + 1, buf.size) - s - h
        out[w : w + n] = buf[s + h : s + h + n]
        w += n
        s = e + 1
    return out[:w], starts, ends, wrapped


def wrapped_share(buf: np.ndarray) -> float:
    """The share of the lines carrying a syslog header."""
    _, starts, _, wrapped = strip_headers(buf)
    return wrapped / starts.size if starts.size else 0.0


@dataclass(frozen=True)
class SyslogParser:
    """`syslog+<inner>`: the inner format after each line's syslog header."""

    inner: LineParser

    @property
    def name(self) -> str:
        return PREFIX + self.inner.name

    @property
    def latency_unit(self) -> str | None:
        return self.inner.latency_unit

    @property
    def notes(self) -> tuple[str, ...]:
        return ("syslog-wrapped lines: the header is dropped", *self.inner.notes)

    def fields_count(self) -> int:
        return self.inner.fields_count()

    def scan(self, buf: np.ndarray) -> Scan:
        stripped, starts, ends, _ = strip_headers(buf)
        scan = self.inner.scan(stripped)
        return replace(scan, starts=starts, ends=ends)  # reject texts from the original lines
