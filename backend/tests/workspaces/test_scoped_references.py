"""A scenario's dataset references are looked up by a workspace-scoped repository query:
another workspace's dataset is "not a dataset of this workspace" (the same answer as an id
that does not exist, so existence is not revealed), at submit time and at run time, and the
lookup never reads a dataset outside the caller's workspace."""

from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from headroom.core.db import session_scope
from headroom.core.errors import InvalidInput
from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.datasets import repository as dataset_repository
from headroom.engine.capacity import synth
from headroom.engine.sim import ScenarioError
from headroom.jobs.runner import ingest_body, run_job
from headroom.simulations import references
from support.factories import Member, member, signed_in

FOREIGN = "not a dataset of this workspace"


def small_log() -> bytes:
    rates_per_s = [float(x) for x in np.linspace(5.0, 20.0, 4)]
    table = synth.queue_log(rates_per_s, 10.0, 25.0, 2, np.random.default_rng(5))
    return synth.combined_log(table, user_agent="refs/1.0")


def ready_dataset(settings: Settings, who: Member) -> int:
    client: TestClient = signed_in(settings, who)
    created = client.post(
        "/api/v1/datasets",
        params={"name": "refs.log"},
        content=small_log(),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert created.status_code == 202, created.text
    assert run_job(settings, created.json()["job"]["id"], ingest_body)
    return int(created.json()["id"])


def scenario(dataset_id: int) -> dict[str, Any]:
    return {"workload": {"arrivals": {"dataset": str(dataset_id)}}}


def test_another_workspaces_dataset_is_refused_like_a_missing_one(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = member(settings, "refs-a@example.com", "RefsA")
    theirs = member(settings, "refs-b@example.com", "RefsB")
    own_id, foreign_id = ready_dataset(settings, mine), ready_dataset(settings, theirs)
    asked: list[tuple[list[int], int]] = []
    scoped = dataset_repository.visible

    def spy(session: Any, workspace_ids: list[int], dataset_id: int) -> Any:
        asked.append((list(workspace_ids), dataset_id))
        return scoped(session, workspace_ids, dataset_id)

    monkeypatch.setattr(dataset_repository, "visible", spy)
    with session_scope(settings.resolved_database_url()) as session:
        references.check(session, mine.workspace_id, scenario(own_id))
        for number in (foreign_id, 999_999):
            with pytest.raises(InvalidInput, match=FOREIGN) as refused:
                references.check(session, mine.workspace_id, scenario(number))
            assert refused.value.field == "scenario.workload.arrivals.dataset"
        store = open_store(settings.resolved_storage_url())
        with pytest.raises(ScenarioError, match=FOREIGN):
            references.resolve(session, store, mine.workspace_id, scenario(foreign_id))
    assert asked[:2] == [([mine.workspace_id], own_id), ([mine.workspace_id], foreign_id)]
    assert all(ids == [mine.workspace_id] for ids, _ in asked)
