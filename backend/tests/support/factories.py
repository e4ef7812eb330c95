"""Users, workspaces and signed-in clients for the API tests."""

from dataclasses import dataclass

from fastapi.testclient import TestClient

from headroom.admin import ensure_workspace
from headroom.api.app import create_app
from headroom.auth import service as auth_service
from headroom.auth.models import User
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.workspaces.models import Role, Workspace

PASSWORD = "correct horse battery staple"


@dataclass(frozen=True)
class Member:
    email: str
    user_id: int
    workspace_id: int


def member(settings: Settings, email: str, workspace: str, role: Role = Role.owner) -> Member:
    with session_scope(settings.resolved_database_url()) as session:
        user = auth_service.create_user(session, email, PASSWORD)
        ws = ensure_workspace(session, workspace)
        auth_service.add_member(session, user, ws, role)
        return Member(email=email, user_id=user.id, workspace_id=ws.id)


def signed_in(settings: Settings, who: Member) -> TestClient:
    client = TestClient(create_app(settings))
    response = client.post("/api/v1/auth/login", json={"email": who.email, "password": PASSWORD})
    assert response.status_code == 200, response.text
    return client


def api_token(settings: Settings, who: Member, scopes: list[str]) -> str:
    with session_scope(settings.resolved_database_url()) as session:
        user = session.get(User, who.user_id)
        workspace = session.get(Workspace, who.workspace_id)
        assert user is not None and workspace is not None
        return auth_service.create_api_token(session, user, workspace, scopes)
