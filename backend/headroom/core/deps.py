"""Typed FastAPI dependencies: SessionDep, SettingsDep, StoreDep, CurrentPrincipal."""

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from headroom.auth import service as auth_service
from headroom.auth.principal import Principal
from headroom.core.db import get_sessionmaker
from headroom.core.errors import NotAuthenticated
from headroom.core.settings import Settings
from headroom.core.storage import LocalStore, open_store

SESSION_COOKIE = "headroom_session"


def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_app_settings)]


def get_db(settings: SettingsDep) -> Iterator[Session]:
    session = get_sessionmaker(settings.resolved_database_url())()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


SessionDep = Annotated[Session, Depends(get_db)]


def get_store(settings: SettingsDep) -> LocalStore:
    return open_store(settings.resolved_storage_url())


StoreDep = Annotated[LocalStore, Depends(get_store)]


def get_principal(request: Request, session: SessionDep) -> Principal:
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return auth_service.principal_from_api_token(session, authorization[7:].strip())
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        return auth_service.principal_from_session_token(session, cookie)
    raise NotAuthenticated("sign in, or send an API token as 'Authorization: Bearer <token>'")


CurrentPrincipal = Annotated[Principal, Depends(get_principal)]
