from fastapi import APIRouter, Request, Response

from headroom.api.deps import CurrentPrincipal, SessionDep, SettingsDep
from headroom.auth import service
from headroom.auth.cookies import set_session_cookie
from headroom.auth.schemas import LoginIn, Me
from headroom.auth.throttle import LoginThrottle, RedisLoginThrottle, client_address
from headroom.core.errors import InvalidCredentials, error_responses
from headroom.core.security import SESSION_COOKIE
from headroom.workspaces import service as workspace_service

router = APIRouter(prefix="/auth", tags=["auth"])


@router.post("/login", response_model=Me, responses=error_responses(429))
def login(
    body: LoginIn,
    request: Request,
    response: Response,
    session: SessionDep,
    settings: SettingsDep,
) -> Me:
    throttle: LoginThrottle | RedisLoginThrottle = request.app.state.login_throttle
    peer = request.client.host if request.client else "unknown"
    proxies = frozenset(p.strip() for p in settings.trusted_proxies.split(",") if p.strip())
    address = client_address(peer, request.headers.get("x-forwarded-for"), proxies)
    account = body.email.strip().lower()
    throttle.check(account, address)
    try:
        _, token = service.login(session, body.email, body.password, settings.session_ttl_s)
    except InvalidCredentials:
        throttle.failed(account, address)
        raise
    throttle.succeeded(account, address)
    set_session_cookie(response, request, settings, token)
    principal = service.principal_from_session_token(session, token)
    return workspace_service.me(session, principal)


@router.post("/logout", status_code=204)
def logout(request: Request, response: Response, session: SessionDep) -> None:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        service.logout(session, token)
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.get("/me", response_model=Me)
def me(principal: CurrentPrincipal, session: SessionDep) -> Me:
    return workspace_service.me(session, principal)
