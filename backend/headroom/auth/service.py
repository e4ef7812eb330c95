"""Logins, sessions and API tokens. Services never commit; the caller's unit of work does."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from headroom.auth import repository
from headroom.auth.models import ApiToken, User, UserSession
from headroom.auth.principal import Caller, Principal
from headroom.core.errors import InvalidCredentials, NotAuthenticated
from headroom.core.security import (
    API_TOKEN_PREFIX,
    hash_password,
    new_token,
    token_digest,
    verify_password,
)
from headroom.workspaces.models import Membership, Role, Workspace

_DUMMY_HASH = hash_password("timing-equaliser")
TOKEN_PREFIX_CHARS = 10
# a token's last use is recorded this often at most: not a write on every request
LAST_USED_RESOLUTION = timedelta(minutes=1)


def create_user(session: Session, email: str, password: str, name: str | None = None) -> User:
    email = email.strip().lower()
    user = User(
        email=email, name=name or email.split("@")[0], password_hash=hash_password(password)
    )
    session.add(user)
    session.flush()
    return user


def add_member(session: Session, user: User, workspace: Workspace, role: Role) -> Membership:
    membership = Membership(user_id=user.id, workspace_id=workspace.id, role=role.value)
    session.add(membership)
    session.flush()
    return membership


def login(session: Session, email: str, password: str, ttl_s: int) -> tuple[User, str]:
    """Returns the user and a new session token for the cookie."""
    user = repository.user_by_email(session, email)
    if user is None or not user.is_active:
        verify_password(_DUMMY_HASH, password)  # same cost whether or not the user exists
        raise InvalidCredentials("wrong email or password")
    if not verify_password(user.password_hash, password):
        raise InvalidCredentials("wrong email or password")
    return user, start_session(session, user, ttl_s)


def start_session(session: Session, user: User | Caller, ttl_s: int) -> str:
    """A new browser session for `user`; returns the cookie's token."""
    token = new_token()
    expires_at = datetime.now(UTC) + timedelta(seconds=ttl_s)
    session.add(UserSession(user_id=user.id, token_hash=token_digest(token), expires_at=expires_at))
    return token


def logout(session: Session, token: str) -> None:
    repository.delete_session(session, token_digest(token))


def create_api_token(
    session: Session,
    user: User,
    workspace: Workspace,
    scopes: list[str],
    name: str = "cli",
    expires_days: int | None = None,
) -> str:
    return issue_api_token(session, user, workspace, scopes, name, expires_days)[1]


def issue_api_token(
    session: Session,
    user: User | Caller,
    workspace: Workspace,
    scopes: list[str],
    name: str,
    expires_days: int | None,
) -> tuple[ApiToken, str]:
    """The stored row and the secret (which exists in clear only here)."""
    token = new_token(API_TOKEN_PREFIX)
    expires_at = datetime.now(UTC) + timedelta(days=expires_days) if expires_days else None
    row = ApiToken(
        user_id=user.id,
        workspace_id=workspace.id,
        name=name,
        token_hash=token_digest(token),
        scopes=" ".join(sorted(set(scopes))),
        prefix=token[:TOKEN_PREFIX_CHARS],
        expires_at=expires_at,
    )
    session.add(row)
    session.flush()
    return row, token


def principal_from_session_token(session: Session, token: str) -> Principal:
    row = repository.live_session(session, token_digest(token), datetime.now(UTC))
    if row is None:
        raise NotAuthenticated("your session has expired; sign in again")
    user = session.get(User, row.user_id)
    return replace(_principal(session, user), expires_at=row.expires_at)


def principal_from_api_token(session: Session, token: str) -> Principal:
    now = datetime.now(UTC)
    row = repository.live_token(session, token_digest(token), now)
    if row is None:
        raise NotAuthenticated("invalid, expired or revoked API token")
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
        row.last_used_at = now
    user = session.get(User, row.user_id)
    principal = _principal(session, user)
    roles = (
        {row.workspace_id: principal.roles[row.workspace_id]}
        if (row.workspace_id in principal.roles)
        else {}
    )
    return Principal(
        user=principal.user,
        roles=roles,
        token_scopes=frozenset(row.scopes.split()),
        token_id=row.id,
        expires_at=row.expires_at,
    )


def principal_for_user(session: Session, user: User | Caller) -> Principal:
    return _principal(session, session.get(User, user.id))


def _principal(session: Session, user: User | None) -> Principal:
    if user is None or not user.is_active:
        raise NotAuthenticated("this account is disabled")
    roles = {m.workspace_id: Role(m.role) for m in repository.memberships_of(session, user.id)}
    return Principal(user=Caller.of(user), roles=roles)
