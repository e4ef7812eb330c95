"""Leaving a workspace: any member deletes their own membership (DELETE .../members/{own id});
the last owner cannot, with an error that says what to do; others still need the owner."""

from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core.settings import Settings
from headroom.workspaces.models import Role
from support.factories import api_token, member, signed_in


def test_a_viewer_leaves_and_loses_access(settings: Settings) -> None:
    owner = member(settings, "olga@example.com", "Shop")
    viewer = member(settings, "vic@example.com", "Shop", Role.viewer)
    client = signed_in(settings, viewer)
    base = f"/api/v1/workspaces/{owner.workspace_id}/members"
    assert client.delete(f"{base}/{viewer.user_id}").status_code == 204
    assert client.get("/api/v1/workspaces").json() == []
    assert client.get(base).status_code == 404  # no longer a member: not even its existence
    listed = signed_in(settings, owner).get(base).json()
    assert [m["email"] for m in listed] == ["olga@example.com"]


def test_the_last_owner_cannot_leave(settings: Settings) -> None:
    owner = member(settings, "odin@example.com", "Shop")
    editor = member(settings, "eve@example.com", "Shop", Role.editor)
    client = signed_in(settings, owner)
    mine = f"/api/v1/workspaces/{owner.workspace_id}/members/{owner.user_id}"
    refused = client.delete(mine)
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "last_owner"
    assert error["message"].startswith("you are the last owner of this workspace: make another")
    promote = f"/api/v1/workspaces/{owner.workspace_id}/members/{editor.user_id}"
    assert client.patch(promote, json={"role": "owner"}).status_code == 200
    assert client.delete(mine).status_code == 204
    assert client.get("/api/v1/workspaces").json() == []


def test_removing_someone_else_still_needs_the_owner(settings: Settings) -> None:
    owner = member(settings, "oz@example.com", "Shop")
    editor = member(settings, "ed@example.com", "Shop", Role.editor)
    client = signed_in(settings, editor)
    other = f"/api/v1/workspaces/{owner.workspace_id}/members/{owner.user_id}"
    refused = client.delete(other)
    assert refused.status_code == 403 and "owner role" in refused.json()["error"]["message"]
    outsider = member(settings, "xu@example.com", "Elsewhere")
    assert signed_in(settings, outsider).delete(other).status_code == 404


def test_an_api_token_cannot_leave_for_its_user(settings: Settings) -> None:
    owner = member(settings, "oli@example.com", "Shop")
    editor = member(settings, "ella@example.com", "Shop", Role.editor)
    token = api_token(settings, editor, ["write"])
    client = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}"})
    mine = f"/api/v1/workspaces/{owner.workspace_id}/members/{editor.user_id}"
    refused = client.delete(mine)
    assert refused.status_code == 403 and "signed in" in refused.json()["error"]["message"]
