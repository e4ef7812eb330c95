"""Members: list, change role, remove; the last owner stays; roles gate writes centrally."""

from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core.settings import Settings
from headroom.workspaces.models import Role
from support.factories import api_token, member, signed_in


def test_owner_lists_changes_and_removes_members(settings: Settings) -> None:
    owner = member(settings, "olive@example.com", "Shop")
    viewer = member(settings, "victor@example.com", "Shop", Role.viewer)
    client = signed_in(settings, owner)
    base = f"/api/v1/workspaces/{owner.workspace_id}/members"
    listed = client.get(base).json()
    assert [(m["email"], m["role"]) for m in listed] == [
        ("olive@example.com", "owner"),
        ("victor@example.com", "viewer"),
    ]
    promoted = client.patch(f"{base}/{viewer.user_id}", json={"role": "editor"})
    assert promoted.status_code == 200 and promoted.json()["role"] == "editor"
    assert client.delete(f"{base}/{viewer.user_id}").status_code == 204
    assert [m["email"] for m in client.get(base).json()] == ["olive@example.com"]
    assert client.delete(f"{base}/{viewer.user_id}").status_code == 404


def test_the_last_owner_can_be_neither_demoted_nor_removed(settings: Settings) -> None:
    owner = member(settings, "otto@example.com", "Shop")
    client = signed_in(settings, owner)
    base = f"/api/v1/workspaces/{owner.workspace_id}/members/{owner.user_id}"
    demoted = client.patch(base, json={"role": "editor"})
    assert demoted.status_code == 409 and demoted.json()["error"]["code"] == "last_owner"
    assert client.delete(base).status_code == 409
    second = member(settings, "oona@example.com", "Shop")
    assert client.patch(base, json={"role": "editor"}).status_code == 200
    back = signed_in(settings, second)
    assert back.delete(base).status_code == 204


def test_only_owners_manage_members(settings: Settings) -> None:
    owner = member(settings, "ola@example.com", "Shop")
    editor = member(settings, "eddie@example.com", "Shop", Role.editor)
    outsider = member(settings, "xena@example.com", "Elsewhere")
    base = f"/api/v1/workspaces/{owner.workspace_id}/members"
    as_editor = signed_in(settings, editor)
    assert as_editor.get(base).status_code == 200
    refused = as_editor.patch(f"{base}/{owner.user_id}", json={"role": "viewer"})
    assert refused.status_code == 403 and "owner role" in refused.json()["error"]["message"]
    assert signed_in(settings, outsider).get(base).status_code == 404  # existence not revealed


def test_viewer_cannot_write_and_token_scope_caps_the_role(settings: Settings) -> None:
    viewer = member(settings, "vera@example.com", "Shop", Role.viewer)
    owner = member(settings, "omar@example.com", "Shop")
    body = {"dataset_id": 1}
    as_viewer = signed_in(settings, viewer)
    refused = as_viewer.post("/api/v1/uploads", json={"name": "a.log", "size_bytes": 10})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    read_only = api_token(settings, owner, ["read"])
    client = TestClient(create_app(settings), headers={"Authorization": f"Bearer {read_only}"})
    assert (
        client.post("/api/v1/uploads", json={"name": "a.log", "size_bytes": 10}).status_code == 403
    )
    assert client.get(f"/api/v1/workspaces/{owner.workspace_id}/members").status_code == 200
    write = api_token(settings, owner, ["write"])
    client = TestClient(create_app(settings), headers={"Authorization": f"Bearer {write}"})
    created = client.post("/api/v1/uploads", json={"name": "a.log", "size_bytes": 10})
    assert created.status_code == 201, body
    members = f"/api/v1/workspaces/{owner.workspace_id}/members/{viewer.user_id}"
    assert client.delete(members).status_code == 403  # owner's write token is not admin


def test_create_a_workspace_and_become_its_owner(settings: Settings) -> None:
    someone = member(settings, "sam@example.com", "Shop", Role.viewer)
    client = signed_in(settings, someone)
    created = client.post("/api/v1/workspaces", json={"name": "  Side project "})
    assert created.status_code == 201
    assert created.json()["name"] == "Side project" and created.json()["role"] == "owner"
    roles = {w["name"]: w["role"] for w in client.get("/api/v1/workspaces").json()}
    assert roles == {"Shop": "viewer", "Side project": "owner"}
