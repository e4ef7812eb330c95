"""Datasets: register an upload, list, read, delete, and the traffic summary."""

from sqlalchemy.orm import Session

from headroom.auth import repository as auth_repository
from headroom.auth.models import User
from headroom.auth.principal import Principal
from headroom.auth.schemas import UserRef
from headroom.core.db import session_scope
from headroom.core.errors import HeadroomError, InvalidInput, NotFound, NotReady
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore
from headroom.datasets import parse_options, repository, staging
from headroom.datasets.meta import DatasetMetaJson, DetectionJson
from headroom.datasets.models import Dataset, DatasetStatus
from headroom.datasets.parse_options import ParseOptions
from headroom.datasets.schemas import (
    DatasetOut,
    DatasetPage,
    DatasetSort,
    DatasetSourceOut,
    ParseOptionsOut,
    TrafficSummaryOut,
)
from headroom.datasets.sniffing import Sniffed
from headroom.datasets.staging import StagedUpload
from headroom.jobs import repository as job_repository
from headroom.jobs import service as job_service
from headroom.jobs.models import Job, Result
from headroom.jobs.outbox import enqueue
from headroom.jobs.schemas import JobOut
from headroom.workspaces.models import Role

INGEST = "logs.ingest"


def resolve_workspace(principal: Principal, workspace_id: int | None) -> int:
    if workspace_id is not None:
        return workspace_id
    if len(principal.roles) == 1:
        return principal.workspace_ids[0]
    raise InvalidInput(
        "validation_error", "say which workspace: ?workspace_id=<id>", field="workspace_id"
    )


def require_upload_rights(principal: Principal, workspace_id: int) -> None:
    principal.require(workspace_id, Role.editor)


def register_upload(
    session: Session,
    store: ObjectStore,
    principal: Principal,
    workspace_id: int,
    staged: StagedUpload,
    sniffed: Sniffed,
    options: ParseOptions | None = None,
) -> tuple[Dataset, Job | None]:
    """Turn a staged, sniffed file into a dataset with a queued ingest job, or return the
    existing dataset with the same bytes and options. On any refusal the staged file is
    deleted."""
    options = options or ParseOptions()
    try:
        require_upload_rights(principal, workspace_id)
        existing = same_upload(session, workspace_id, staged.sha256, options)
        if existing is not None:
            store.delete(staged.key)
            return existing, None
        dataset = new_dataset(session, principal, workspace_id, staged, meta_of(sniffed, options))
        store.move(staged.key, dataset.storage_key)
        return dataset, job_service.create(session, workspace_id, INGEST, dataset.id)
    except Exception:
        store.delete(staged.key)
        raise


def register_and_start(
    settings: Settings,
    store: ObjectStore,
    principal: Principal,
    workspace_id: int,
    staged: StagedUpload,
    sniffed: Sniffed,
    options: ParseOptions,
) -> tuple[DatasetOut, bool]:
    """The upload's short transaction and the ingest's sending, in a thread: both wait on
    servers (database, broker), which the event loop, serving every request, must not."""
    with session_scope(settings.resolved_database_url()) as session:
        dataset, job = register_upload(
            session, store, principal, workspace_id, staged, sniffed, options
        )
        out = to_out(session, dataset)
    if job is not None:
        enqueue(settings, INGEST, job.id)
    return out, job is not None


class ParseOptionsDiffer(HeadroomError):
    status_code, code = 409, "parse_options_differ"


def same_upload(
    session: Session, workspace_id: int, sha256: str, options: ParseOptions
) -> Dataset | None:
    """The dataset these bytes already are, when they were read with the same options; a
    409 naming it when they were read with others (its results would not be these)."""
    existing = repository.by_sha256(session, workspace_id, sha256)
    if existing is None:
        return None
    theirs = parse_options.from_meta(existing.meta)
    if theirs != options:
        raise ParseOptionsDiffer(
            f"this file is already dataset {existing.id} ({existing.name}), read with other "
            f"parse options ({_describe(theirs)}, not {_describe(options)}); delete it to "
            "upload the file again with these options",
            detail={"dataset_id": existing.id, "parse_options": theirs.to_meta()},
        )
    return existing


def _describe(options: ParseOptions) -> str:
    read_as = options.log_format or options.format or "detected format"
    return f"{read_as}, zip members: {options.zip_members}"


def new_dataset(
    session: Session,
    principal: Principal,
    workspace_id: int,
    staged: StagedUpload,
    meta: DatasetMetaJson,
) -> Dataset:
    """The dataset's row, with the key its file goes to (not moved there yet)."""
    dataset = Dataset(
        workspace_id=workspace_id,
        name=staged.name,
        size_bytes=staged.size_bytes,
        sha256=staged.sha256,
        format=meta["detection"]["format"],
        storage_key="",
        status=DatasetStatus.uploaded,
        uploaded_by_id=principal.user.id,
        meta=meta,
    )
    session.add(dataset)
    session.flush()
    dataset.storage_key = f"datasets/{dataset.id}/upload/{staged.name}"
    return dataset


def meta_of(sniffed: Sniffed, options: ParseOptions) -> DatasetMetaJson:
    detection: DetectionJson = {
        "format": sniffed.format,
        "confidence": sniffed.confidence,
        "notes": list(sniffed.notes),
    }
    return {"detection": detection, parse_options.META_KEY: options.to_meta()}


def get_visible(session: Session, principal: Principal, dataset_id: int) -> Dataset:
    dataset = repository.visible(session, principal.workspace_ids, dataset_id)
    if dataset is None:
        raise NotFound(f"dataset {dataset_id} not found")
    return dataset


def list_page(
    session: Session,
    principal: Principal,
    workspace_id: int | None,
    limit: int,
    offset: int,
    name_contains: str | None = None,
    sort: DatasetSort = DatasetSort.newest,
) -> DatasetPage:
    scope = principal.workspace_ids
    if workspace_id is not None:
        principal.require(workspace_id, Role.viewer)
        scope = [workspace_id]
    rows, total = repository.page(session, scope, limit, offset, name_contains, sort)
    return DatasetPage(items=to_outs(session, rows), total=total)


def rename(session: Session, principal: Principal, dataset_id: int, name: str) -> DatasetOut:
    dataset = get_visible(session, principal, dataset_id)
    principal.require(dataset.workspace_id, Role.editor)
    dataset.name = staging.safe_name(name)  # the same rule as an upload's name
    session.commit()
    return to_out(session, dataset)


def delete(session: Session, store: ObjectStore, principal: Principal, dataset_id: int) -> None:
    dataset = get_visible(session, principal, dataset_id)
    principal.require(dataset.workspace_id, Role.editor)
    session.delete(dataset)
    session.commit()  # the rows go first: objects no row owns are the janitor's to remove
    store.delete_prefix(f"datasets/{dataset_id}")


def ingest_result(session: Session, dataset_id: int) -> Result | None:
    """The latest ingest's Result: the traffic summary and the request table's Parquet keys."""
    job = job_repository.latest_for_dataset(session, dataset_id, INGEST)
    return job_repository.result_for_job(session, job.id) if job else None


def summary(session: Session, principal: Principal, dataset_id: int) -> TrafficSummaryOut:
    dataset = get_visible(session, principal, dataset_id)
    result = ingest_result(session, dataset.id)
    if dataset.status != DatasetStatus.ready or result is None:
        raise NotReady(f"dataset {dataset_id} is {dataset.status}; its summary is not ready")
    return TrafficSummaryOut.model_validate(result.document)


def to_out(session: Session, dataset: Dataset) -> DatasetOut:
    return to_outs(session, [dataset])[0]


def to_outs(session: Session, datasets: list[Dataset]) -> list[DatasetOut]:
    """The datasets with their latest ingest job and uploader, in one query each."""
    jobs = job_repository.latest_for_datasets(session, [d.id for d in datasets], INGEST)
    uploader_ids = {d.uploaded_by_id for d in datasets if d.uploaded_by_id}
    uploaders = {u.id: u for u in auth_repository.users_by_id(session, uploader_ids)}
    return [_out(d, jobs.get(d.id), uploaders.get(d.uploaded_by_id or 0)) for d in datasets]


def _out(dataset: Dataset, job: Job | None, uploader: User | None) -> DatasetOut:
    detection = dataset.meta.get("detection") if dataset.meta else None
    return DatasetOut(
        id=dataset.id,
        workspace_id=dataset.workspace_id,
        name=dataset.name,
        size_bytes=dataset.size_bytes,
        sha256=dataset.sha256,
        format=dataset.format,
        status=DatasetStatus(dataset.status),
        created_at=dataset.created_at,
        uploaded_by=UserRef.model_validate(uploader) if uploader else None,
        job=JobOut.model_validate(job) if job else None,
        format_confidence=detection.get("confidence") if detection else None,
        notes=list(detection.get("notes") or []) if detection else [],
        parse_options=ParseOptionsOut(**parse_options.from_meta(dataset.meta).to_meta()),
        request_count=dataset.request_count,
        first_request_at=dataset.first_request_at,
        last_request_at=dataset.last_request_at,
        span_s=dataset.span_s,
        has_latency=dataset.has_latency,
        synthetic=dataset.synthetic,
        source=_source(dataset.meta),
    )


def _source(meta: DatasetMetaJson | None) -> DatasetSourceOut | None:
    """A Prometheus source's entry, or a receiver's (its kind and last receive time)."""
    found = meta.get("source") if meta else None
    if isinstance(found, dict):
        return DatasetSourceOut.model_validate(found)
    live = meta.get("live") if meta else None
    if isinstance(live, dict) and live.get("kind"):
        return DatasetSourceOut(
            kind=str(live["kind"]), live=True, refreshed_at=live.get("updated_at") or None
        )
    return None
