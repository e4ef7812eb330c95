"""A result a job derives from a dataset (a capacity analysis, a workload characterization):
made once per input and reused when asked again, run again when its job died of our
fault, its job started after the commit, listed per dataset, its job body guarded the same
way (a simulation's job body too). The domains keep their inputs, their keys and their
documents."""

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import APIRouter, Response
from pydantic import BaseModel, JsonValue
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.db import session_scope
from headroom.core.errors import HeadroomError, NotFound
from headroom.core.settings import Settings
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.jobs import outbox
from headroom.jobs import repository as job_repository
from headroom.jobs import service as job_service
from headroom.jobs.models import DerivedRow, Job, JobStatus

if TYPE_CHECKING:  # the runner loads the ingest (polars): the API imports this module
    from headroom.jobs.runner import JobContext

log = logging.getLogger(__name__)
RERUN = frozenset({"internal_error", "transient_error"})  # failures that were not the input's

D = TypeVar("D", bound=DerivedRow)
Out = TypeVar("Out")
F = TypeVar("F", bound=Callable[..., Any])


class DatasetNotReady(HeadroomError):
    status_code, code = 409, "dataset_not_ready"


class DerivedConflict(HeadroomError):
    status_code, code = 409, "conflict"


def create_route(
    router: APIRouter, path: str, model: type[BaseModel], same: str, errors: dict[int, str]
) -> Callable[[F], F]:
    """The POST route that creates a derived result: 202 and its Location when a job is
    queued, 200 with the existing one for the same input, 409 before the ingest, `errors`
    the route's other refusals by status code."""
    responses: dict[int | str, dict[str, object]] = {
        200: {"model": model, "description": same},
        409: {"description": "dataset_not_ready: the dataset has not been ingested"},
    }
    responses.update({code: {"description": text} for code, text in errors.items()})
    return router.post(
        path,
        response_model=model,
        status_code=202,
        response_description="Queued: its job runs in the background; Location names it",
        responses=responses,
    )


def answer(response: Response, started: bool, location: str) -> None:
    """202 naming the new result in Location when a job was started, else 200."""
    if started:
        response.headers["Location"] = location
    else:
        response.status_code = 200


def require_ready(dataset: Dataset, needs: str) -> None:
    """409 unless the dataset is ingested (`needs`: "analyses need" or the like)."""
    if dataset.status != DatasetStatus.ready:
        raise DatasetNotReady(
            f"dataset {dataset.id} is {dataset.status}: {needs} an ingested dataset",
            detail={"status": str(dataset.status)},
        )


def rerun_if_broken(session: Session, row: DerivedRow, task: str) -> Job | None:
    """A new job when the last one died of our fault (a bug, an outage), never for bad input:
    asking again is then how a user retries; the failed job stays on record."""
    job = job_of(session, row)
    if job is not None and not (job.status == JobStatus.failed and job.error_code in RERUN):
        return None
    job = job_service.create(session, row.workspace_id, task, row.dataset_id)
    row.job_id = job.id
    return job


def create_or_reuse(
    session: Session,
    find: Callable[[], D | None],
    dataset: Dataset,
    task: str,
    new: Callable[[int], D],
    what: str,
) -> tuple[D, Job | None]:
    """The row `find` returns for this input (its job rerun when broken), or `new(job_id)`
    with a queued job. When the same input was created at the same moment (a user's second
    click, the ingest's own follow-up), the row that won is reused: the loser's job and row
    go with its savepoint."""
    existing = find()
    if existing is not None:
        return existing, rerun_if_broken(session, existing, task)
    try:
        with session.begin_nested():
            job = job_service.create(session, dataset.workspace_id, task, dataset.id)
            row = new(job.id)
            session.add(row)
    except IntegrityError as error:
        winner = find()
        if winner is None:
            raise DerivedConflict(f"the same {what} was created just now; retry") from error
        return winner, rerun_if_broken(session, winner, task)
    return row, job


def start(session: Session, settings: Settings, row: D, job: Job | None) -> tuple[D, bool]:
    """The row, its job (if any) started after the commit; True when a job was started."""
    if job is not None:
        outbox.start(session, settings, job)
    return row, job is not None


def get_visible(
    session: Session, principal: Principal, model: type[D], row_id: int, what: str
) -> D:
    row = job_repository.derived_visible(session, model, principal.workspace_ids, row_id)
    if row is None:
        raise NotFound(f"{what} {row_id} not found")
    return row


def page(
    session: Session,
    model: type[D],
    dataset_id: int,
    limit: int,
    offset: int,
    out: Callable[[D], Out],
) -> tuple[list[Out], int]:
    """A page of the dataset's results of this kind, newest first, and the total."""
    rows, total = job_repository.derived_page(session, model, dataset_id, limit, offset)
    return [out(row) for row in rows], total


def job_of(session: Session, row: DerivedRow) -> Job | None:
    return session.get(Job, row.job_id) if row.job_id else None


def result_of(session: Session, row: DerivedRow) -> dict[str, JsonValue] | None:
    """The stored document of the row's job once it has succeeded, else None."""
    job = job_of(session, row)
    if job is None or job.status != JobStatus.succeeded:
        return None
    stored = job_repository.result_for_job(session, job.id)
    return stored.document if stored is not None else None


def row_of_job(session: Session, model: type[D], job_id: int, what: str) -> D:
    """The row a running job derives (its body's first read)."""
    row = job_repository.derived_by_job(session, model, job_id)
    if row is None:
        raise LookupError(f"the {what} of job {job_id} vanished")
    return row


def guarded(
    context: "JobContext",
    work: Callable[[], None],
    what: str,
    failures: Mapping[type[Exception], str] | None = None,
) -> None:
    """Runs a job body's `work`: bad input fails the job once with its stable code (never
    the dataset, whose status is the ingest's), as do the body's own expected errors
    (`failures`: the code each kind of error fails the job with, its text the message),
    an unexpected error as internal_error; transient errors and a lost job propagate to
    the runner."""
    from headroom.engine.logs import LogInputError  # in workers only (see the imports)
    from headroom.jobs.runner import TRANSIENT

    try:
        work()
    except (job_service.JobLost, *TRANSIENT):
        raise
    except LogInputError as error:
        fail(context.settings, context.job_id, context.worker, error.code, error.message)
    except Exception as error:
        code = _expected_code(error, failures or {})
        if code is not None:
            fail(context.settings, context.job_id, context.worker, code, str(error))
            return
        log.exception("%s job %s failed", what, context.job_id)
        message = f"unexpected error: {type(error).__name__}: {error}"
        fail(context.settings, context.job_id, context.worker, "internal_error", message)


def _expected_code(error: Exception, failures: Mapping[type[Exception], str]) -> str | None:
    return next((code for kind, code in failures.items() if isinstance(error, kind)), None)


def fail(settings: Settings, job_id: int, worker: str, code: str, message: str) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        job_service.fail_owned(session, job_id, worker, code, message)
