"""Who may do what with alerts: viewers read, editors and owners change; another
workspace's owner gets 404 for every rule, history and channel of this one; a channel
of another workspace cannot be attached; a webhook's secret is shown once and its URL
only to editors."""

from typing import Any

from alerts.conftest import AlertWorld

V1 = "/api/v1"


def made(world: AlertWorld) -> tuple[dict[str, Any], dict[str, Any]]:
    ws = world.workspace_id
    editor = world.clients["editor"]
    channel = editor.post(
        f"{V1}/workspaces/{ws}/alert-channels",
        json={"name": "hook", "kind": "webhook", "target": "https://hooks.example/T0/secret-path"},
    )
    assert channel.status_code == 201, channel.text
    rule = editor.post(
        f"{V1}/datasets/{world.plain_id}/alert-rules",
        json={
            "name": "errors",
            "kind": "error_rate_above",
            "threshold": 0.9,
            "channel_ids": [channel.json()["id"]],
            "enabled": False,
        },
    )
    assert rule.status_code == 201, rule.text
    return rule.json(), channel.json()


def calls(world: AlertWorld, rule_id: int, channel_id: int) -> dict[str, tuple[str, str]]:
    ws, ds = world.workspace_id, world.plain_id
    ch = f"{V1}/workspaces/{ws}/alert-channels"
    return {
        "list rules": ("GET", f"{V1}/datasets/{ds}/alert-rules"),
        "history": ("GET", f"{V1}/alert-rules/{rule_id}/evaluations"),
        "list channels": ("GET", ch),
        "add rule": ("POST", f"{V1}/datasets/{ds}/alert-rules"),
        "evaluate": ("POST", f"{V1}/datasets/{ds}/alert-rules/evaluate"),
        "change rule": ("PATCH", f"{V1}/alert-rules/{rule_id}"),
        "remove rule": ("DELETE", f"{V1}/alert-rules/{rule_id}"),
        "add channel": ("POST", ch),
        "change channel": ("PATCH", f"{ch}/{channel_id}"),
        "test channel": ("POST", f"{ch}/{channel_id}/test"),
        "remove channel": ("DELETE", f"{ch}/{channel_id}"),
    }


BODIES: dict[str, dict[str, Any]] = {
    "add rule": {"name": "x", "kind": "error_rate_above", "threshold": 0.5},
    "change rule": {"name": "renamed"},
    "add channel": {"name": "m", "kind": "email", "target": "a@b.example"},
    "change channel": {"name": "renamed"},
}
READS = ("list rules", "history", "list channels")


def test_viewers_read_and_cannot_change(world: AlertWorld) -> None:
    rule, channel = made(world)
    viewer = world.clients["viewer"]
    for name, (method, path) in calls(world, rule["id"], channel["id"]).items():
        got = viewer.request(method, path, json=BODIES.get(name))
        want = 200 if name in READS else 403
        assert got.status_code == want, f"{name}: {got.status_code} {got.text}"


def test_another_workspace_sees_nothing(world: AlertWorld) -> None:
    rule, channel = made(world)
    other = world.clients["other"]
    for name, (method, path) in calls(world, rule["id"], channel["id"]).items():
        got = other.request(method, path, json=BODIES.get(name))
        assert got.status_code == 404, f"{name}: {got.status_code} {got.text}"
        assert got.json()["error"]["code"] == "not_found"
    mine = other.post(
        f"{V1}/workspaces/{world.members['other'].workspace_id}/alert-channels",
        json={"name": "b", "kind": "email", "target": "b@b.example"},
    ).json()
    attach = world.clients["editor"].patch(
        f"{V1}/alert-rules/{rule['id']}", json={"channel_ids": [mine["id"]]}
    )
    assert attach.status_code == 422 and attach.json()["error"]["code"] == "invalid_channel"


def test_editors_change_everything(world: AlertWorld) -> None:
    rule, channel = made(world)
    editor = world.clients["editor"]
    for name, (method, path) in calls(world, rule["id"], channel["id"]).items():
        got = editor.request(method, path, json=BODIES.get(name))
        assert got.status_code < 300, f"{name}: {got.status_code} {got.text}"


def test_the_secret_is_shown_once_and_the_url_to_editors(world: AlertWorld) -> None:
    _, channel = made(world)
    assert channel["secret"].startswith("hws_") and channel["signed"] is True
    ws = world.workspace_id
    for who, target in (
        ("editor", "https://hooks.example/T0/secret-path"),
        ("viewer", "https://hooks.example/…"),
    ):
        listed = world.clients[who].get(f"{V1}/workspaces/{ws}/alert-channels").json()
        (shown,) = [c for c in listed if c["id"] == channel["id"]]
        assert "secret" not in shown and shown["target"] == target


def test_removing_a_channel_detaches_it_from_rules(world: AlertWorld) -> None:
    rule, channel = made(world)
    ws = world.workspace_id
    gone = world.clients["editor"].delete(f"{V1}/workspaces/{ws}/alert-channels/{channel['id']}")
    assert gone.status_code == 204
    listed = world.clients["viewer"].get(f"{V1}/datasets/{world.plain_id}/alert-rules").json()
    (mine,) = [r for r in listed if r["id"] == rule["id"]]
    assert mine["channel_ids"] == []


def test_bad_targets_are_refused_in_words(world: AlertWorld) -> None:
    ws = world.workspace_id
    for kind, target, words in (
        ("email", "not an address", "e-mail addresses"),
        ("slack", "ftp://example.com/x", "http:// or https://"),
    ):
        got = world.clients["editor"].post(
            f"{V1}/workspaces/{ws}/alert-channels",
            json={"name": "bad", "kind": kind, "target": target},
        )
        assert got.status_code == 422 and words in got.json()["error"]["message"]
