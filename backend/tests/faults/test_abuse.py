"""Abuse from the outside: random bearer values on public routes spend the
address's budget; a read- or write-scope token cannot manage its owner's tokens,
checked for every token route and every scope."""

import uuid

import pytest
from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core.settings import Settings
from support.factories import api_token, member, signed_in

pytestmark = pytest.mark.faults
SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # in-process

PUBLIC = [
    ("POST", "/api/v1/auth/login", {}),  # 422: no credentials in the body
    ("GET", "/api/v1/public/reports/no-such-link", None),  # 404
]
LIMIT = 3


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@SQLITE
@pytest.mark.parametrize(("method", "path", "body"), PUBLIC)
def test_random_bearer_values_on_public_routes_spend_the_address_budget(
    settings: Settings, method: str, path: str, body: object
) -> None:
    app = create_app(settings.model_copy(update={"rate_limit_ip_per_min": LIMIT}))
    attacker = TestClient(app, client=("10.1.0.1", 40000))
    statuses = [
        attacker.request(method, path, json=body, headers=bearer(uuid.uuid4().hex)).status_code
        for _ in range(LIMIT + 2)
    ]
    assert 429 not in statuses[:LIMIT] and statuses[LIMIT:] == [429, 429], statuses


@SQLITE
def test_a_valid_token_on_public_routes_keeps_its_own_budget(settings: Settings) -> None:
    owner = member(settings, "public@example.com", "Public")
    token = api_token(settings, owner, ["read"])
    app = create_app(settings.model_copy(update={"rate_limit_ip_per_min": LIMIT}))
    client = TestClient(
        app, client=("10.1.0.2", 40000), headers={"Authorization": f"Bearer {token}"}
    )
    assert client.get("/api/v1/workspaces").status_code == 200  # accepted: remembered
    answers = [client.get(PUBLIC[1][1]).status_code for _ in range(LIMIT + 2)]
    assert answers == [404] * (LIMIT + 2)


@SQLITE
@pytest.mark.parametrize("scope", ["read", "write"])
def test_a_token_below_admin_scope_cannot_manage_tokens(settings: Settings, scope: str) -> None:
    owner = member(settings, f"{scope}-tokens@example.com", "Tokens")
    session = signed_in(settings, owner)
    tokens = f"/api/v1/workspaces/{owner.workspace_id}/tokens"
    admin_row = session.post(tokens, json={"name": "admin", "scopes": ["admin"]}).json()
    weak = session.post(tokens, json={"name": "weak", "scopes": [scope]}).json()
    client = TestClient(create_app(settings), headers=bearer(weak["token"]))
    assert client.get(f"/api/v1/workspaces/{owner.workspace_id}/members").status_code == 200
    for method, path, body in [
        ("GET", tokens, None),
        ("POST", tokens, {"name": "more", "scopes": ["read"]}),
        ("DELETE", f"{tokens}/{admin_row['id']}", None),
        ("DELETE", f"{tokens}/{weak['id']}", None),
    ]:
        answer = client.request(method, path, json=body)
        assert answer.status_code == 403, (method, path, answer.text)
    listed = session.get(tokens).json()
    assert all(row["revoked_at"] is None for row in listed)
    admin = TestClient(
        create_app(settings), headers={"Authorization": f"Bearer {admin_row['token']}"}
    )
    assert admin.get(tokens).status_code == 200
    assert admin.delete(f"{tokens}/{weak['id']}").status_code == 204
