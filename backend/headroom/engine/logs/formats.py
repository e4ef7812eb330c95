"""The registry of format names that parse_chunk and detect_format use.

Registered names:
  ``[vhost_]{common|combined}[_latency_{s|ms|us}]`` (Apache/nginx CLF; the latency variants
  read a trailing response time: nginx `$request_time` = s, Apache `%D` = us),
  ``haproxy`` (syslog-wrapped HTTP log, Tt timer), ``uwsgi``, ``caddy`` (JSON), ``w3c``.
Names carrying a spec:
  ``apache:<LogFormat>``, ``nginx:<log_format>``, ``json:<field map JSON>``,
  ``w3c:<#Fields line>[ #GMT-Offset: <+-hhmm>]``, ``trace_csv:<time kind>:<header>``,
  ``trace_jsonl:<time kind>``.
Any of them behind a syslog header: ``syslog+<name>`` (see syslog.py).
"""

from __future__ import annotations

from functools import cache, lru_cache

from .apache import compile_log_format
from .jsonlines import caddy
from .jsonlines import from_spec as json_from_spec
from .nginx import compile_nginx_format
from .records import LogInputError
from .strftime import compile_strftime
from .syslog import PREFIX as SYSLOG_PREFIX
from .syslog import SyslogParser
from .tabulate import LineParser, TemplateParser
from .template import LATENCY_UNITS, Field, Parts, join
from .traces import trace_from_name
from .w3c import W3CParser, parse_spec

F = Field
COMMON: Parts = (F("client"), b" ", F("skip"), b" ", F("skip"), b" [", F("time"), b'] "')
COMMON += (F("request"), b'" ', F("status"), b" ", F("bytes"))
COMBINED = (*COMMON, b' "', F("referer"), b'" "', F("user_agent"), b'"')
VHOST = (F("server"), b":", F("skip"), b" ")
# syslog-wrapped HAProxy HTTP log: client:port [accept date] frontend backend/server
# Tq/Tw/Tc/Tr/Tt status bytes ... "request" (accept date = arrival; timers in ms)
HAPROXY: Parts = (F("skip"), b"]: ", F("client"), b":", F("skip"), b" [", F("time"), b"] ")
HAPROXY += (F("skip"), b" ", F("server"), b" ", F("timers", "ms"), b" ", F("status"), b" ")
HAPROXY += (F("bytes"), b" ", F("seek"), b' "', F("request"), b'"')
UWSGI_TIME = F("time_pattern", pattern=tuple(compile_strftime("%a %b %d %H:%M:%S %Y")))
UWSGI: Parts = (b"[pid: ", F("skip"), b"] ", F("client"), b" (", F("skip"), b") {", F("skip"))
UWSGI += (b"} [", UWSGI_TIME, b"] ", F("method"), b" ", F("url"), b" => generated ")
UWSGI += (F("bytes"), b" bytes in ", F("latency", "ms"), b" ", F("latency_unit_word"), b" (")
UWSGI += (F("skip"), b" ", F("status"), b")", F("rest"))
NAIVE_NOTE = "times carry no zone: read as UTC"
# HAProxy's own event lines (start, stop, server state): no request, skipped
HAPROXY_MESSAGES = (
    r"\]: (?:Proxy \S+ (?:started|stopped)|(?:Stopping|Pausing|Resuming) (?:proxy|frontend|"
    r"backend) |Server \S+ is (?:UP|DOWN|going DOWN)|[Bb]ackend \S+ has no server available)"
)


def clf_family() -> dict[str, TemplateParser]:
    out: dict[str, TemplateParser] = {}
    for vhost in (False, True):
        for base_name, base in (("common", COMMON), ("combined", COMBINED)):
            name = ("vhost_" if vhost else "") + base_name
            head = VHOST if vhost else ()
            out[name] = TemplateParser(name, join(head, base), clf=True)
            for unit in LATENCY_UNITS:
                lat = f"{name}_latency_{unit}"
                parts = join(head, base, (b" ", F("latency", unit)))
                out[lat] = TemplateParser(lat, parts, clf=True)
    return out


@cache
def registry() -> dict[str, LineParser]:
    out: dict[str, LineParser] = dict(clf_family())
    out["haproxy"] = TemplateParser(
        "haproxy", HAPROXY, notes=("HAProxy: Tt ms", NAIVE_NOTE), messages=HAPROXY_MESSAGES
    )
    out["uwsgi"] = TemplateParser("uwsgi", UWSGI, notes=("uWSGI: msecs/micros", NAIVE_NOTE))
    out["caddy"] = caddy()
    out["w3c"] = W3CParser()
    return out


@lru_cache(maxsize=128)
def get_parser(name: str) -> LineParser:
    """A parser by name: a registered format, ``apache:<LogFormat>``, ``nginx:<log_format>``
    or ``json:<field map>`` (see jsonlines.from_spec)."""
    kind, _, spec = name.partition(":")
    if kind == "apache" and spec:
        return compile_log_format(spec)
    if kind == "nginx" and spec:
        return compile_nginx_format(spec)
    if kind == "json" and spec:
        return json_from_spec(spec)
    if kind == "w3c" and spec:
        fields, offset_min = parse_spec(spec)
        return W3CParser(name, default_fields=fields, default_offset_min=offset_min)
    if kind in ("trace_csv", "trace_jsonl") and (trace := trace_from_name(name)):
        return trace
    if name.startswith(SYSLOG_PREFIX):
        return SyslogParser(get_parser(name.removeprefix(SYSLOG_PREFIX)))
    parser = registry().get(name)
    if parser is None:
        known = ", ".join(sorted(registry()))
        raise LogInputError("unknown_format", f"unknown log format {name!r}; known: {known}")
    return parser


def known_format_names() -> list[str]:
    """The registered names a user may pick (besides ``auto`` and format strings)."""
    return sorted(registry())


def log_format_name(spec: str) -> str:
    """The parser name for a user's format string: nginx's `$variables` or Apache's
    `%directives` (a string with `$` and no `%` is nginx's)."""
    kind = "nginx" if "$" in spec and "%" not in spec else "apache"
    return f"{kind}:{spec}"
