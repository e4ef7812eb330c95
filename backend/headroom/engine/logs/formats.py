"""The registry of named formats: Common/Combined families and their variants.

Names: ``[vhost_]{common|combined}[_latency_{s|ms|us}]``; the latency variants read a
trailing response-time field in the given unit (nginx `$request_time` = s, Apache `%D` = us).
"""

from __future__ import annotations

from functools import cache

from .records import LogInputError
from .template import Field, TemplateParser

F = Field
Parts = tuple[bytes | Field, ...]
COMMON: Parts = (
    F("client"),
    b" ",
    F("skip"),
    b" ",
    F("skip"),
    b" [",
    F("time"),
    b'] "',
    F("request"),
)
COMMON += (b'" ', F("status"), b" ", F("bytes"))
COMBINED = (*COMMON, b' "', F("referer"), b'" "', F("user_agent"), b'"')
VHOST = (F("server"), b":", F("skip"), b" ")
LATENCY_UNITS = ("s", "ms", "us")


def _join(*groups: tuple[bytes | Field, ...]) -> tuple[bytes | Field, ...]:
    """Concatenate parts, merging literals that end up adjacent."""
    out: list[bytes | Field] = []
    for part in (p for g in groups for p in g):
        if isinstance(part, bytes) and out and isinstance(out[-1], bytes):
            out[-1] += part
        else:
            out.append(part)
    return tuple(out)


def clf_family() -> dict[str, TemplateParser]:
    out: dict[str, TemplateParser] = {}
    for vhost in (False, True):
        for base_name, base in (("common", COMMON), ("combined", COMBINED)):
            name = ("vhost_" if vhost else "") + base_name
            head = VHOST if vhost else ()
            out[name] = TemplateParser(name, _join(head, base))
            for unit in LATENCY_UNITS:
                lat = f"{name}_latency_{unit}"
                parts = _join(head, base, (b" ", F("latency")))
                out[lat] = TemplateParser(lat, parts, latency_unit=unit)
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
