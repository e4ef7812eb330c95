"""Typed FastAPI dependencies: SessionDep, SettingsDep, StoreDep, CurrentPrincipal,
DatasetRead, and the role gates every route uses: ViewerAccess, EditorAccess (writes),
OwnerAccess."""

from collections.abc import Awaitable, Callable, Iterator
from typing import Annotated, NamedTuple
from urllib.parse import urlsplit

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from headroom.auth import service as auth_service
from headroom.auth.principal import Principal
from headroom.auth.principal_cache import principals
from headroom.core.db import session_scope
from headroom.core.errors import Forbidden, NotAuthenticated
from headroom.core.ids import Id
from headroom.core.security import SESSION_COOKIE, token_digest
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore, open_store
from headroom.workspaces.models import Role

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


async def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_app_settings)]


def get_db(settings: SettingsDep) -> Iterator[Session]:
    with session_scope(settings.resolved_database_url()) as session:
        yield session


# scope="function": commit before the response is sent, so the next request sees the writes
SessionDep = Annotated[Session, Depends(get_db, scope="function")]


def get_store(settings: SettingsDep) -> ObjectStore:
    return open_store(settings.resolved_storage_url())


StoreDep = Annotated[ObjectStore, Depends(get_store)]


async def get_principal(request: Request, settings: SettingsDep) -> Principal:
    """The caller: from the cache on the event loop (no trip to a thread), else
    authenticated in a thread (`principal_of`)."""
    principal = principals.get(_credential_key(request))
    if principal is None:
        return await run_in_threadpool(principal_of, request, settings)
    request.state.authenticated = True  # the rate limiter counts this credential apart
    return principal


def principal_of(request: Request, settings: Settings) -> Principal:
    """The caller, as resolved within the last few seconds (auth.principal_cache), else
    authenticated in a transaction of its own, so that no connection is held from here
    to the route's own session (a request waiting for a thread while it holds one starves
    the pool under load)."""
    key = _credential_key(request)
    principal = principals.get(key)
    if principal is None:
        generation = principals.generation
        with session_scope(settings.resolved_database_url()) as session:
            principal = _authenticate(request, session)
        principals.put(key, principal, generation)
    request.state.authenticated = True
    return principal


def _credential_key(request: Request) -> str:
    """The credential's digest (the secret itself is never kept); checks the origin of
    cookie-authenticated writes."""
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return "token:" + token_digest(authorization[7:].strip())
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        if request.method not in SAFE_METHODS:
            _require_same_origin(request)
        return "session:" + token_digest(cookie)
    raise NotAuthenticated("sign in, or send an API token as 'Authorization: Bearer <token>'")


def _authenticate(request: Request, session: Session) -> Principal:
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return auth_service.principal_from_api_token(session, authorization[7:].strip())
    cookie = request.cookies.get(SESSION_COOKIE, "")
    return auth_service.principal_from_session_token(session, cookie)


def _require_same_origin(request: Request) -> None:
    """CSRF defence for cookie-authenticated writes (on top of SameSite=Lax): a browser
    always names the page that sent a cross-site request in Origin (or Referer); it must be
    this host. Clients that send neither are not browsers and carry no ambient cookie risk."""
    source = request.headers.get("origin") or request.headers.get("referer")
    if source is None:
        return
    host = request.headers.get("x-forwarded-host") or request.headers.get("host", "")
    if urlsplit(source).netloc != host:
        raise Forbidden("cross-site request refused (the Origin does not match this site)")


CurrentPrincipal = Annotated[Principal, Depends(get_principal)]


def get_optional_principal(request: Request, settings: SettingsDep) -> Principal | None:
    """The caller when they sent credentials, else None (for pages that work signed out)."""
    has_bearer = request.headers.get("authorization", "").lower().startswith("bearer ")
    if not has_bearer and not request.cookies.get(SESSION_COOKIE):
        return None
    return principal_of(request, settings)


OptionalPrincipal = Annotated[Principal | None, Depends(get_optional_principal)]


def require_role(role: Role) -> Callable[[Request, Principal], Awaitable[Principal]]:
    """The one gate for roles (see `check_role`)."""

    async def gate(request: Request, principal: CurrentPrincipal) -> Principal:
        return check_role(request, principal, role)

    return gate


def check_role(request: Request, principal: Principal, role: Role) -> Principal:
    """With a `workspace_id` path parameter the caller must hold `role` there (404 when not
    a member, 403 when the role or token scope is too low); otherwise in at least one
    workspace, and the returned principal asks for at least `role` in every later
    workspace check, made once the object's workspace is known."""
    if "workspace_id" in request.path_params:
        principal.require(_workspace_id(request.path_params["workspace_id"]), role)
    elif not any(principal.allows(w, role) for w in principal.roles):
        raise Forbidden(f"this needs the {role.value} role in a workspace")
    return principal.acting_as(role)


def _workspace_id(raw: object) -> int:
    """Any integer the route accepts, negative ones included (no workspace has them: 404)."""
    try:
        return int(str(raw))
    except ValueError:
        return 0


ViewerAccess = Annotated[Principal, Depends(require_role(Role.viewer))]
EditorAccess = Annotated[Principal, Depends(require_role(Role.editor))]
OwnerAccess = Annotated[Principal, Depends(require_role(Role.owner))]


class DatasetReadArgs(NamedTuple):
    """What a read of one dataset passes its service first, in the services' order: the
    session, the store, the caller, the dataset's id (the path's `dataset_id`)."""

    session: Session
    store: ObjectStore
    principal: Principal
    dataset_id: int


def dataset_read(
    dataset_id: Id, principal: CurrentPrincipal, session: SessionDep, store: StoreDep
) -> DatasetReadArgs:
    return DatasetReadArgs(session, store, principal, dataset_id)


DatasetRead = Annotated[DatasetReadArgs, Depends(dataset_read)]
