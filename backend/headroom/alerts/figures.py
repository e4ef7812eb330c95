"""The figures rules read, as the product already stores them: the latest ingest's traffic
summary (p95 latency, 5xx share) and the newest finished capacity analysis' report (the
knee, the SLA target it derived)."""

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy.orm import Session

from headroom.alerts.payloads import FiguresJson
from headroom.analyses.documents import CapacityReportDoc
from headroom.analyses.models import Analysis, AnalysisKind
from headroom.datasets import service as dataset_service
from headroom.jobs import derived
from headroom.jobs import repository as job_repository

RECENT_ANALYSES = 50


@dataclass(frozen=True)
class Figures:
    has_summary: bool
    p95_s: float | None
    error_rate: float | None
    analysis_id: int | None  # the newest finished capacity analysis
    knee_per_s: float | None
    knee_class: str | None
    sla_threshold_s: float | None
    sla_percentile: float | None

    def as_dict(self) -> FiguresJson:
        return cast(FiguresJson, {k: v for k, v in self.__dict__.items() if v is not None})


def read(session: Session, dataset_id: int) -> Figures:
    stored = dataset_service.ingest_result(session, dataset_id)
    summary = stored.document if stored is not None and isinstance(stored.document, dict) else {}
    if not summary:
        summary = _refreshed(session, dataset_id)
    found_latency = summary.get("latency")
    latency = found_latency if isinstance(found_latency, dict) else None
    error_rate = summary.get("error_rate")
    found = latest_capacity(session, dataset_id)
    analysis_id, report = found if found is not None else (None, None)
    knee_class, knee, sla_s, sla_pct = _from_report(report)
    return Figures(
        has_summary=bool(summary),
        p95_s=float(latency["p95_s"]) if latency and latency.get("count") else None,
        error_rate=float(error_rate) if isinstance(error_rate, int | float) else None,
        analysis_id=analysis_id,
        knee_per_s=knee,
        knee_class=knee_class,
        sla_threshold_s=sla_s,
        sla_percentile=sla_pct,
    )


def latest_capacity(session: Session, dataset_id: int) -> tuple[int, CapacityReportDoc] | None:
    """The dataset's newest capacity analysis whose job succeeded, with its report."""
    rows, _ = job_repository.derived_page(session, Analysis, dataset_id, RECENT_ANALYSES, 0)
    for analysis in rows:
        document = derived.result_of(session, analysis)
        if analysis.kind == AnalysisKind.capacity and document is not None:
            return analysis.id, CapacityReportDoc.model_validate(document)
    return None


def _from_report(
    report: CapacityReportDoc | None,
) -> tuple[str | None, float | None, float | None, float | None]:
    """(class, knee load, SLA threshold, SLA percentile) of all requests' class when it has
    them, else of the first class that does."""
    if report is None:
        return None, None, None, None
    ordered = sorted(report.classes.items(), key=lambda item: item[0] != "all")
    knee = next(((n, c.knee.load_per_s) for n, c in ordered if c.knee is not None), None)
    sla = next((c.sla for _, c in ordered if c.sla is not None and c.sla.threshold_s), None)
    return (
        knee[0] if knee else None,
        float(knee[1]) if knee else None,
        float(sla.threshold_s) if sla else None,
        float(sla.percentile) if sla else None,
    )


def _refreshed(session: Session, dataset_id: int) -> dict[str, Any]:
    """A Prometheus dataset's figures over the range its last refresh added, in the
    traffic summary's shape (p95 null when the range has no latencies: not recorded)."""
    from headroom.sources.documents import RESULT_KIND
    from headroom.sources.repository import latest_result

    stored = latest_result(session, dataset_id, RESULT_KIND)
    document = stored.document if stored is not None and isinstance(stored.document, dict) else {}
    refreshed = document.get("refreshed")
    if not isinstance(refreshed, dict):
        return {}
    p95 = refreshed.get("latency_p95_s")
    return {
        "latency": {"count": 1 if p95 is not None else 0, "p95_s": p95},
        "error_rate": refreshed.get("error_rate"),
    }
