from fastapi import APIRouter, Request, Response

from headroom.auth import service
from headroom.auth.cookies import set_session_cookie
from headroom.auth.schemas import LoginRequest, Me
from headroom.auth.throttle import LoginThrottle
from headroom.core.deps import SESSION_COOKIE, CurrentPrincipal, SessionDep, SettingsDep
from headroom.core.errors import InvalidCredentials, error_responses
from headroom.workspaces import service as workspace_service

router = APIRouter(prefix="/auth", tags=["auth"])


@router.post("/login", response_model=Me, responses=error_responses(429))
def login(
    body: LoginRequest,
    request: Request,
    response: Response,
    session: SessionDep,
    settings: SettingsDep,
) -> Me:
    throttle: LoginThrottle = request.app.state.login_throttle
    client = request.client.host if request.client else "unknown"
    keys = (f"email:{body.email.strip().lower()}", f"ip:{client}")
    throttle.check(*keys)
    try:
        _, token = service.login(session, body.email, body.password, settings.session_ttl_s)
    except InvalidCredentials:
        throttle.failed(*keys)
        raise
    throttle.succeeded(keys[0])
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
