"""Analyses: create (idempotent per dataset and parameters), list, read."""

import hashlib
import json

from pydantic import TypeAdapter
from sqlalchemy.orm import Session

from headroom.analyses import repository
from headroom.analyses.documents import (
    AnalysisReport,
    CapacityReportDoc,
    SctReportDoc,
    stored_report,
)
from headroom.analyses.models import Analysis, AnalysisKind
from headroom.analyses.schemas import (
    AnalysisOut,
    AnalysisPage,
    AnalysisParamsIn,
    CapacityParamsIn,
    Recommendation,
    RecommendationList,
    SctParamsIn,
)
from headroom.auth.models import User
from headroom.auth.principal import Principal
from headroom.auth.schemas import UserRef
from headroom.core.errors import HeadroomError
from headroom.core.settings import Settings
from headroom.datasets import service as dataset_service
from headroom.datasets import slices
from headroom.datasets.models import Dataset
from headroom.jobs import derived
from headroom.jobs import repository as job_repository
from headroom.jobs.models import Job
from headroom.jobs.schemas import JobOut
from headroom.workspaces.models import Role

CAPACITY_TASK = "capacity.analyze"  # runs every kind of analysis (run.analysis_body)
TRACE_FORMATS = ("trace_csv", "trace_jsonl", "otlp")
PARAMS = TypeAdapter[CapacityParamsIn | SctParamsIn](AnalysisParamsIn)


class NotATrace(HeadroomError):
    status_code, code = 422, "not_a_trace"


class AnalysisNotDone(HeadroomError):
    status_code, code = 409, "analysis_not_done"


class NoLatency(HeadroomError):
    status_code, code = 422, "no_latency"


class LogTooShort(HeadroomError):
    status_code, code = 422, "log_too_short"


MIN_WINDOWS = 5  # windows a knee curve needs at the least (one load bin)
NO_LATENCY = (
    "this log records no response times, and a capacity analysis needs them: log them "
    "(Apache %D, nginx $request_time, IIS time-taken) or upload a latency trace"
)


def _check_data(session: Session, dataset: Dataset, params: CapacityParamsIn) -> None:
    """What the ingest already knows rules a capacity analysis out before it is queued."""
    ingested = dataset_service.ingest_result(session, dataset.id)
    doc = ingested.document if ingested is not None and isinstance(ingested.document, dict) else {}
    latency = doc.get("latency")
    if "latency" in doc and not (isinstance(latency, dict) and latency.get("count")):
        raise NoLatency(NO_LATENCY, field="dataset")
    span_s = doc.get("span_s")
    window = params.slice
    if window is not None and window.from_ms is not None and window.to_ms is not None:
        span_s = min(span_s, (window.to_ms - window.from_ms) / 1000) if span_s else None
    if isinstance(span_s, int | float) and span_s < MIN_WINDOWS * params.window_s:
        raise LogTooShort(
            f"this log spans {span_s:.0f} s, fewer than {MIN_WINDOWS} windows of "
            f"{params.window_s:g} s: use shorter windows or a longer log",
            field="window_s",
            detail={"span_s": span_s, "min_windows": MIN_WINDOWS},
        )


def stored_params(params: CapacityParamsIn | SctParamsIn) -> dict[str, object]:
    """The parameters as stored (the kind is the analysis' own column)."""
    stored = params.model_dump(mode="json", exclude={"kind", "slice"})
    if stored.get("service", "") is None:
        del stored["service"]  # the key analyses made before the filter existed keep
    part = slices.normalized(params.slice)
    if part is not None:  # absent for the whole dataset: older analyses keep their key
        stored["slice"] = part.stored()
    return stored


def params_of(analysis: Analysis) -> CapacityParamsIn | SctParamsIn:
    return PARAMS.validate_python({**analysis.params, "kind": analysis.kind})


def params_key(params: CapacityParamsIn | SctParamsIn) -> str:
    """The hash of the canonical parameters (defaults filled in, keys sorted)."""
    canonical = json.dumps(stored_params(params), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _check_input(dataset: Dataset, params: CapacityParamsIn | SctParamsIn) -> None:
    derived.require_ready(dataset, "analyses need")
    if params.kind == "sct" and (dataset.format or "").split(":")[0] not in TRACE_FORMATS:
        raise NotATrace(
            f"dataset {dataset.id} is an access log ({dataset.format}): the SCT model needs a "
            "latency trace (CSV or JSON lines with arrival and departure or duration per "
            "request, millisecond resolution); run a capacity analysis on access logs",
            field="kind",
        )


def create(
    session: Session,
    principal: Principal,
    dataset_id: int,
    params: CapacityParamsIn | SctParamsIn,
) -> tuple[Analysis, Job | None]:
    """A new analysis with a queued job, or the existing one with these parameters."""
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    principal.require(dataset.workspace_id, Role.editor)
    _check_input(dataset, params)
    slices.where_of(params.slice, "slice.")  # a bad slice: 422 naming its field
    if isinstance(params, CapacityParamsIn):
        _check_data(session, dataset, params)
    key = params_key(params)
    return derived.create_or_reuse(
        session,
        lambda: repository.by_params(session, dataset.id, params.kind, key),
        dataset,
        CAPACITY_TASK,
        lambda job_id: Analysis(
            workspace_id=dataset.workspace_id,
            dataset_id=dataset.id,
            kind=AnalysisKind(params.kind),
            params=stored_params(params),
            params_key=key,
            job_id=job_id,
            created_by_id=principal.user.id,
        ),
        "analysis",
    )


def start(
    session: Session,
    principal: Principal,
    settings: Settings,
    dataset_id: int,
    params: CapacityParamsIn | SctParamsIn,
) -> tuple[Analysis, bool]:
    """`create`, its job (if any) started after the commit; True when a job was started."""
    return derived.start(session, settings, *create(session, principal, dataset_id, params))


def get_visible(session: Session, principal: Principal, analysis_id: int) -> Analysis:
    return derived.get_visible(session, principal, Analysis, analysis_id, "analysis")


def list_page(
    session: Session, principal: Principal, dataset_id: int, limit: int, offset: int
) -> AnalysisPage:
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    items, total = derived.page(
        session, Analysis, dataset.id, limit, offset, lambda a: to_out(session, a, False)
    )
    return AnalysisPage(items=items, total=total)


def _report(session: Session, analysis: Analysis) -> AnalysisReport:
    document = derived.result_of(session, analysis)
    if document is None:
        job = derived.job_of(session, analysis)
        status = "without a job" if job is None else str(job.status)
        raise AnalysisNotDone(
            f"analysis {analysis.id} is {status}: recommendations need its finished report",
            detail={"status": None if job is None else str(job.status)},
        )
    return stored_report(analysis.kind, document)


def recommendations(
    session: Session, principal: Principal, analysis_id: int, thresholds_s: dict[str, float]
) -> RecommendationList:
    """The finished analysis' recommendations: a capacity report's at the given thresholds
    (the analysis' own for the classes left out), an SCT report's per server."""
    from headroom.engine import recommend  # numpy and the simulator: loaded on first use

    analysis = get_visible(session, principal, analysis_id)
    report = _report(session, analysis)
    params = params_of(analysis)
    if isinstance(params, CapacityParamsIn) and isinstance(report, CapacityReportDoc):
        document = report.model_dump(mode="json")  # the engine reads plain JSON
        used = {**recommend.default_thresholds(document), **thresholds_s}
        used = {name: t for name, t in used.items() if name in report.classes}
        recs = recommend.capacity_recommendations(document, params.percentile, used)
    else:
        used = {}
        servers = report.servers.items() if isinstance(report, SctReportDoc) else ()
        found = (
            recommend.sct_recommendation(name, server.model_dump(mode="json"))
            for name, server in servers
        )
        recs = [rec for rec in found if rec is not None]
    return RecommendationList(
        analysis_id=analysis.id,
        thresholds_s=used,
        items=[Recommendation.model_validate(rec) for rec in recs],
    )


def to_out(session: Session, analysis: Analysis, with_result: bool = True) -> AnalysisOut:
    job = derived.job_of(session, analysis)
    document = derived.result_of(session, analysis) if with_result else None
    result = stored_report(analysis.kind, document) if document is not None else None
    creator = session.get(User, analysis.created_by_id) if analysis.created_by_id else None
    return AnalysisOut(
        id=analysis.id,
        workspace_id=analysis.workspace_id,
        dataset_id=analysis.dataset_id,
        kind=AnalysisKind(analysis.kind),
        params=params_of(analysis),
        created_at=analysis.created_at,
        created_by=UserRef.model_validate(creator) if creator else None,
        job=JobOut.model_validate(job) if job else None,
        result=result,
    )


def derived_sla(session: Session, dataset_id: int) -> dict[str, float] | None:
    """The SLA (percentile, threshold_s) the dataset's newest finished capacity analysis
    derived for all its requests (else for its first class with one); None without one."""
    rows, _ = job_repository.derived_page(session, Analysis, dataset_id, 50, 0)
    for analysis in rows:
        document = derived.result_of(session, analysis)
        if analysis.kind != AnalysisKind.capacity or document is None:
            continue
        classes = CapacityReportDoc.model_validate(document).classes
        ordered = sorted(classes.items(), key=lambda item: item[0] != "all")
        for _, report in ordered:
            sla = report.sla
            if sla is not None and sla.threshold_s:
                return {"percentile": float(sla.percentile), "threshold_s": sla.threshold_s}
    return None
