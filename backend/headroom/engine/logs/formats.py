"""The registry of named formats: Common/Combined families and their variants.

Names: ``[vhost_]{common|combined}[_latency_{s|ms|us}]``; the latency variants read a
trailing response-time field in the given unit (nginx `$request_time` = s, Apache `%D` = us).
Any Apache LogFormat is named ``apache:<LogFormat>``, any nginx log_format ``nginx:<...>``.
"""

from __future__ import annotations

from functools import cache, lru_cache

from .apache import compile_log_format
from .nginx import compile_nginx_format
from .records import LogInputError
from .tabulate import TemplateParser
from .template import LATENCY_UNITS, Field, Parts, join

F = Field
COMMON: Parts = (F("client"), b" ", F("skip"), b" ", F("skip"), b" [", F("time"), b'] "')
COMMON += (F("request"), b'" ', F("status"), b" ", F("bytes"))
COMBINED = (*COMMON, b' "', F("referer"), b'" "', F("user_agent"), b'"')
VHOST = (F("server"), b":", F("skip"), b" ")


def clf_family() -> dict[str, TemplateParser]:
    out: dict[str, TemplateParser] = {}
    for vhost in (False, True):
        for base_name, base in (("common", COMMON), ("combined", COMBINED)):
            name = ("vhost_" if vhost else "") + base_name
            head = VHOST if vhost else ()
            out[name] = TemplateParser(name, join(head, base))
            for unit in LATENCY_UNITS:
                lat = f"{name}_latency_{unit}"
                out[lat] = TemplateParser(lat, join(head, base, (b" ", F("latency", unit))))
    return out


@cache
def registry() -> dict[str, TemplateParser]:
    return clf_family()


@lru_cache(maxsize=128)
def get_parser(name: str) -> TemplateParser:
    """A parser by name: a registered format, ``apache:<LogFormat>`` or ``nginx:<log_format>``."""
    kind, _, spec = name.partition(":")
    if kind == "apache" and spec:
        return compile_log_format(spec)
    if kind == "nginx" and spec:
        return compile_nginx_format(spec)
    parser = registry().get(name)
    if parser is None:
        known = ", ".join(sorted(registry()))
        raise LogInputError("unknown_format", f"unknown log format {name!r}; known: {known}")
    return parser
