from fastapi import Request, Response

from headroom.core.deps import SESSION_COOKIE, cookie_is_secure
from headroom.core.settings import Settings


def set_session_cookie(
    response: Response, request: Request, settings: Settings, token: str
) -> None:
    """HttpOnly, SameSite=Lax, and Secure whenever the request came over TLS."""
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=settings.session_ttl_s,
        httponly=True,
        samesite="lax",
        secure=cookie_is_secure(request, settings),
        path="/",
    )
