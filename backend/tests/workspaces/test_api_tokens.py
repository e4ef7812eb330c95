"""API tokens from the UI: shown once, listed by prefix, capped by the creator's role,
revocable (a revoked token is refused at once)."""

from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core.settings import Settings
from headroom.workspaces.models import Role
from support.factories import member, signed_in


def test_create_list_use_and_revoke(settings: Settings) -> None:
    editor = member(settings, "tess@example.com", "Shop", Role.editor)
    client = signed_in(settings, editor)
    base = f"/api/v1/workspaces/{editor.workspace_id}/tokens"
    created = client.post(base, json={"name": "CI", "scopes": ["write"], "expires_days": 30})
    assert created.status_code == 201, created.text
    secret = created.json()["token"]
    assert secret.startswith("hr_") and created.json()["prefix"] == secret[:10]
    listed = client.get(base).json()
    assert [t["name"] for t in listed] == ["CI"] and "token" not in listed[0]
    assert listed[0]["last_used_at"] is None
    bearer = TestClient(create_app(settings), headers={"Authorization": f"Bearer {secret}"})
    assert bearer.get("/api/v1/datasets").status_code == 200
    assert client.get(base).json()[0]["last_used_at"] is not None
    assert client.delete(f"{base}/{listed[0]['id']}").status_code == 204
    assert bearer.get("/api/v1/datasets").status_code == 401
    assert client.get(base).json()[0]["revoked_at"] is not None


def test_scopes_never_exceed_the_role(settings: Settings) -> None:
    viewer = member(settings, "val@example.com", "Shop", Role.viewer)
    client = signed_in(settings, viewer)
    base = f"/api/v1/workspaces/{viewer.workspace_id}/tokens"
    refused = client.post(base, json={"name": "x", "scopes": ["read", "write"]})
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "scopes"
    assert client.post(base, json={"name": "x", "scopes": ["read"]}).status_code == 201


def test_tokens_are_private_to_their_user_except_for_owners(settings: Settings) -> None:
    owner = member(settings, "ted@example.com", "Shop")
    editor = member(settings, "tia@example.com", "Shop", Role.editor)
    base = f"/api/v1/workspaces/{owner.workspace_id}/tokens"
    as_editor, as_owner = signed_in(settings, editor), signed_in(settings, owner)
    mine = as_editor.post(base, json={"name": "tia", "scopes": ["read"]}).json()
    as_owner.post(base, json={"name": "ted", "scopes": ["admin"]})
    assert [t["name"] for t in as_editor.get(base).json()] == ["tia"]
    assert sorted(t["name"] for t in as_owner.get(base).json()) == ["ted", "tia"]
    theirs = next(t for t in as_owner.get(base).json() if t["name"] == "ted")
    assert as_editor.delete(f"{base}/{theirs['id']}").status_code == 404
    assert as_owner.delete(f"{base}/{mine['id']}").status_code == 204


def test_a_token_cannot_mint_tokens(settings: Settings) -> None:
    owner = member(settings, "tom@example.com", "Shop")
    base = f"/api/v1/workspaces/{owner.workspace_id}/tokens"
    secret = signed_in(settings, owner).post(base, json={"name": "a", "scopes": ["admin"]})
    bearer = TestClient(
        create_app(settings), headers={"Authorization": f"Bearer {secret.json()['token']}"}
    )
    assert bearer.post(base, json={"name": "b", "scopes": ["read"]}).status_code == 403


def test_another_workspaces_token_cannot_be_revoked_through_yours(settings: Settings) -> None:
    """The token is looked up within the path's workspace: a token id of another
    workspace is 404 there even for that workspace's owner, and stays live."""
    mine = member(settings, "ws-a@example.com", "A")
    theirs = member(settings, "ws-b@example.com", "B")
    as_them = signed_in(settings, theirs)
    their_base = f"/api/v1/workspaces/{theirs.workspace_id}/tokens"
    token = as_them.post(their_base, json={"name": "b", "scopes": ["read"]}).json()
    as_me = signed_in(settings, mine)
    refused = as_me.delete(f"/api/v1/workspaces/{mine.workspace_id}/tokens/{token['id']}")
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    assert as_them.get(their_base).json()[0]["revoked_at"] is None
    bearer = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token['token']}"})
    assert bearer.get("/api/v1/auth/me").status_code == 200


def test_a_tokens_last_use_is_written_once_a_minute_not_on_every_request(
    settings: Settings,
) -> None:
    """Every read would otherwise be a write (and a commit) too."""
    owner = member(settings, "often@example.com", "Shop")
    client = signed_in(settings, owner)
    base = f"/api/v1/workspaces/{owner.workspace_id}/tokens"
    secret = client.post(base, json={"name": "CI", "scopes": ["read"]}).json()["token"]
    bearer = TestClient(create_app(settings), headers={"Authorization": f"Bearer {secret}"})
    assert bearer.get("/api/v1/datasets").status_code == 200
    first_use = client.get(base).json()[0]["last_used_at"]
    assert bearer.get("/api/v1/datasets").status_code == 200
    assert client.get(base).json()[0]["last_used_at"] == first_use
