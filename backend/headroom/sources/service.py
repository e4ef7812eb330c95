"""Prometheus sources: settings with an encrypted credential, a connection test, and the
import that (re)writes the source's live dataset of per-interval series (docs/sources.md)."""

import hashlib
import math
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core.errors import InvalidInput, NotFound
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore
from headroom.datasets.meta import updated
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.datasets.service import resolve_workspace
from headroom.jobs import outbox
from headroom.jobs import service as job_service
from headroom.jobs.models import Job
from headroom.jobs.schemas import JobOut
from headroom.sources import repository, secrets
from headroom.sources.documents import FORMAT as FORMAT
from headroom.sources.documents import RESULT_KIND, source_meta
from headroom.sources.models import PrometheusSource
from headroom.sources.schemas import (
    BreachList,
    BreachOut,
    ConnectionTestOut,
    ImportRange,
    LatencyIntervalOut,
    PrometheusLatencyOut,
    PrometheusSourceIn,
    PrometheusSourceOut,
    PrometheusSourceUpdate,
    PrometheusTrafficOut,
    SlaTargetOut,
)
from headroom.workspaces.models import Role

IMPORT_TASK = "sources.prometheus_import"


def create(
    session: Session, settings: Settings, principal: Principal, body: PrometheusSourceIn
) -> PrometheusSource:
    workspace_id = resolve_workspace(principal, body.workspace_id)
    principal.require(workspace_id, Role.editor)
    fields = body.model_dump(exclude={"workspace_id", "secret", "base_url"})
    source = PrometheusSource(workspace_id=workspace_id, base_url=str(body.base_url), **fields)
    _set_secret(settings, source, body.secret)
    _check_auth(source)
    session.add(source)
    session.flush()
    return source


def update(
    session: Session,
    settings: Settings,
    principal: Principal,
    source_id: int,
    body: PrometheusSourceUpdate,
) -> PrometheusSource:
    source = get_visible(session, principal, source_id, Role.editor)
    given = body.model_dump(exclude_unset=True)
    if "secret" in given:
        _set_secret(settings, source, given.pop("secret"))
    if "base_url" in given and given["base_url"] is not None:
        given["base_url"] = str(given["base_url"])
    for name, value in given.items():
        if value is not None or name in ("latency_selector", "class_label", "error_label"):
            setattr(source, name, value)
    _check_auth(source)
    session.flush()
    return source


def delete(session: Session, principal: Principal, source_id: int) -> None:
    """The source goes; its dataset stays (no longer refreshed)."""
    source = get_visible(session, principal, source_id, Role.editor)
    if source.dataset_id is not None:
        dataset = session.get(Dataset, source.dataset_id)
        if dataset is not None:
            dataset.meta = updated(dataset.meta, source=source_meta(source, live=False))
    session.delete(source)


def _set_secret(settings: Settings, source: PrometheusSource, secret: str | None) -> None:
    source.secret_encrypted = secrets.encrypt(settings.secret_key, secret) if secret else None


def _check_auth(source: PrometheusSource) -> None:
    if source.auth == "basic" and not source.username:
        raise InvalidInput("invalid_source", "basic auth needs a username")
    if source.auth != "none" and source.secret_encrypted is None:
        word = "token" if source.auth == "bearer" else "password"
        raise InvalidInput("invalid_source", f"{source.auth} auth needs a {word} (secret)")


def get_visible(
    session: Session, principal: Principal, source_id: int, role: Role = Role.viewer
) -> PrometheusSource:
    source = repository.visible(session, principal.workspace_ids, source_id)
    if source is None:
        raise NotFound(f"source {source_id} not found")
    principal.require(source.workspace_id, role)
    return source


def list_sources(session: Session, principal: Principal) -> list[PrometheusSourceOut]:
    return [to_out(session, s) for s in repository.listed(session, principal.workspace_ids)]


def to_out(session: Session, source: PrometheusSource) -> PrometheusSourceOut:
    job = session.get(Job, source.job_id) if source.job_id is not None else None
    return PrometheusSourceOut(
        id=source.id,
        workspace_id=source.workspace_id,
        name=source.name,
        base_url=source.base_url,
        auth=source.auth,
        username=source.username,
        has_secret=source.secret_encrypted is not None,
        requests_selector=source.requests_selector,
        latency_selector=source.latency_selector,
        class_label=source.class_label,
        error_label=source.error_label,
        error_pattern=source.error_pattern,
        step_s=source.step_s,
        window_s=source.window_s,
        refresh=source.refresh,
        dataset_id=source.dataset_id,
        job=JobOut.model_validate(job) if job is not None else None,
        last_refresh_at=source.last_refresh_at,
        last_error=source.last_error,
        last_summary=source.last_summary,
        created_at=source.created_at,
    )


def test_connection(settings: Settings, source: PrometheusSource) -> ConnectionTestOut:
    """The server's version and how many request-counter series the selector matches in
    the source's window."""
    from headroom.sources import prometheus_client as prom

    try:
        with prom.client(source.base_url, secrets.auth_of(settings, source)) as http:
            version = prom.check(http)
            found = prom.instant_count(http, source.requests_selector, source.window_s)
    except (prom.PrometheusError, secrets.CredentialUnreadable) as error:
        return ConnectionTestOut(ok=False, reason=str(error))
    if found == 0:
        message = f"the selector {source.requests_selector!r} matches no series in the window"
        return ConnectionTestOut(ok=False, version=version, series=0, reason=message)
    return ConnectionTestOut(ok=True, version=version, series=found)


def import_now(
    session: Session,
    settings: Settings,
    principal: Principal,
    source_id: int,
    span: ImportRange | None = None,
) -> PrometheusSource:
    """Queues an import of the source now (an editor's request): committed, then sent."""
    source = get_visible(session, principal, source_id, Role.editor)
    outbox.start(session, settings, start_import(session, source, span))
    return source


def start_import(
    session: Session, source: PrometheusSource, span: ImportRange | None = None
) -> Job:
    """Queues an import of the given range or else of the source's rolling window
    (creating its dataset the first time); the caller commits, then enqueues the job."""
    span = span or ImportRange()
    if (span.start is None) != (span.end is None):
        raise InvalidInput("invalid_range", "give both start and end, or neither")
    if span.start is not None and span.end is not None and span.end <= span.start:
        raise InvalidInput("invalid_range", "the end must be after the start")
    source.range_start, source.range_end = _utc(span.start), _utc(span.end)
    dataset = session.get(Dataset, source.dataset_id) if source.dataset_id is not None else None
    if dataset is None:
        dataset = _new_dataset(session, source)
    job = job_service.create(session, source.workspace_id, IMPORT_TASK, dataset.id)
    source.job_id = job.id
    return job


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _new_dataset(session: Session, source: PrometheusSource) -> Dataset:
    identity = f"prometheus-source:{source.id}:{uuid.uuid4().hex}"
    dataset = Dataset(
        workspace_id=source.workspace_id,
        name=source.name,
        size_bytes=0,
        sha256=hashlib.sha256(identity.encode()).hexdigest(),
        format=FORMAT,
        status=DatasetStatus.processing,
        storage_key=f"sources/prometheus/{source.id}",
        meta={"source": source_meta(source, live=True)},
    )
    session.add(dataset)
    session.flush()
    source.dataset_id = dataset.id
    return dataset


def queue_due(session: Session, settings: Settings, now: datetime | None = None) -> list[int]:
    """Imports for every scheduled source not refreshed within the refresh interval."""
    now = now or datetime.now(UTC)
    before = now - timedelta(seconds=settings.source_refresh_interval_s * 0.9)
    return [start_import(session, s).id for s in repository.due(session, before)]


def interval_result(session: Session, dataset_id: int, status: str) -> Any:
    """The latest import's Result of a source's dataset (its interval table's keys)."""
    from headroom.datasets.arrivals import DatasetNotReady

    result = repository.latest_result(session, dataset_id, RESULT_KIND)
    if status != DatasetStatus.ready or result is None or not result.table_keys:
        raise DatasetNotReady(f"dataset {dataset_id} is {status}; no import has finished yet")
    return result


def latency(
    session: Session, store: ObjectStore, principal: Principal, dataset_id: int
) -> PrometheusLatencyOut:
    """A source's dataset's percentiles per interval with the histogram's bucket bounds
    (any member of its workspace may read it)."""
    from headroom.datasets.service import get_visible
    from headroom.sources.latency import latency_table

    dataset = get_visible(session, principal, dataset_id)
    if dataset.format != FORMAT:
        raise InvalidInput("not_a_source_dataset", f"dataset {dataset_id} is not kept by a source")
    result = interval_result(session, dataset.id, str(dataset.status))
    table = latency_table(store, result)
    step_s = float((result.document or {}).get("step_s") or 60.0)
    return PrometheusLatencyOut(
        dataset_id=dataset.id,
        step_s=step_s,
        bucket_bounds_s=table.bounds_s,
        intervals=[
            LatencyIntervalOut(
                t=datetime.fromtimestamp(float(t), UTC),
                p50_s=_finite(table.percentiles["p50_s"][i]),
                p95_s=_finite(table.percentiles["p95_s"][i]),
                p99_s=_finite(table.percentiles["p99_s"][i]),
                p95_bucket_low_s=_finite(table.p95_low_s[i]),
                p95_bucket_high_s=_finite(table.p95_high_s[i]),
            )
            for i, t in enumerate(table.start_s)
        ],
    )


def traffic(
    session: Session,
    store: ObjectStore,
    principal: Principal,
    dataset_id: int,
    from_ms: int | None = None,
    to_ms: int | None = None,
) -> PrometheusTrafficOut:
    """A source's dataset's figures and rates over the intervals starting in the range
    (any member of its workspace may read them)."""
    from headroom.datasets.service import get_visible
    from headroom.sources.traffic import traffic_of

    dataset = get_visible(session, principal, dataset_id)
    if dataset.format != FORMAT:
        raise InvalidInput("not_a_source_dataset", f"dataset {dataset_id} is not kept by a source")
    result = interval_result(session, dataset.id, str(dataset.status))
    source = repository.of_dataset(session, dataset.id)
    errors_recorded = source is None or source.error_label is not None
    return traffic_of(store, result, dataset.id, from_ms, to_ms, errors_recorded)


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def list_breaches(
    session: Session, principal: Principal, source_id: int, limit: int, offset: int
) -> BreachList:
    """The SLA breaches refreshes of the source's dataset recorded (viewers may read)."""
    from headroom.sources.breaches import sla_target

    source = get_visible(session, principal, source_id)
    if source.dataset_id is None:
        return BreachList(target=None, items=[])
    target = sla_target(session, source.dataset_id)
    rows = repository.breaches(session, source.dataset_id, limit, offset)
    return BreachList(
        target=None if target is None else SlaTargetOut.model_validate(target.__dict__),
        items=[BreachOut.model_validate(b) for b in rows],
    )
