"""E-mail through the SMTP server of HEADROOM_SMTP_URL: smtp://host:port, or
smtp+starttls://user:password@host:port to upgrade the connection and log in."""

import smtplib
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from headroom.core.settings import Settings


class MailNotConfigured(RuntimeError):
    pass


def send_mail(
    settings: Settings, to: list[str], subject: str, body: str, timeout_s: float = 10.0
) -> None:
    """Hands the message to the SMTP server (raises on any refusal or network error)."""
    if not settings.smtp_url:
        raise MailNotConfigured("e-mail is not set up on this server (HEADROOM_SMTP_URL)")
    parts = urlsplit(settings.smtp_url)
    message = EmailMessage()
    message["From"], message["To"] = settings.smtp_from, ", ".join(to)
    message["Subject"] = subject
    message.set_content(body)
    host, port = parts.hostname or "localhost", parts.port or 25
    with smtplib.SMTP(host, port, timeout=timeout_s) as smtp:
        if parts.scheme == "smtp+starttls":
            smtp.starttls()
        if parts.username:
            smtp.login(unquote(parts.username), unquote(parts.password or ""))
        smtp.send_message(message)
