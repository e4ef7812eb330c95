"""Sending one delivery: e-mail over SMTP, a Slack-compatible webhook ({"text": ...}), or
a generic webhook whose JSON body is signed with the channel's secret:

    X-Headroom-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed by the secret>

The delivery's row is read and written in short transactions of their own: no database
connection is held while the network is waited on. The Celery task (the worker's
`alerts.deliver`) retries a failed attempt with backoff; after the last, the delivery is
`failed`, with the error, on the rule's history."""

import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from headroom.alerts.models import AlertChannel, AlertDelivery, ChannelKind, DeliveryStatus
from headroom.alerts.payloads import Payload
from headroom.core.db import session_scope
from headroom.core.mail import send_mail
from headroom.core.settings import Settings
from headroom.core.types import utcnow

SIGNATURE_HEADER = "X-Headroom-Signature"
MAX_BACKOFF_S = 3600.0
MAX_ERROR_CHARS = 500


@dataclass(frozen=True)
class Outgoing:
    delivery_id: int
    kind: ChannelKind
    target: str
    secret: str | None
    purpose: str
    subject: str
    text: str
    payload: Payload


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def body_bytes(payload: Mapping[str, object]) -> bytes:
    return json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()


def backoff_s(settings: Settings, retries_so_far: int) -> float:
    return float(min(settings.alert_retry_base_s * 2**retries_so_far, MAX_BACKOFF_S))


def attempt(settings: Settings, delivery_id: int, final: bool) -> bool:
    """One try. True when there is nothing more to do (sent, failed for good, gone);
    False when it failed and a retry should follow."""
    outgoing = _load(settings, delivery_id)
    if outgoing is None:
        return True
    try:
        send(settings, outgoing)
    except Exception as error:  # every failure is recorded and retried alike
        text = f"{type(error).__name__}: {error}"[:MAX_ERROR_CHARS]
        _record(settings, delivery_id, text, final)
        return final
    _record(settings, delivery_id, None, final)
    return True


def _load(settings: Settings, delivery_id: int) -> Outgoing | None:
    with session_scope(settings.resolved_database_url()) as session:
        delivery = session.get(AlertDelivery, delivery_id)
        if delivery is None or delivery.status != DeliveryStatus.queued:
            return None
        channel = session.get(AlertChannel, delivery.channel_id) if delivery.channel_id else None
        if channel is None:
            delivery.status, delivery.finished_at = DeliveryStatus.failed, utcnow()
            delivery.last_error = "the channel was deleted"
            return None
        return Outgoing(
            delivery.id,
            ChannelKind(channel.kind),
            channel.target,
            channel.secret,
            delivery.purpose,
            delivery.subject,
            delivery.text,
            delivery.payload.copy(),
        )


def _record(settings: Settings, delivery_id: int, error: str | None, final: bool) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        delivery = session.get(AlertDelivery, delivery_id)
        if delivery is None:
            return
        delivery.attempts += 1
        delivery.last_error = error
        if error is None or final:
            delivery.status = DeliveryStatus.sent if error is None else DeliveryStatus.failed
            delivery.finished_at = utcnow()


def send(settings: Settings, out: Outgoing) -> None:
    timeout = settings.alert_timeout_s
    if out.kind == ChannelKind.email:
        to = [a.strip() for a in out.target.split(",") if a.strip()]
        send_mail(settings, to, out.subject, out.text, timeout_s=timeout)
        return
    if out.kind == ChannelKind.slack:
        body = body_bytes({"text": f"*{out.subject}*\n{out.text}"})
        headers = {"Content-Type": "application/json"}
    else:
        body = body_bytes(out.payload)
        headers = {
            "Content-Type": "application/json",
            "X-Headroom-Event": out.purpose,
            "X-Headroom-Delivery": str(out.delivery_id),
        }
        if out.secret:
            headers[SIGNATURE_HEADER] = signature(out.secret, body)
    response = httpx.post(out.target, content=body, headers=headers, timeout=timeout)
    if response.status_code >= 300:
        raise WebhookRefused(f"the receiver answered {response.status_code}")


class WebhookRefused(RuntimeError):
    pass
