from fastapi import Request, Response

from headroom.core.security import SESSION_COOKIE
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


def cookie_is_secure(request: Request, settings: Settings) -> bool:
    """Secure cookies when the request came over TLS: directly, or through a proxy whose
    X-Forwarded-Proto the operator trusts (HEADROOM_TRUST_FORWARDED_PROTO)."""
    if settings.cookie_secure or request.url.scheme == "https":
        return True
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip()
    return settings.trust_forwarded_proto and forwarded == "https"
