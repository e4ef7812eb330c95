from collections.abc import Collection
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from headroom.auth.models import ApiToken, User, UserSession
from headroom.core.security import same_digest
from headroom.workspaces.models import Membership


def user_by_email(session: Session, email: str) -> User | None:
    return session.scalar(select(User).where(User.email == email.strip().lower()))


def users_by_id(session: Session, user_ids: Collection[int]) -> list[User]:
    if not user_ids:
        return []
    return list(session.scalars(select(User).where(User.id.in_(user_ids))))


def memberships_of(session: Session, user_id: int) -> list[Membership]:
    return list(session.scalars(select(Membership).where(Membership.user_id == user_id)))


def live_session(session: Session, token_hash: str, now: datetime) -> UserSession | None:
    row = session.scalar(
        select(UserSession).where(
            UserSession.token_hash == token_hash, UserSession.expires_at > now
        )
    )
    if row is None or not same_digest(row.token_hash, token_hash):
        return None  # as for API tokens: found by the index, compared in constant time
    return row


def delete_session(session: Session, token_hash: str) -> None:
    session.execute(delete(UserSession).where(UserSession.token_hash == token_hash))


def live_token(session: Session, token_hash: str, now: datetime) -> ApiToken | None:
    token = session.scalar(
        select(ApiToken).where(ApiToken.token_hash == token_hash, ApiToken.revoked_at.is_(None))
    )
    if token is None or not same_digest(token.token_hash, token_hash):
        return None  # the index finds by digest; the comparison itself is constant-time
    if token.expires_at is not None and token.expires_at <= now:
        return None
    return token


def workspace_token(
    session: Session, workspace_id: int, token_id: int, user_id: int | None
) -> ApiToken | None:
    """A token of the workspace; only one of `user_id`'s when that is given."""
    query = select(ApiToken).where(ApiToken.id == token_id, ApiToken.workspace_id == workspace_id)
    if user_id is not None:
        query = query.where(ApiToken.user_id == user_id)
    return session.scalar(query)
