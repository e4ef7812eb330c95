"""`headroom admin create-user` and `create-token` on the configured database: the
membership gets the role asked for (a new workspace name makes a second workspace), bad
input exits 2, and a token is printed once as JSON, carries its expiry, works, and is
refused once that expiry has passed (the row's expiry is moved into the past)."""

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from headroom.api.app import create_app
from headroom.auth.models import ApiToken, User
from headroom.cli import main
from headroom.core.db import session_scope
from headroom.core.security import token_digest
from headroom.core.settings import Settings, get_settings
from headroom.workspaces.models import Membership, Workspace

PASSWORD = "a-long-enough-password"


@pytest.fixture
def admin(settings: Settings) -> Iterator[Settings]:
    """`headroom admin ...` runs against the test's database (the CLI reads the env)."""
    get_settings.cache_clear()
    yield settings
    get_settings.cache_clear()


def run(settings: Settings, *args: str, stdin: str = PASSWORD + "\n") -> Result:
    env = {
        "HEADROOM_DATABASE_URL": settings.resolved_database_url(),
        "HEADROOM_DATA_DIR": str(settings.data_dir),
    }
    get_settings.cache_clear()
    return CliRunner().invoke(main, ["admin", *args], input=stdin, env=env)


def create_user(
    settings: Settings, email: str, *options: str, stdin: str = PASSWORD + "\n"
) -> Result:
    return run(settings, "create-user", email, "--password-stdin", *options, stdin=stdin)


def roles(settings: Settings, email: str) -> dict[str, str]:
    with session_scope(settings.resolved_database_url()) as session:
        rows = session.execute(
            select(Workspace.name, Membership.role)
            .join(Membership, Membership.workspace_id == Workspace.id)
            .join(User, User.id == Membership.user_id)
            .where(User.email == email)
        )
        return {name: role for name, role in rows}


def test_create_user_gives_the_membership_its_role(admin: Settings) -> None:
    for role in ("owner", "editor", "viewer"):
        done = create_user(admin, f"{role}@example.com", "--workspace", "Team", "--role", role)
        assert done.exit_code == 0, done.output
        assert roles(admin, f"{role}@example.com") == {"Team": role}
    default = create_user(admin, "first@example.com", "--workspace", "Second")
    assert default.exit_code == 0, default.output
    assert roles(admin, "first@example.com") == {"Second": "owner"}  # a second workspace
    with session_scope(admin.resolved_database_url()) as session:
        assert sorted(session.scalars(select(Workspace.name))) == ["Second", "Team"]
    assert create_user(admin, "nobody@example.com").exit_code == 0
    assert roles(admin, "nobody@example.com") == {}  # no --workspace: no membership


def test_create_user_refuses_bad_input(admin: Settings) -> None:
    bad_role = create_user(admin, "x@example.com", "--workspace", "Team", "--role", "admin")
    assert bad_role.exit_code == 2 and "'admin' is not one of" in bad_role.output
    empty = create_user(admin, "x@example.com", stdin="\n")
    assert empty.exit_code == 2 and "empty password" in empty.output
    assert create_user(admin, "x@example.com").exit_code == 0
    again = create_user(admin, "X@example.com")
    assert again.exit_code == 1 and "already exists" in again.output
    with session_scope(admin.resolved_database_url()) as session:
        assert list(session.scalars(select(User.email))) == ["x@example.com"]


def create_token(settings: Settings, *options: str) -> Result:
    return run(settings, "create-token", "ci@example.com", "--workspace", "CI", *options)


def me(settings: Settings, token: str) -> int:
    client = TestClient(create_app(settings), headers={"Authorization": f"Bearer {token}"})
    return client.get("/api/v1/auth/me").status_code


def test_create_token_prints_json_with_expiry_and_is_refused_once_expired(
    admin: Settings,
) -> None:
    assert create_user(admin, "ci@example.com", "--workspace", "CI").exit_code == 0
    before = datetime.now(UTC)
    done = create_token(
        admin, "--scope", "read", "--scope", "write", "--expires-days", "7", "--json"
    )
    assert done.exit_code == 0, done.output
    printed = json.loads(done.stdout)
    assert list(printed) == ["token"] and printed["token"].startswith("hr_")
    digest = token_digest(printed["token"])
    with session_scope(admin.resolved_database_url()) as session:
        row = session.scalar(select(ApiToken).where(ApiToken.token_hash == digest))
        assert row is not None and row.scopes == "read write"
        assert row.expires_at is not None
        assert before + timedelta(days=7) <= row.expires_at <= datetime.now(UTC) + timedelta(days=7)
    assert me(admin, printed["token"]) == 200
    with session_scope(admin.resolved_database_url()) as session:
        past = datetime.now(UTC) - timedelta(seconds=1)
        session.execute(
            update(ApiToken).where(ApiToken.token_hash == digest).values(expires_at=past)
        )
    assert me(admin, printed["token"]) == 401


def test_create_token_without_expiry_and_its_refusals(admin: Settings) -> None:
    assert create_user(admin, "ci@example.com", "--workspace", "CI").exit_code == 0
    assert create_user(admin, "outsider@example.com", "--workspace", "Elsewhere").exit_code == 0
    plain = create_token(admin)
    assert plain.exit_code == 0 and plain.stdout.startswith("hr_")  # without --json: the token
    with session_scope(admin.resolved_database_url()) as session:
        row = session.scalar(select(ApiToken))
        assert row is not None and row.expires_at is None and row.scopes == "write"
    assert create_token(admin, "--expires-days", "0").exit_code == 2
    assert create_token(admin, "--scope", "root").exit_code == 2
    assert create_token(admin, "--expires-days", "soon").exit_code == 2
    no_workspace = run(admin, "create-token", "ci@example.com", "--workspace", "Nope")
    assert no_workspace.exit_code == 1 and "no workspace named 'Nope'" in no_workspace.output
    stranger = run(admin, "create-token", "outsider@example.com", "--workspace", "CI")
    assert stranger.exit_code == 1 and "not a member of 'CI'" in stranger.output
    with session_scope(admin.resolved_database_url()) as session:
        assert len(list(session.scalars(select(ApiToken)))) == 1
