"""Operator actions on the configured database (used by `headroom admin` and the demo)."""

import click
from sqlalchemy.orm import Session

from headroom.auth import repository as auth_repository
from headroom.auth import service as auth_service
from headroom.auth.models import User
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.workspaces import service as workspace_service
from headroom.workspaces.models import Role, Workspace


def create_user(
    settings: Settings, email: str, password: str, workspace_name: str | None, role: str
) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        if auth_repository.user_by_email(session, email) is not None:
            raise click.ClickException(f"a user {email} already exists")
        user = auth_service.create_user(session, email, password)
        if workspace_name:
            workspace = ensure_workspace(session, workspace_name)
            auth_service.add_member(session, user, workspace, Role(role))


def ensure_workspace(session: Session, name: str) -> Workspace:
    return workspace_service.by_name(session, name) or workspace_service.create(session, name)


def create_token(
    settings: Settings, email: str, workspace_name: str, scopes: list[str], expires_days: int | None
) -> str:
    if expires_days is not None and expires_days < 1:
        raise click.UsageError("--expires-days must be at least 1 (leave it out: no expiry)")
    with session_scope(settings.resolved_database_url()) as session:
        user = _user(session, email)
        workspace = workspace_service.by_name(session, workspace_name)
        if workspace is None:
            raise click.ClickException(f"no workspace named {workspace_name!r}")
        if not _is_member(session, user, workspace):
            raise click.ClickException(f"{email} is not a member of {workspace_name!r}")
        return auth_service.create_api_token(
            session, user, workspace, scopes, expires_days=expires_days
        )


def _user(session: Session, email: str) -> User:
    user = auth_repository.user_by_email(session, email)
    if user is None:
        raise click.ClickException(f"no user {email}")
    return user


def _is_member(session: Session, user: User, workspace: Workspace) -> bool:
    return any(
        m.workspace_id == workspace.id for m in auth_repository.memberships_of(session, user.id)
    )
