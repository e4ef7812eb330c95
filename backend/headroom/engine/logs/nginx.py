"""nginx `log_format` strings compiled into one line template.

Times: nginx writes its log line when the response is done, so `$time_local`,
`$time_iso8601` and `$msec` are completion times; with `$request_time` (or upstream
times) in the format, arrival = completion - duration.
"""

from __future__ import annotations

import re

from .records import LogInputError
from .tabulate import TemplateParser
from .template import Field, join

_VAR = re.compile(r"\$(?:\{(\w+)\}|(\w+))")
# variable -> (role, unit); ranked: the first of several sources of a column wins
_ROLES: dict[str, tuple[str, str | None]] = {
    "remote_addr": ("client", None),
    "time_local": ("time", None),
    "time_iso8601": ("time_iso", None),
    "msec": ("time_epoch", "s"),
    "request": ("request", None),
    "status": ("status", None),
    "body_bytes_sent": ("bytes", None),
    "bytes_sent": ("bytes", None),
    "http_referer": ("referer", None),
    "http_user_agent": ("user_agent", None),
    "request_time": ("latency", "s"),
    "upstream_response_time": ("latency_sum", "s"),
    "host": ("server", None),
    "server_name": ("server", None),
    "http_host": ("server", None),
    "request_method": ("method", None),
    "request_uri": ("url", None),
    "uri": ("path", None),
    "args": ("query", None),
    "query_string": ("query", None),
}
_LISTS = {"upstream_addr", "upstream_status", "upstream_connect_time", "upstream_header_time"}
COMPLETION_NOTE = "nginx logs the completion time: arrival = time - $request_time"


def _parts(fmt: str) -> list[bytes | Field]:
    parts: list[bytes | Field] = []
    pos = 0
    for m in _VAR.finditer(fmt):
        if m.start() > pos:
            parts.append(fmt[pos : m.start()].encode())
        name = m.group(1) or m.group(2)
        role, unit = _ROLES.get(name, ("skip_list" if name in _LISTS else "skip", None))
        parts.append(Field(role, unit))
        pos = m.end()
    if pos < len(fmt):
        parts.append(fmt[pos:].encode())
    return parts


def _dedupe(parts: list[bytes | Field]) -> list[bytes | Field]:
    """One field per column: the first source in _ROLES order; latency prefers
    $request_time over upstream times; list-valued skipped variables keep their commas."""
    fields = [p for p in parts if isinstance(p, Field)]
    has_latency = any(f.role == "latency" for f in fields)
    seen: set[str] = set()
    out: list[bytes | Field] = []
    for part in parts:
        if isinstance(part, Field):
            column = "latency" if part.role == "latency_sum" else part.role
            drop = column in seen or (part.role == "latency_sum" and has_latency)
            if part.role == "skip_list" or (drop and part.role == "latency_sum"):
                part = Field("skip_list")
            elif drop or part.role == "skip":
                part = Field("skip")
            seen.add(column)
        out.append(part)
    return out


def compile_nginx_format(fmt: str, name: str | None = None) -> TemplateParser:
    """One parser for an nginx log_format string (the quoted pieces joined)."""
    parts = _dedupe(_parts(fmt))
    roles = {p.role for p in parts if isinstance(p, Field)}
    if not roles - {"skip", "skip_list"}:
        raise LogInputError("bad_log_format", f"no known variable in {fmt!r}")
    timed = bool(roles & {"time", "time_iso", "time_epoch"})
    notes = (COMPLETION_NOTE,) if timed else ()
    return TemplateParser(
        name or f"nginx:{fmt}", join(tuple(parts)), time_is_completion=timed, notes=notes
    )
