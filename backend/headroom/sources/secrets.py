"""A source's credential encrypted at rest with the app's secret (Fernet: AES-128-CBC with
an HMAC-SHA256, key derived from HEADROOM_SECRET_KEY). Changing the secret key makes the
stored credentials unreadable: the source then asks for them again."""

import base64
import hashlib
from typing import Any

from cryptography.fernet import Fernet, InvalidToken

from headroom.core.settings import Settings
from headroom.sources.models import PrometheusSource

CONTEXT = b"headroom/sources/credential"


class CredentialUnreadable(Exception):
    """The stored credential was encrypted under another secret key."""


def _fernet(secret_key: str) -> Fernet:
    key = hashlib.sha256(CONTEXT + secret_key.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def encrypt(secret_key: str, value: str) -> str:
    return _fernet(secret_key).encrypt(value.encode()).decode()


def decrypt(secret_key: str, token: str) -> str:
    try:
        return _fernet(secret_key).decrypt(token.encode()).decode()
    except InvalidToken as error:
        raise CredentialUnreadable(
            "the stored credential cannot be read (the server's secret key changed): enter it again"
        ) from error


def auth_of(settings: Settings, source: PrometheusSource) -> Any:
    """The client credentials of a source (its stored secret decrypted)."""
    from headroom.sources.prometheus_client import Auth

    secret = (
        decrypt(settings.secret_key, source.secret_encrypted) if source.secret_encrypted else None
    )
    if source.auth == "bearer":
        return Auth(bearer_token=secret)
    if source.auth == "basic":
        return Auth(username=source.username, password=secret)
    return Auth()
