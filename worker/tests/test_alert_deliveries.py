"""Alert deliveries through the worker's task, to real receivers started here: an SMTP
server (aiosmtpd), a Slack-compatible receiver, a generic webhook receiver that checks the
HMAC signature on its own, and one that answers 500 (retries, then a visible failure).
The task runs eagerly (Celery's apply: a retry runs at once, without its countdown)."""

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from headroom.alerts.evaluation import evaluate_after_ingest
from headroom.alerts.weekly import queue_weekly_reports
from headroom.core.migrations import upgrade
from headroom.core.settings import Settings
from headroom.core.types import utcnow
from headroom_worker import tasks
from support.alert_data import error_share, request_table, upload
from support.factories import Member, member, signed_in
from support.receivers import Mailbox, http_receiver, smtp_server


@dataclass
class World:
    settings: Settings
    owner: Member
    client: TestClient
    dataset_id: int
    share: float
    mailbox: Mailbox

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        response = self.client.post(path, json=body)
        assert response.status_code in (200, 201, 202), response.text
        return response.json()

    def channel(self, **body: Any) -> dict[str, Any]:
        ws = self.owner.workspace_id
        made: dict[str, Any] = self.post(f"/api/v1/workspaces/{ws}/alert-channels", body)
        return made

    def firing_rule(self, channel_ids: list[int]) -> dict[str, Any]:
        """A rule that fires (the 5xx share is above half of itself), alone enabled."""
        for old in self.client.get(f"/api/v1/datasets/{self.dataset_id}/alert-rules").json():
            self.client.patch(f"/api/v1/alert-rules/{old['id']}", json={"enabled": False})
        body = {
            "name": "errors",
            "kind": "error_rate_above",
            "threshold": self.share / 2,
            "channel_ids": channel_ids,
        }
        made: dict[str, Any] = self.post(f"/api/v1/datasets/{self.dataset_id}/alert-rules", body)
        return made

    def history(self, rule_id: int) -> list[dict[str, Any]]:
        page = self.client.get(f"/api/v1/alert-rules/{rule_id}/evaluations").json()
        return list(page["items"])


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("deliveries")
    with smtp_server() as (smtp_url, mailbox):
        settings = Settings(
            data_dir=tmp,
            database_url=f"sqlite:///{tmp / 'alerts.db'}",
            static_dir=Path(tmp / "no-ui"),
            smtp_url=smtp_url,
            smtp_from="alerts@headroom.example",
            public_url="https://headroom.example",
            alert_max_retries=2,
            alert_retry_base_s=0.0,
            rate_limit_ip_per_min=0,
            rate_limit_token_per_min=0,
        )
        upgrade(settings)
        owner = member(settings, "owner@deliveries.example", "Deliveries")
        client = signed_in(settings, owner)
        table = request_table(seed=5)
        dataset = upload(settings, client, table, "shop.log")
        yield World(settings, owner, client, dataset["id"], error_share(table), mailbox)


@pytest.fixture(autouse=True)
def worker_settings(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tasks, "get_settings", lambda: world.settings)


def deliver(delivery_ids: list[int]) -> None:
    for delivery_id in delivery_ids:
        tasks.deliver_alert.apply(args=[delivery_id])


def test_an_ingest_evaluates_the_rules_and_mails_the_alert(world: World) -> None:
    channel = world.channel(
        name="on-call", kind="email", target="ops@shop.example, cto@shop.example"
    )
    made = world.firing_rule([channel["id"]])
    before = len(world.mailbox.messages)
    evaluate_after_ingest(world.settings, world.dataset_id)  # the ingest job's hook
    (evaluation,) = world.history(made["id"])
    assert evaluation["trigger"] == "ingest" and evaluation["outcome"] == "fired"
    (queued,) = evaluation["deliveries"]
    assert queued["status"] == "queued" and queued["channel_name"] == "on-call"
    deliver([queued["id"]])
    (message,) = world.mailbox.messages[before:]
    assert message["To"] == "ops@shop.example, cto@shop.example"
    assert message["From"] == "alerts@headroom.example"
    assert message["Subject"] == "[Headroom] errors fired on shop.log"
    body = message.get_payload(decode=True).decode()
    assert evaluation["message"] in body
    assert f"https://headroom.example/datasets/{world.dataset_id}?tab=alerts" in body
    sender, recipients = world.mailbox.envelopes[-1]
    assert sender == "alerts@headroom.example"
    assert recipients == ["ops@shop.example", "cto@shop.example"]
    (sent,) = world.history(made["id"])[0]["deliveries"]
    assert sent["status"] == "sent" and sent["attempts"] == 1 and sent["last_error"] is None


def test_slack_gets_text_and_the_webhook_a_signed_body(world: World) -> None:
    with http_receiver() as slack, http_receiver() as hook:
        slack_channel = world.channel(name="slack", kind="slack", target=slack.url)
        hook_channel = world.channel(name="hook", kind="webhook", target=hook.url)
        assert slack_channel["secret"] is None and hook_channel["secret"].startswith("hws_")
        hook.secret = hook_channel["secret"]
        made = world.firing_rule([slack_channel["id"], hook_channel["id"]])
        (evaluation,) = world.post(f"/api/v1/datasets/{world.dataset_id}/alert-rules/evaluate")
        deliver([d["id"] for d in evaluation["deliveries"]])
    (slack_request,) = slack.requests
    text = json.loads(slack_request.body)
    assert set(text) == {"text"} and evaluation["message"] in text["text"]
    (hook_request,) = hook.requests
    assert hook.verified == [True]
    payload = json.loads(hook_request.body)
    assert payload["event"] == "alert.fired" and hook_request.headers["x-headroom-event"] == "alert"
    assert payload["evaluation"]["value"] == pytest.approx(world.share, rel=1e-12)
    assert payload["rule"]["id"] == made["id"] and payload["dataset"]["id"] == world.dataset_id
    hook.requests.clear()
    hook.check(hook_request.headers, hook_request.body.replace(b"alert.fired", b"alert.fixed"))
    assert hook.verified == [True, False]  # a changed body does not verify
    statuses = {d["channel_name"]: d["status"] for d in world.history(made["id"])[0]["deliveries"]}
    assert statuses == {"slack": "sent", "hook": "sent"}


def test_a_failing_receiver_is_retried_then_the_failure_shows(world: World) -> None:
    with http_receiver(status=500) as broken:
        channel = world.channel(name="broken", kind="webhook", target=broken.url)
        made = world.firing_rule([channel["id"]])
        (evaluation,) = world.post(f"/api/v1/datasets/{world.dataset_id}/alert-rules/evaluate")
        deliver([d["id"] for d in evaluation["deliveries"]])
    attempts = 1 + world.settings.alert_max_retries
    assert len(broken.requests) == attempts
    ids = {r.headers["x-headroom-delivery"] for r in broken.requests}
    assert len(ids) == 1  # the same delivery each time
    (failed,) = world.history(made["id"])[0]["deliveries"]
    assert failed["status"] == "failed" and failed["attempts"] == attempts
    assert failed["last_error"] == "WebhookRefused: the receiver answered 500"
    ws = world.owner.workspace_id
    listed = world.client.get(f"/api/v1/workspaces/{ws}/alert-channels").json()
    (shown,) = [c for c in listed if c["id"] == channel["id"]]
    assert shown["last_delivery"]["status"] == "failed"


def test_test_channel_sends_a_test_message(world: World) -> None:
    with http_receiver() as hook:
        channel = world.channel(name="test-me", kind="webhook", target=hook.url)
        ws = world.owner.workspace_id
        queued = world.post(f"/api/v1/workspaces/{ws}/alert-channels/{channel['id']}/test")
        assert queued["status"] == "queued" and queued["purpose"] == "test"
        deliver([queued["id"]])
    (request,) = hook.requests
    assert request.headers["x-headroom-event"] == "test"
    listed = world.client.get(f"/api/v1/workspaces/{ws}/alert-channels").json()
    (shown,) = [c for c in listed if c["id"] == channel["id"]]
    assert shown["last_delivery"]["status"] == "sent"


def test_the_weekly_report_mails_the_datasets_with_links(world: World) -> None:
    world.channel(name="weekly", kind="email", target="team@shop.example", weekly_report=True)
    world.channel(name="not weekly", kind="email", target="nobody@shop.example")
    world.firing_rule([])
    world.post(f"/api/v1/datasets/{world.dataset_id}/alert-rules/evaluate")
    before = len(world.mailbox.messages)
    ids = queue_weekly_reports(world.settings, utcnow() + timedelta(minutes=1))
    assert len(ids) == 1
    deliver(ids)
    (message,) = world.mailbox.messages[before:]
    assert message["To"] == "team@shop.example"
    assert message["Subject"] == "[Headroom] Weekly report: Deliveries"
    body = message.get_payload(decode=True).decode()
    assert "- shop.log: " in body and " requests, p95 " in body
    assert f"https://headroom.example/datasets/{world.dataset_id}" in body
    fired = body.split("Alerts fired this week: ")[1].split("\n")[0]
    assert int(fired) >= 1
