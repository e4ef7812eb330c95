"""Deleting a dataset while a worker saves a result for it: the delete waits for the worker's
commit and succeeds (on PostgreSQL the two used to take row locks in opposite orders and one
of them was aborted as a deadlock: a 500 on DELETE /datasets/{id})."""

import threading

import pytest
from sqlalchemy import select

from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.datasets.models import Dataset
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, Result
from support.factories import member

WORKER = "w1"


def dataset_with_running_job(settings: Settings) -> tuple[int, int]:
    owner = member(settings, "deleter@example.com", "Deletes")
    with session_scope(settings.resolved_database_url()) as session:
        dataset = Dataset(
            workspace_id=owner.workspace_id,
            name="access.log",
            size_bytes=1,
            sha256="0" * 64,
            storage_key="datasets/x",
        )
        session.add(dataset)
        session.flush()
        job = job_service.create(session, owner.workspace_id, "capacity", dataset.id)
        session.flush()
        dataset_id, job_id = dataset.id, job.id
    with session_scope(settings.resolved_database_url()) as session:
        assert job_service.claim(session, job_id, WORKER, lease_s=60)
    with session_scope(settings.resolved_database_url()) as session:  # a first result
        session.add(Result(job_id=job_id, dataset_id=dataset_id, kind="capacity", document={}))
    return dataset_id, job_id


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_a_delete_waits_for_a_worker_saving_a_result(settings: Settings) -> None:
    url = settings.resolved_database_url()
    dataset_id, job_id = dataset_with_running_job(settings)
    deleted = threading.Event()
    errors: list[Exception] = []

    def delete_dataset() -> None:
        try:
            with session_scope(url) as session:
                dataset = session.get(Dataset, dataset_id)
                session.delete(dataset)
            deleted.set()
        except Exception as error:  # the assertion below reports it
            errors.append(error)

    with session_scope(url) as worker:
        job_service.save_result(worker, job_id, WORKER, "capacity", {"n": 2}, dataset_id)
        deleter = threading.Thread(target=delete_dataset)
        deleter.start()
        assert not deleted.wait(0.5), "the delete went ahead of the worker's open transaction"
    deleter.join(timeout=30)
    assert not errors, errors
    with session_scope(url) as session:
        assert session.get(Dataset, dataset_id) is None
        assert session.scalars(select(Job).where(Job.id == job_id)).first() is None
        assert session.scalars(select(Result).where(Result.job_id == job_id)).first() is None
