"""Invitations: single use, expiring, only for the invited address; accepting as a new
account signs in; the link is the only copy of the token."""

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import update

from headroom.api.app import create_app
from headroom.core.db import session_scope
from headroom.core.security import token_digest
from headroom.core.settings import Settings
from headroom.workspaces.models import Invitation, Role
from support.factories import PASSWORD, member, signed_in


def invite(client: TestClient, workspace_id: int, email: str, role: str = "editor") -> str:
    response = client.post(
        f"/api/v1/workspaces/{workspace_id}/invitations", json={"email": email, "role": role}
    )
    assert response.status_code == 201, response.text
    assert response.json()["emailed"] is False  # no SMTP configured: the owner sends the link
    return str(response.json()["url"]).rsplit("/invite/", 1)[1]


def test_a_new_user_accepts_with_a_password_and_sees_the_workspace(settings: Settings) -> None:
    owner = member(settings, "owen@example.com", "Shop")
    token = invite(signed_in(settings, owner), owner.workspace_id, "New.Person@example.com")
    stranger = TestClient(create_app(settings))
    preview = stranger.get(f"/api/v1/invitations/{token}").json()
    assert preview["workspace_name"] == "Shop" and preview["email"] == "new.person@example.com"
    assert preview["account_exists"] is False
    accepted = stranger.post(
        f"/api/v1/invitations/{token}/accept", json={"password": "a long password", "name": "N"}
    )
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["workspaces"][0] == {
        "id": owner.workspace_id,
        "name": "Shop",
        "role": "editor",
    }
    assert stranger.get("/api/v1/datasets").status_code == 200  # signed in by the cookie


def test_a_link_works_once(settings: Settings) -> None:
    owner = member(settings, "oprah@example.com", "Shop")
    invitee = member(settings, "ivan@example.com", "Other")
    token = invite(signed_in(settings, owner), owner.workspace_id, "ivan@example.com", "viewer")
    as_invitee = signed_in(settings, invitee)
    first = as_invitee.post(f"/api/v1/invitations/{token}/accept", json={})
    assert first.status_code == 200
    assert {w["name"]: w["role"] for w in first.json()["workspaces"]}["Shop"] == "viewer"
    again = as_invitee.post(f"/api/v1/invitations/{token}/accept", json={})
    assert again.status_code == 404
    assert TestClient(create_app(settings)).get(f"/api/v1/invitations/{token}").status_code == 404


def test_an_expired_or_revoked_link_is_dead(settings: Settings) -> None:
    owner = member(settings, "odile@example.com", "Shop")
    client = signed_in(settings, owner)
    expired = invite(client, owner.workspace_id, "late@example.com")
    with session_scope(settings.resolved_database_url()) as session:
        session.execute(
            update(Invitation)
            .where(Invitation.token_hash == token_digest(expired))
            .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
        )
    stranger = TestClient(create_app(settings))
    late = stranger.post(f"/api/v1/invitations/{expired}/accept", json={"password": "long enough"})
    assert late.status_code == 404
    revoked = invite(client, owner.workspace_id, "gone@example.com")
    listed = client.get(f"/api/v1/workspaces/{owner.workspace_id}/invitations").json()
    statuses = {i["email"]: i["status"] for i in listed}
    assert statuses == {"late@example.com": "expired", "gone@example.com": "pending"}
    gone_id = next(i["id"] for i in listed if i["email"] == "gone@example.com")
    base = f"/api/v1/workspaces/{owner.workspace_id}/invitations"
    assert client.delete(f"{base}/{gone_id}").status_code == 204
    assert stranger.get(f"/api/v1/invitations/{revoked}").status_code == 404


def test_the_wrong_user_cannot_accept(settings: Settings) -> None:
    owner = member(settings, "oscar@example.com", "Shop")
    mallory = member(settings, "mallory@example.com", "Other")
    token = invite(signed_in(settings, owner), owner.workspace_id, "alice@example.com")
    refused = signed_in(settings, mallory).post(f"/api/v1/invitations/{token}/accept", json={})
    assert refused.status_code == 403 and "alice@example.com" in refused.text
    taken = member(settings, "alice@example.com", "Elsewhere")
    stranger = TestClient(create_app(settings))
    exists = stranger.post(f"/api/v1/invitations/{token}/accept", json={"password": PASSWORD})
    assert exists.status_code == 409 and exists.json()["error"]["code"] == "account_exists"
    as_alice = signed_in(settings, taken)
    assert as_alice.post(f"/api/v1/invitations/{token}/accept", json={}).status_code == 200


def test_only_owners_invite_and_members_are_not_reinvited(settings: Settings) -> None:
    owner = member(settings, "orla@example.com", "Shop")
    editor = member(settings, "ed@example.com", "Shop", Role.editor)
    body = {"email": "x@example.com", "role": "viewer"}
    path = f"/api/v1/workspaces/{owner.workspace_id}/invitations"
    assert signed_in(settings, editor).post(path, json=body).status_code == 403
    again = signed_in(settings, owner).post(path, json={"email": "ed@example.com"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_member"


def test_no_workspace_id_slips_past_the_role_gate(settings: Settings) -> None:
    """Negative and unknown ids are workspaces the caller is not in: 404, nothing stored."""
    owner = member(settings, "gate@example.com", "Gate", Role.owner)
    client = signed_in(settings, owner)
    for workspace_id in (-1, 0, owner.workspace_id + 1000):
        response = client.post(
            f"/api/v1/workspaces/{workspace_id}/invitations", json={"email": "x@example.com"}
        )
        assert response.status_code == 404, response.text
