"""Virtual-queue tokens (docs/methods/admission.md): HMAC-SHA256(key, client | TS | w) truncated to
128 bits. The gate keeps no per-user state: it recomputes the HMAC and admits the request
only within the second TS + w, give or take a clock-skew tolerance."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from enum import Enum

TOKEN_BYTES = 16  # 128 bits


class Verdict(Enum):
    ADMITTED = "admitted"
    BAD_TOKEN = "bad_token"  # tampered client, TS, w or token, or another key
    TOO_EARLY = "too_early"
    TOO_LATE = "too_late"  # includes a replay after the slot


@dataclass(frozen=True)
class Ticket:
    """What the redirect URL carries: the check-in time, the wait and the token."""

    client: str
    checkin_s: int  # TS, whole seconds (Unix time)
    wait_s: int  # w
    token: str  # hex, 32 characters


def _message(client: str, checkin_s: int, wait_s: int) -> bytes:
    if "|" in client:
        raise ValueError(f"client may not contain '|': {client!r}")
    if checkin_s < 0 or wait_s < 0:
        raise ValueError(f"need checkin_s >= 0 and wait_s >= 0, got {checkin_s}, {wait_s}")
    # surrogatepass: any str signs (lone surrogates too), and distinct strs stay distinct
    return f"{client}|{checkin_s}|{wait_s}".encode("utf-8", "surrogatepass")


def sign(key: bytes, client: str, checkin_s: int, wait_s: int) -> str:
    digest = hmac.new(key, _message(client, checkin_s, wait_s), hashlib.sha256).digest()
    return digest[:TOKEN_BYTES].hex()


def issue(key: bytes, client: str, checkin_s: int, wait_s: int) -> Ticket:
    return Ticket(client, checkin_s, wait_s, sign(key, client, checkin_s, wait_s))


def verify(key: bytes, ticket: Ticket, now_s: float, tolerance_s: float = 1.0) -> Verdict:
    """Admit within [TS + w - tolerance, TS + w + 1 + tolerance); compare in constant time."""
    if tolerance_s < 0:
        raise ValueError(f"tolerance_s must be >= 0, got {tolerance_s}")
    try:
        expected = sign(key, ticket.client, ticket.checkin_s, ticket.wait_s)
    except ValueError:
        return Verdict.BAD_TOKEN
    if not hmac.compare_digest(expected, ticket.token):
        return Verdict.BAD_TOKEN
    slot_s = ticket.checkin_s + ticket.wait_s
    if now_s < slot_s - tolerance_s:
        return Verdict.TOO_EARLY
    if now_s >= slot_s + 1 + tolerance_s:
        return Verdict.TOO_LATE
    return Verdict.ADMITTED
