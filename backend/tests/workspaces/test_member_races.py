"""The last-owner check under concurrency, on PostgreSQL: two owners demoting each other (or
both leaving) at the same moment, each in its own session and thread, leave one owner.

Each thread makes its change, then holds its transaction open until the other thread has
made its change too (or 2 s have passed) before committing. Without the row lock both
changes are made on the same two-owner snapshot and both commit, leaving no owner (the test
was run that way and failed); with it, the second thread waits in SELECT ... FOR UPDATE,
then sees the first one's commit and is refused."""

import threading
from collections.abc import Callable

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from headroom.core.db import session_scope
from headroom.core.errors import HeadroomError
from headroom.core.settings import Settings
from headroom.workspaces import service
from headroom.workspaces.models import Membership, Role
from support.factories import Member, member

Change = Callable[[Session], object]
HOLD_S = 2.0  # how long a thread keeps its transaction open waiting for the other


def race(settings: Settings, first: Change, second: Change) -> list[str]:
    """Runs both changes at once; each thread's outcome: 'ok' or the refusal's error code."""
    url = settings.resolved_database_url()
    done = [threading.Event(), threading.Event()]
    outcomes = ["", ""]

    def run(i: int, change: Change) -> None:
        try:
            with session_scope(url) as session:
                session.execute(select(func.now()))  # the transaction has begun
                change(session)
                done[i].set()
                done[1 - i].wait(HOLD_S)  # keep the transaction open while the other acts
            outcomes[i] = "ok"
        except HeadroomError as error:
            outcomes[i] = error.code
        finally:
            done[i].set()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def owners(settings: Settings, workspace_id: int) -> int:
    with session_scope(settings.resolved_database_url()) as session:
        query = select(func.count()).where(
            Membership.workspace_id == workspace_id, Membership.role == Role.owner.value
        )
        return session.scalar(query) or 0


@pytest.fixture
def two_owners(settings: Settings) -> tuple[Member, Member]:
    return member(settings, "ann@example.com", "Shop"), member(settings, "bob@example.com", "Shop")


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_two_owners_demoting_each_other_leave_one_owner(
    settings: Settings, two_owners: tuple[Member, Member]
) -> None:
    ann, bob = two_owners
    ws = ann.workspace_id
    outcomes = race(
        settings,
        lambda s: service.change_role(s, ws, bob.user_id, Role.editor, ann.user_id),
        lambda s: service.change_role(s, ws, ann.user_id, Role.editor, bob.user_id),
    )
    assert sorted(outcomes) == ["forbidden", "ok"]  # the loser is no longer an owner
    assert owners(settings, ws) == 1


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_two_owners_leaving_at_once_leave_one_owner(
    settings: Settings, two_owners: tuple[Member, Member]
) -> None:
    ann, bob = two_owners
    ws = ann.workspace_id
    outcomes = race(
        settings,
        lambda s: service.leave(s, ws, ann.user_id),
        lambda s: service.leave(s, ws, bob.user_id),
    )
    assert sorted(outcomes) == ["last_owner", "ok"]
    assert owners(settings, ws) == 1


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_an_owner_removing_the_other_while_being_demoted(
    settings: Settings, two_owners: tuple[Member, Member]
) -> None:
    ann, bob = two_owners
    ws = ann.workspace_id
    outcomes = race(
        settings,
        lambda s: service.remove(s, ws, bob.user_id, ann.user_id),
        lambda s: service.change_role(s, ws, ann.user_id, Role.viewer, bob.user_id),
    )
    assert sorted(outcomes) == ["forbidden", "ok"]
    assert owners(settings, ws) == 1
