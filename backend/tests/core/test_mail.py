"""E-mail through a real SMTP server (aiosmtpd) started here: the message as handed over,
and the login of smtp://user:password@host:port (URL-encoded characters decoded)."""

from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from headroom.core.mail import MailNotConfigured, send_mail
from headroom.core.settings import Settings
from support.receivers import Mailbox, smtp_server
from support.services import free_port


def test_a_message_reaches_the_server(tmp_path: Any) -> None:
    with smtp_server() as (url, mailbox):
        settings = Settings(data_dir=tmp_path, smtp_url=url, smtp_from="hr@example.org")
        send_mail(settings, ["a@example.org", "b@example.org"], "Subject ü", "Body line\n")
    (message,) = mailbox.messages
    assert message["Subject"] == "Subject ü" and message["From"] == "hr@example.org"
    assert mailbox.envelopes == [("hr@example.org", ["a@example.org", "b@example.org"])]
    assert message.get_content().splitlines() == ["Body line"]  # SMTP ends lines with CRLF


def test_the_login_of_the_url_is_used(tmp_path: Any) -> None:
    seen: list[tuple[str, str]] = []

    def authenticator(
        server: Any, session: Any, envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        assert isinstance(data, LoginPassword)
        seen.append((data.login.decode(), data.password.decode()))
        return AuthResult(success=data.password == b"p@ss:word")

    mailbox, port = Mailbox(), free_port()
    controller = Controller(
        mailbox,
        hostname="127.0.0.1",
        port=port,
        authenticator=authenticator,
        auth_require_tls=False,
        auth_required=True,
    )
    controller.start()
    try:
        url = f"smtp://ops%40example.org:p%40ss%3Aword@127.0.0.1:{port}"
        send_mail(Settings(data_dir=tmp_path, smtp_url=url), ["a@example.org"], "s", "b")
    finally:
        controller.stop()
    assert seen[0] == ("ops@example.org", "p@ss:word") and len(mailbox.messages) == 1


def test_without_a_server_nothing_is_sent(tmp_path: Any) -> None:
    with pytest.raises(MailNotConfigured):
        send_mail(Settings(data_dir=tmp_path), ["a@example.org"], "s", "b")
