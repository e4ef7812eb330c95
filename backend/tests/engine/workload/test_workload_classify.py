"""Classification rules: the spec's defaults by hand, first-match order, CIDR, JSON form."""

from __future__ import annotations

import ipaddress

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.workload.classify import (
    Rule,
    Rules,
    RuleSet,
    apply_rules,
    default_rules,
    default_user_rules,
)

from .conftest import MakeTable


def test_default_request_classes_by_hand(table: MakeTable) -> None:
    cases = {
        "/index.php": "dynamic",
        "/a/b.JSP": "dynamic",
        "/cgi/x.cgi": "dynamic",
        "/save.do": "dynamic",
        "/go.action": "dynamic",
        "/shop.aspx": "dynamic",
        "/api/users.json": "dynamic",  # /api/ prefix beats the static .json
        "/style.css": "static",
        "/img/logo.PNG": "static",
        "/doc/page.html": "static",
        "/fonts/x.woff2": "static",
        "/": "dynamic",
        "/blog/tags/puppet": "dynamic",
        "/search.css?q=1": "dynamic",
    }
    paths = [p.split("?")[0] for p in cases]
    queries = [p.split("?")[1] if "?" in p else None for p in cases]
    out = apply_rules(table(range(len(cases)), path=paths, query=queries))
    assert dict(zip(cases, out["cls_request"], strict=True)) == cases
    assert set(out["cls_user"]) == {"normal"}


def test_lazy_frames_work_too(table: MakeTable) -> None:
    out = apply_rules(table([0], path=["/a.js"]).lazy()).collect()
    assert out["cls_request"].to_list() == ["static"]


def test_user_rules_on_prefix_cidr_user_and_present_field(table: MakeTable) -> None:
    rules = Rules(
        request=default_rules().request,
        user=RuleSet(
            rules=[
                Rule(cls="admin", path_prefix=["/admin/"]),
                Rule(cls="office", clients=["192.168.0.0/16", "2001:db8::/32", "8.8.8.8"]),
                Rule(cls="member", users=["alice"]),
                Rule(cls="top", field_present=["cookie"]),
            ],
            default="normal",
        ),
    )
    df = table(
        range(7),
        path=["/admin/x", "/", "/", "/", "/", "/", "/"],
        client=["1.1.1.1", "192.168.4.5", "2001:db8::1", "8.8.8.8", "8.8.8.9", "9.9.9.9", "::1"],
    ).with_columns(
        user=pl.Series([None, None, None, None, "alice", None, None], dtype=pl.String),
        cookie=pl.Series([None, None, None, None, None, "sid=1", ""], dtype=pl.String),
    )
    got = apply_rules(df, rules)["cls_user"].to_list()
    assert got == ["admin", "office", "office", "office", "member", "top", "normal"]


def test_missing_columns_never_match(table: MakeTable) -> None:
    rule = Rule(cls="x", users=["alice"])
    rules = Rules(request=default_rules().request, user=RuleSet(rules=[rule], default="n"))
    assert apply_rules(table([0]), rules)["cls_user"].to_list() == ["n"]


def test_json_round_trip() -> None:
    rules = default_rules()
    assert Rules.model_validate_json(rules.model_dump_json()) == rules
    assert Rule(cls="s", extensions=["PNG"]).extensions == [".png"]


def ip_strategy() -> st.SearchStrategy[str]:
    return st.integers(0, 2**32 - 1).map(lambda i: str(ipaddress.IPv4Address(i)))


@settings(max_examples=40, deadline=None)
@given(
    clients=st.lists(ip_strategy(), min_size=1, max_size=30),
    nets=st.lists(
        st.tuples(ip_strategy(), st.integers(0, 32)).map(
            lambda t: str(ipaddress.ip_network(f"{t[0]}/{t[1]}", strict=False))
        ),
        min_size=1,
        max_size=4,
    ),
    prefixes=st.lists(st.sampled_from(["/a", "/b", "/a/b", "/"]), min_size=1, max_size=4),
)
def test_first_match_against_a_python_reference(
    clients: list[str], nets: list[str], prefixes: list[str]
) -> None:
    """Each row gets the class of the first rule a plain-Python reference says matches."""
    rules = [Rule(cls=f"p{i}", path_prefix=[p]) for i, p in enumerate(prefixes)]
    rules.insert(len(rules) // 2, Rule(cls="net", clients=nets))
    paths = [["/a/b", "/b", "/c", "/a"][i % 4] for i in range(len(clients))]
    from .conftest import make_table

    df = make_table(range(len(clients)), client=clients, path=paths)
    got = apply_rules(
        df, Rules(request=default_rules().request, user=RuleSet(rules=rules, default="d"))
    )

    def reference(client: str, path: str) -> str:
        for r in rules:
            if r.clients and any(
                ipaddress.ip_address(client) in ipaddress.ip_network(n) for n in r.clients
            ):
                return r.cls
            if r.path_prefix and any(path.startswith(p) for p in r.path_prefix):
                return r.cls
        return "d"

    assert got["cls_user"].to_list() == [
        reference(c, p) for c, p in zip(clients, paths, strict=True)
    ]


def test_default_user_rules_is_normal() -> None:
    assert default_user_rules().default == "normal"


def test_real_log_classes(elastic: pl.DataFrame) -> None:
    out = apply_rules(elastic)
    counts = dict(out["cls_request"].value_counts().iter_rows())
    assert sum(counts.values()) == elastic.height
    # independent count: a query string, or no extension from the static list, is dynamic
    from headroom.engine.workload.classify import STATIC_EXTENSIONS

    def ref(path: str, query: str | None) -> str:
        if query or path.lower().endswith(
            (".php", ".jsp", ".asp", ".aspx", ".cgi", ".do", ".action")
        ):
            return "dynamic"
        if path.startswith("/api/"):
            return "dynamic"
        dot = path.rfind(".")
        ext = path[dot:].lower() if dot > path.rfind("/") else ""
        return "static" if ext in STATIC_EXTENSIONS else "dynamic"

    expected = [ref(p, q) for p, q in zip(elastic["path"], elastic["query"], strict=True)]
    assert out["cls_request"].to_list() == expected
