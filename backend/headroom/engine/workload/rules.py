"""Request-class and user-class rules as data (docs/methods/workload.md, "Classification"): the
pydantic documents, the defaults and the published JSON Schema. Light to import (no
polars): the API validates and stores rules; :mod:`.classify` applies them.

A rule assigns ``cls`` when all of its given conditions hold (each condition is a list;
any of its items matches). Rules are tried in order, the first match wins, and rows no
rule matches get the rule set's ``default``.

JSON form: ``Rules.model_dump(mode="json")`` / ``Rules.model_validate(obj)``.
"""

from __future__ import annotations

import ipaddress
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

DYNAMIC_EXTENSIONS = (".php", ".jsp", ".asp", ".aspx", ".cgi", ".do", ".action")
STATIC_EXTENSIONS = (
    *(".html", ".htm", ".xhtml", ".shtml", ".txt", ".css", ".js", ".mjs", ".map", ".json"),
    *(".png", ".jpg", ".jpeg", ".gif", ".ico", ".svg", ".webp", ".avif", ".bmp", ".tif"),
    *(".woff", ".woff2", ".ttf", ".otf", ".eot", ".swf", ".flv"),
    *(".mp3", ".mp4", ".webm", ".ogg", ".wav", ".avi", ".mov"),
    *(".pdf", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".tar", ".rar", ".7z", ".dmg", ".exe"),
    *(".deb", ".rpm", ".iso", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx"),
)
DEFAULT_USER_CLASS = "normal"


class Rule(BaseModel):
    """``cls`` when every given condition holds; an empty rule matches every row."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    cls: Annotated[str, Field(min_length=1)]
    path_prefix: list[str] | None = None
    extensions: list[str] | None = None
    has_query: bool | None = None
    methods: list[str] | None = None
    clients: list[str] | None = None
    users: list[str] | None = None
    field_present: list[str] | None = None

    @field_validator("extensions")
    @classmethod
    def _dotted_lower(cls, value: list[str] | None) -> list[str] | None:
        return None if value is None else [("." + e.lstrip(".")).lower() for e in value]

    @field_validator("clients")
    @classmethod
    def _valid_networks(cls, value: list[str] | None) -> list[str] | None:
        for net in value or []:
            try:
                ipaddress.ip_network(net, strict=False)
            except ValueError:
                raise ValueError(f"clients: {net!r} is not an address or CIDR") from None
        return value


class RuleSet(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    rules: list[Rule] = []
    default: Annotated[str, Field(min_length=1)]


class Rules(BaseModel):
    """Both rule sets, as stored with a dataset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    request: RuleSet
    user: RuleSet


def default_request_rules() -> RuleSet:
    return RuleSet(
        rules=[
            Rule(cls="dynamic", has_query=True),
            Rule(cls="dynamic", extensions=list(DYNAMIC_EXTENSIONS)),
            Rule(cls="dynamic", path_prefix=["/api/"]),
            Rule(cls="static", extensions=list(STATIC_EXTENSIONS)),
        ],
        default="dynamic",
    )


def default_user_rules() -> RuleSet:
    return RuleSet(rules=[], default=DEFAULT_USER_CLASS)


def default_rules() -> Rules:
    return Rules(request=default_request_rules(), user=default_user_rules())


def rules_schema() -> dict[str, Any]:
    """The published JSON Schema of a dataset's rules document."""
    return Rules.model_json_schema()
