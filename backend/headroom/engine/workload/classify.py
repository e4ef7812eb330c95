"""Applying classification rules (the documents are in :mod:`.rules`):
:func:`apply_rules` fills ``cls_request`` and ``cls_user`` with one polars ``when/then``
chain per column (no per-row Python)."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import TypeVar

import numpy as np
import polars as pl

from .rules import (
    DEFAULT_USER_CLASS,
    DYNAMIC_EXTENSIONS,
    STATIC_EXTENSIONS,
    Rule,
    Rules,
    RuleSet,
    default_request_rules,
    default_rules,
    default_user_rules,
    rules_schema,
)

__all__ = [
    "DEFAULT_USER_CLASS",
    "DYNAMIC_EXTENSIONS",
    "STATIC_EXTENSIONS",
    "Rule",
    "RuleSet",
    "Rules",
    "Slots",
    "apply_rules",
    "class_codes",
    "client_in",
    "default_request_rules",
    "default_rules",
    "default_user_rules",
    "extension",
    "has_query",
    "per_distinct",
    "rules_schema",
    "ruleset_expr",
    "with_extension",
]
F = TypeVar("F", pl.DataFrame, pl.LazyFrame)
# a column's distinct values and each row's index among them (see distinct_slots)
Slots = tuple[pl.Series, np.ndarray]


# the path's extension, made once for every rule that reads it (see with_extension)
EXTENSION = "__extension"


def apply_rules(table: F, rules: Rules | None = None, path_slots: Slots | None = None) -> F:
    """The table with ``cls_request`` and ``cls_user`` filled by the rules (first match);
    ``path_slots``: the table's :func:`distinct_slots` of ``path``, if already made."""
    rules = rules or default_rules()
    if isinstance(table, pl.DataFrame) and _path_table(table) and _reads_path_only(rules.request):
        slots = path_slots or distinct_slots(table["path"])
        return table.with_columns(
            _classes_by_path(table, slots, rules.request).alias("cls_request"),
            ruleset_expr(rules.user, set(table.columns)).alias("cls_user"),
        )
    extended = with_extension(table, rules.request, rules.user)
    columns = set(extended.collect_schema().names())
    return extended.with_columns(
        ruleset_expr(rules.request, columns).alias("cls_request"),
        ruleset_expr(rules.user, columns).alias("cls_user"),
    ).drop(EXTENSION, strict=False)


def _path_table(table: pl.DataFrame) -> bool:
    """A table with a string path and a query."""
    return "query" in table.columns and table.schema.get("path") == pl.String


def _reads_path_only(ruleset: RuleSet) -> bool:
    """Whether the rules read nothing but the path and whether there is a query."""
    other = ("methods", "clients", "users", "field_present")
    return bool(ruleset.rules) and all(
        getattr(rule, name) is None for rule in ruleset.rules for name in other
    )


def _classes_by_path(df: pl.DataFrame, path_slots: Slots, ruleset: RuleSet) -> pl.Series:
    """The class of every row of rules that read only the path and the query's presence
    (:func:`_reads_path_only`), found once per distinct path and presence: each row then
    looks its class up by its path's categorical code, where the rules' string functions
    would run on every row."""
    distinct, row_slots = path_slots
    candidates = pl.DataFrame(
        {
            "path": pl.concat([distinct, distinct]),
            # a stand-in query: the rules read only whether there is one
            "query": [""] * len(distinct) + ["?"] * len(distinct),
        }
    )
    classes = candidates.select(ruleset_expr(ruleset, set(candidates.columns))).to_series()
    with_query = df.select(has_query()).to_series().to_numpy()
    return classes.gather(row_slots + len(distinct) * with_query)


def with_extension(table: F, *rulesets: RuleSet) -> F:
    """The table with the path's extension (:func:`extension`) as a column of its own
    when some rule reads it: the rules then read it once instead of each lower-casing
    and matching every path. A frame's extensions are made once per distinct path."""
    if not any(rule.extensions is not None for ruleset in rulesets for rule in ruleset.rules):
        return table
    if isinstance(table, pl.DataFrame):
        return table.with_columns(per_distinct(table, "path", extension()).alias(EXTENSION))
    return table.with_columns(extension().alias(EXTENSION))


def per_distinct(df: pl.DataFrame, column: str, value: pl.Expr) -> pl.Series:
    """``value`` (an expression of the string ``column`` alone) of every row, computed
    once per distinct value: a log repeats its paths and Referers, and a lookup by
    categorical code costs a fraction of string functions on every row."""
    distinct, row_slots = distinct_slots(df[column])
    values = pl.DataFrame({column: distinct}).select(value.alias("_value")).to_series()
    return values.gather(row_slots)


def distinct_slots(column: pl.Series) -> tuple[pl.Series, np.ndarray]:
    """The column's distinct values (null included) and each row's index among them, by
    the rows' categorical codes (a hash a row, no join)."""
    coded = column.cast(pl.Categorical(pl.Categories.random()))
    distinct = coded.unique()
    codes = distinct.to_physical()
    null_code = int(codes.drop_nulls().cast(pl.Int64).to_numpy().max(initial=-1)) + 1
    slot_of_code = np.zeros(null_code + 1, dtype=np.int64)
    slot_of_code[codes.fill_null(null_code).to_numpy()] = np.arange(len(distinct))
    row_slots = slot_of_code[coded.to_physical().fill_null(null_code).to_numpy()]
    return distinct.cast(pl.String), row_slots


def ruleset_expr(
    ruleset: RuleSet, columns: set[str], codes: Mapping[str, int] | None = None
) -> pl.Expr:
    """One ``when/then`` chain: the first rule whose condition holds gives the class (with
    ``codes``, the class's integer code instead of its name)."""

    def value(cls: str) -> pl.Expr:
        return pl.lit(cls, pl.String) if codes is None else pl.lit(codes[cls], pl.Int64)

    out = value(ruleset.default)
    for rule in reversed(ruleset.rules):
        out = pl.when(rule_condition(rule, columns)).then(value(rule.cls)).otherwise(out)
    return out


def class_codes(ruleset: RuleSet, columns: set[str]) -> tuple[pl.Expr, list[str]]:
    """The rule set's class of each row as its rank among the class names, sorted (an
    integer instead of a string), and those names."""
    names = sorted({rule.cls for rule in ruleset.rules} | {ruleset.default})
    codes = {name: code for code, name in enumerate(names)}
    return ruleset_expr(ruleset, columns, codes), names


def rule_condition(rule: Rule, columns: set[str]) -> pl.Expr:
    parts: list[pl.Expr] = []
    if rule.path_prefix is not None:
        parts.append(_any(pl.col("path").str.starts_with(p) for p in rule.path_prefix))
    if rule.extensions is not None:
        made = pl.col(EXTENSION) if EXTENSION in columns else extension()
        parts.append(made.is_in(rule.extensions))
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
