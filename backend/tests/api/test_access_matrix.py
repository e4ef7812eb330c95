"""The access matrix: every operation of the OpenAPI schema, called by every kind of
caller (none, viewer, editor, owner, another workspace's owner, a revoked token, an
expired token, the owner's read, write and admin tokens, and visitors holding a revoked,
an expired or an unknown share link),
answers as its rule in access_rules.py says. Public operations answer an exact status."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from itertools import count
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from api.access_rules import RULES, Rule
from fastapi.testclient import TestClient
from sqlalchemy import update

from headroom.api.app import create_app
from headroom.auth.models import ApiToken
from headroom.core.db import session_scope
from headroom.core.migrations import alembic_config
from headroom.core.security import new_token, token_digest
from headroom.core.settings import Settings
from headroom.engine.capacity import synth
from headroom.jobs.runner import ingest_body, run_job
from headroom.reports.models import ShareLink
from headroom.workspaces.models import Role
from support.factories import Member, api_token, member, signed_in

LOGOUT = "/api/v1/auth/logout"
LINK_CALLERS = ("revoked_link", "expired_link", "unknown_link")  # anonymous, a dead link
ANONYMOUS = ("none", "revoked", "expired", *LINK_CALLERS)
TOKEN_CALLERS = ("read_token", "write_token", "admin_token")  # the owner's, one scope each
# the owner last: it signs out at the end of its run, and the others' objects are its
CALLERS = (
    *("none", "revoked", "expired", *LINK_CALLERS, *TOKEN_CALLERS),
    *("other", "viewer", "editor", "owner"),
)
RANK = {"viewer": 0, "editor": 1, "owner": 2}
SCOPE_RANK = {"read": 0, "write": 1, "admin": 2, "session": 3}
SCOPE_OF_ROLE = {"signed_in": "read", "viewer": "read", "editor": "write", "owner": "admin"}
_serial = count()


def small_log() -> bytes:
    rates_per_s = [float(x) for x in np.linspace(5.0, 40.0, 8)]
    table = synth.queue_log(rates_per_s, 15.0, 25.0, 2, np.random.default_rng(3))
    return synth.combined_log(table, user_agent="matrix/1.0")


@dataclass
class World:
    settings: Settings
    clients: dict[str, TestClient]
    members: dict[str, Member]
    ids: dict[str, Any]
    dead_links: dict[str, str] = field(default_factory=dict)  # caller -> its share token

    def post(self, path: str, **kwargs: Any) -> dict[str, Any]:
        response = self.clients["owner"].post(path, **kwargs)
        assert response.status_code in (200, 201, 202), f"{path}: {response.text}"
        body: dict[str, Any] = response.json()
        return body


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("matrix")
    settings = Settings(
        data_dir=tmp,
        database_url=f"sqlite:///{tmp / 'matrix.db'}",
        static_dir=Path(tmp / "no-ui"),
        rate_limit_ip_per_min=0,
        rate_limit_token_per_min=0,
    )
    from alembic import command

    command.upgrade(alembic_config(settings), "head")
    members = {
        "owner": member(settings, "owner@a.example", "A"),
        "editor": member(settings, "editor@a.example", "A", Role.editor),
        "viewer": member(settings, "viewer@a.example", "A", Role.viewer),
        "other": member(settings, "owner@b.example", "B"),
    }
    clients = {name: signed_in(settings, who) for name, who in members.items()}
    clients["none"] = TestClient(create_app(settings))
    clients.update({name: TestClient(create_app(settings)) for name in LINK_CALLERS})
    for name, past in (("revoked", "revoked_at"), ("expired", "expires_at")):
        secret = api_token(settings, members["owner"], ["admin"])
        with session_scope(settings.resolved_database_url()) as session:
            moment = datetime.now(UTC) - timedelta(seconds=1)
            session.execute(
                update(ApiToken)
                .where(ApiToken.token_hash == token_digest(secret))
                .values({past: moment})
            )
        clients[name] = TestClient(
            create_app(settings), headers={"Authorization": f"Bearer {secret}"}
        )
    for name in TOKEN_CALLERS:
        secret = api_token(settings, members["owner"], [name.removesuffix("_token")])
        clients[name] = TestClient(
            create_app(settings), headers={"Authorization": f"Bearer {secret}"}
        )
    built = World(settings, clients, members, {"workspace_id": members["owner"].workspace_id})
    build_objects(built)
    yield built


def build_objects(world: World) -> None:
    ids = world.ids
    dataset = world.post(
        "/api/v1/datasets",
        params={"name": "matrix.log"},
        content=small_log(),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert run_job(world.settings, dataset["job"]["id"], ingest_body)
    ids.update(dataset_id=dataset["id"], job_id=dataset["job"]["id"])
    ids["analysis_id"] = world.post(f"/api/v1/datasets/{dataset['id']}/analyses", json={})["id"]
    characterization = world.post(f"/api/v1/datasets/{dataset['id']}/characterizations", json={})
    ids["characterization_id"] = characterization["id"]
    preset = world.clients["owner"].get("/api/v1/simulations/presets").json()[0]
    ids["scenario"] = preset["scenario"]
    simulation = world.post("/api/v1/simulations", json={"name": "s", "scenario": ids["scenario"]})
    ids["simulation_id"] = simulation["id"]
    ids["export_kind"] = "hpa"
    for key in FRESH:
        ids[key] = FRESH[key](world, world.clients["owner"])
    ids["invitation_token"] = invitation(world, world.clients["owner"], token=True)
    ids["share_token"] = world.post(f"/api/v1/reports/{ids['report_id']}/links", json={})["token"]
    world.dead_links = dead_links(world)


def dead_links(world: World) -> dict[str, str]:
    """A revoked link, a link whose expiry has passed, and a token no link ever had."""
    links = f"/api/v1/reports/{world.ids['report_id']}/links"
    revoked = world.post(links, json={})
    gone = world.clients["owner"].delete(f"{links}/{revoked['id']}")
    assert gone.status_code in (200, 204), gone.text
    expired = world.post(links, json={"expires_at": "2999-01-01T00:00:00Z"})["token"]
    with session_scope(world.settings.resolved_database_url()) as session:
        session.execute(
            update(ShareLink)
            .where(ShareLink.token_sha256 == token_digest(expired))
            .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
        )
    return {
        "revoked_link": revoked["token"],
        "expired_link": expired,
        "unknown_link": new_token(),
    }


def invitation(world: World, client: TestClient, token: bool = False) -> Any:
    ws = world.ids["workspace_id"]
    email = f"invitee{next(_serial)}@example.com"
    created = client.post(f"/api/v1/workspaces/{ws}/invitations", json={"email": email})
    body = created.json()
    return body["url"].rsplit("/", 1)[1] if token else body.get("id")


def _json(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, json=body).json().get("id")


def _new_member(world: World, _: TestClient) -> int:
    return member(world.settings, f"m{next(_serial)}@a.example", "A", Role.viewer).user_id


def _new_dataset(world: World, client: TestClient) -> Any:
    response = client.post(
        "/api/v1/datasets",
        params={"name": f"d{next(_serial)}.log"},
        content=small_log()[: 4000 + next(_serial)],
        headers={"Content-Type": "application/octet-stream"},
    )
    return response.json().get("id")


FRESH: dict[str, Callable[[World, TestClient], Any]] = {
    "upload_id": lambda w, c: _json(c, "/api/v1/uploads", {"name": "u.log", "size_bytes": 10}),
    "invitation_id": invitation,
    "token_id": lambda w, c: _json(
        c, f"/api/v1/workspaces/{w.ids['workspace_id']}/tokens", {"name": "t", "scopes": ["read"]}
    ),
    "user_id": _new_member,
    "dataset_id": _new_dataset,
    "scenario_id": lambda w, c: _json(
        c,
        "/api/v1/simulations/scenarios",
        {"name": f"sc{next(_serial)}", "scenario": w.ids["scenario"]},
    ),
    "report_id": lambda w, c: _json(c, "/api/v1/reports", {"title": "R"}),
    "report_item_id": lambda w, c: _json(
        c,
        f"/api/v1/reports/{w.ids['report_id']}/items",
        {"kind": "capacity", "source_id": w.ids["analysis_id"]},
    ),
    "link_id": lambda w, c: _json(c, f"/api/v1/reports/{w.ids['report_id']}/links", {}),
    # nothing listens on port 9 (discard): a connection test is refused at once
    "source_id": lambda w, c: _json(
        c,
        "/api/v1/sources/prometheus",
        {"name": "p", "base_url": "http://127.0.0.1:9", "requests_selector": "up"},
    ),
    "alert_rule_id": lambda w, c: _json(
        c,
        f"/api/v1/datasets/{w.ids['dataset_id']}/alert-rules",
        {"name": "r", "kind": "error_rate_above", "threshold": 0.5},
    ),
    "alert_channel_id": lambda w, c: _json(
        c,
        f"/api/v1/workspaces/{w.ids['workspace_id']}/alert-channels",
        {"name": "c", "kind": "email", "target": "a@b.example"},
    ),
}


@cache
def operations() -> list[tuple[str, str]]:
    schema = create_app(Settings()).openapi()
    found = [(m.upper(), p) for p, ops in schema["paths"].items() for m in ops]
    # deletes after the rest, and signing out last of all
    return sorted(found, key=lambda op: (op[1] == LOGOUT, op[0] == "DELETE", op[1], op[0]))


def test_every_operation_has_a_rule() -> None:
    missing = [f"{m} {p}" for m, p in operations() if (m, p) not in RULES]
    assert not missing, (
        "these operations have no access rule: add one to backend/tests/api/access_rules.py "
        "(the lowest role that may call it, and whether the path names a workspace's object): "
        + ", ".join(missing)
    )


def expected(rule: Rule, caller: str) -> int | str:
    """A status; "allowed": past authentication and authorization; "hidden": 404, or 422
    for a malformed request."""
    if rule.role == "public":
        return public_status(rule, caller)
    if caller in TOKEN_CALLERS:
        return token_status(rule, caller)
    if caller in ANONYMOUS:
        return 401
    if rule.role == "signed_in" or (caller == "other" and not rule.scoped):
        return "allowed"
    if caller == "other":
        return "hidden"
    return "allowed" if RANK[caller] >= RANK[rule.role] else rule.denied


def token_status(rule: Rule, caller: str) -> int | str:
    """The owner acting through a token: as far as its scope reaches, then 403."""
    needed = rule.scope or SCOPE_OF_ROLE[rule.role]
    held = caller.removesuffix("_token")
    return "allowed" if SCOPE_RANK[held] >= SCOPE_RANK[needed] else 403


def public_status(rule: Rule, caller: str) -> int:
    assert rule.status is not None, "a public operation's rule needs its exact status"
    if caller in LINK_CALLERS and "share_token" in rule.params.values():
        return 404  # revoked, expired and unknown links alike
    if caller not in ANONYMOUS and rule.member_status is not None:
        return rule.member_status
    return rule.status


def call(world: World, method: str, path: str, rule: Rule, caller: str) -> Any:
    client = world.clients[caller]
    values = dict(world.ids)
    if caller in world.dead_links:
        values["share_token"] = world.dead_links[caller]
    if rule.fresh or method == "DELETE":
        # the owner's tokens act on the owner's objects (a token cannot mint tokens)
        own = caller not in ("other", *TOKEN_CALLERS)
        maker = client if expected(rule, caller) == "allowed" and own else None
        name = _params(path)[-1]  # the object acted on; its parents stay the world's
        key = rule.params.get(name, name)
        if key in FRESH:
            values[key] = FRESH[key](world, maker or world.clients["owner"])
    url = path.format(**{name: values[rule.params.get(name, name)] for name in _params(path)})
    query = {k: v[1:] if v.startswith("=") else values[v] for k, v in rule.query.items()}
    if method in ("GET", "DELETE"):
        return client.request(method, url, params=query)
    return client.request(method, url, params=query, json={})


def _params(path: str) -> list[str]:
    return [part[1:-1] for part in path.split("/") if part.startswith("{")]


@pytest.mark.parametrize("caller", CALLERS)
def test_each_caller_gets_what_the_rules_say(world: World, caller: str) -> None:
    wrong = []
    for method, path in operations():
        rule = RULES.get((method, path))
        if rule is None:
            continue  # reported by test_every_operation_has_a_rule
        response = call(world, method, path, rule, caller)
        want = expected(rule, caller)
        got = response.status_code
        body = response.json() if _is_json(response) else None
        code = (body.get("error") or {}).get("code") if isinstance(body, dict) else None
        if want == "hidden":  # 422 names only the request's own fields, never the object
            ok = got in (404, 422)
        elif want == "allowed":
            unseen = got == 404 and code == "not_found" and not rule.missing_ok
            ok = got < 500 and got not in (401, 403) and not unseen
        else:
            ok = got == want
        if not ok:
            wrong.append(f"{method} {path}: {got} {code}, expected {want}")
    assert not wrong, f"{caller}:\n" + "\n".join(wrong)


def _is_json(response: Any) -> bool:
    content_type = str(response.headers.get("content-type", ""))
    return bool(response.content) and content_type.startswith("application/json")


def test_public_operations_have_exact_statuses() -> None:
    public = [(op, rule) for op, rule in RULES.items() if rule.role == "public"]
    loose = [f"{m} {p}" for (m, p), rule in public if rule.status is None]
    assert not loose, "give these public operations their exact status: " + ", ".join(loose)


@pytest.mark.parametrize("suffix", ["", "/export"])
def test_dead_share_links_are_alike(world: World, suffix: str) -> None:
    """A revoked, an expired and an unknown link get the same 404, so a visitor cannot
    tell a link that once worked from one that never did."""
    answers = [
        world.clients["none"].get(f"/api/v1/public/reports/{token}{suffix}")
        for token in world.dead_links.values()
    ]
    assert [a.status_code for a in answers] == [404, 404, 404]
    assert answers[0].json()["error"]["code"] == "not_found"
    bodies = [{k: v for k, v in a.json()["error"].items() if k != "request_id"} for a in answers]
    assert bodies[0] == bodies[1] == bodies[2]  # each answer has its own request id
    live = world.clients["none"].get(f"/api/v1/public/reports/{world.ids['share_token']}{suffix}")
    assert live.status_code == 200
