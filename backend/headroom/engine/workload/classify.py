"""Request-class and user-class rules (workload.md, "Classification"), as data.

A rule assigns ``cls`` when all of its given conditions hold (each condition is a list;
any of its items matches). Rules are tried in order, the first match wins, and rows no
rule matches get the rule set's ``default``. :func:`apply_rules` fills ``cls_request``
and ``cls_user`` with one polars ``when/then`` chain per column (no per-row Python).

JSON form: ``RuleSet.model_dump(mode="json")`` / ``RuleSet.model_validate(obj)``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Annotated, Any, TypeVar

import polars as pl
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
F = TypeVar("F", pl.DataFrame, pl.LazyFrame)


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


def apply_rules(table: F, rules: Rules | None = None) -> F:
    """The table with ``cls_request`` and ``cls_user`` filled by the rules (first match)."""
    rules = rules or default_rules()
    columns = set(table.collect_schema().names())
    return table.with_columns(
        ruleset_expr(rules.request, columns).alias("cls_request"),
        ruleset_expr(rules.user, columns).alias("cls_user"),
    )


def ruleset_expr(ruleset: RuleSet, columns: set[str]) -> pl.Expr:
    """One ``when/then`` chain: the first rule whose condition holds gives the class."""
    out = pl.lit(ruleset.default, pl.String)
    for rule in reversed(ruleset.rules):
        out = pl.when(rule_condition(rule, columns)).then(pl.lit(rule.cls)).otherwise(out)
    return out


def rule_condition(rule: Rule, columns: set[str]) -> pl.Expr:
    parts: list[pl.Expr] = []
    if rule.path_prefix is not None:
        parts.append(_any(pl.col("path").str.starts_with(p) for p in rule.path_prefix))
    if rule.extensions is not None:
        parts.append(extension().is_in(rule.extensions))
    if rule.has_query is not None:
        parts.append(has_query() == rule.has_query)
    if rule.methods is not None:
        parts.append(pl.col("method").str.to_uppercase().is_in([m.upper() for m in rule.methods]))
    if rule.clients is not None:
        parts.append(client_in(rule.clients))
    if rule.users is not None:
        parts.append(pl.col("user").is_in(rule.users) if "user" in columns else pl.lit(False))
    if rule.field_present is not None:
        parts.append(_any(_present(name, columns) for name in rule.field_present))
    cond = pl.lit(True)
    for part in parts:
        cond = cond & part.fill_null(False)
    return cond


def extension() -> pl.Expr:
    """The path's lower-case extension with its dot (``.png``), null when it has none."""
    return pl.col("path").str.to_lowercase().str.extract(r"(\.[a-z0-9]+)$", 1)


def has_query() -> pl.Expr:
    return pl.col("query").fill_null("").str.len_bytes() > 0


def _present(name: str, columns: set[str]) -> pl.Expr:
    if name not in columns:
        return pl.lit(False)
    col = pl.col(name)
    return col.is_not_null() & (col.cast(pl.String).fill_null("") != "")


def _any(exprs: Iterable[pl.Expr]) -> pl.Expr:
    out = pl.lit(False)
    for e in exprs:
        out = out | e
    return out


def ipv4_int() -> pl.Expr:
    """The client's IPv4 address as an integer (null for anything else)."""
    octets = pl.col("client").str.extract_groups(r"^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$")
    value = pl.lit(0, pl.Int64)
    for i in range(4):
        value = value * 256 + octets.struct.field(str(i + 1)).cast(pl.Int64, strict=False)
    return value


def client_in(networks: list[str]) -> pl.Expr:
    """Client inside any of the networks: IPv4 by integer ranges; IPv6 exact or by range
    on the distinct addresses (the number of distinct clients, not of requests)."""
    nets = [ipaddress.ip_network(n, strict=False) for n in networks]
    v4 = [n for n in nets if n.version == 4]
    v6 = [n for n in nets if n.version == 6]
    addr = ipv4_int()
    cond = _any(
        addr.is_between(int(n.network_address), int(n.broadcast_address)) for n in v4
    ).fill_null(False)
    if v6:
        cond = cond | pl.col("client").map_batches(lambda s: _in_v6(s, v6), return_dtype=pl.Boolean)
    return cond


def _in_v6(clients: pl.Series, nets: list[ipaddress.IPv6Network]) -> pl.Series:
    uniq = clients.drop_nulls().unique()
    hits = [c for c in uniq.to_list() if _v6_member(c, nets)]
    return clients.is_in(hits).fill_null(False)


def _v6_member(text: str, nets: list[ipaddress.IPv6Network]) -> bool:
    try:
        addr = ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return False
    return addr.version == 6 and any(addr in n for n in nets)


def rules_schema() -> dict[str, Any]:
    """The published JSON Schema of a dataset's rules document."""
    return Rules.model_json_schema()
