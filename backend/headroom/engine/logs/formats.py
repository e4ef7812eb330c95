"""The registry of named formats: Common/Combined families and their variants.

Names: ``[vhost_]{common|combined}[_latency_{s|ms|us}]``; the latency variants read a
trailing response-time field in the given unit (nginx `$request_time` = s, Apache `%D` = us).
"""

from __future__ import annotations

from functools import cache

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


def get_parser(name: str) -> TemplateParser:
    parser = registry().get(name)
    if parser is None:
        known = ", ".join(sorted(registry()))
        raise LogInputError("unknown_format", f"unknown log format {name!r}; known: {known}")
    return parser
