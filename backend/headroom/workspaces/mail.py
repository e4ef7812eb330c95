"""Optional e-mail delivery of invitation links (HEADROOM_SMTP_URL); without it the owner
sends the link shown in the UI."""

from headroom.core.mail import send_mail
from headroom.core.settings import Settings


def send_invitation(settings: Settings, to: str, workspace: str, url: str) -> bool:
    """True when the mail was handed to the SMTP server; False when SMTP is not set up."""
    if not settings.smtp_url:
        return False
    subject = f"You are invited to the {workspace} workspace on Headroom"
    body = f"Open this link to join (it works once and expires):\n\n{url}\n"
    send_mail(settings, [to], subject, body)
    return True
