"""Optional e-mail delivery of invitation links (HEADROOM_SMTP_URL); without it the owner
sends the link shown in the UI."""

import smtplib
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from headroom.core.settings import Settings


def send_invitation(settings: Settings, to: str, workspace: str, url: str) -> bool:
    """True when the mail was handed to the SMTP server; False when SMTP is not set up."""
    if not settings.smtp_url:
        return False
    parts = urlsplit(settings.smtp_url)
    message = EmailMessage()
    message["From"], message["To"] = settings.smtp_from, to
    message["Subject"] = f"You are invited to the {workspace} workspace on Headroom"
    message.set_content(f"Open this link to join (it works once and expires):\n\n{url}\n")
    with smtplib.SMTP(parts.hostname or "localhost", parts.port or 25, timeout=10) as smtp:
        if parts.scheme == "smtp+starttls":
            smtp.starttls()
        if parts.username:
            smtp.login(unquote(parts.username), unquote(parts.password or ""))
        smtp.send_message(message)
    return True
