"""After each refresh of a Prometheus source: the SLA re-checked over the intervals the
refresh added (a breach recorded when their percentile exceeds the target), then the
dataset's alert rules evaluated (docs/sources.md, "Refreshes, the SLA and alerts")."""

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np
from sqlalchemy.orm import Session

from headroom.alerts import repository as alerts_repository
from headroom.alerts.models import RuleKind
from headroom.analyses.service import derived_sla
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.engine.capacity.prometheus import range_figures
from headroom.engine.prometheus import IntervalSeries
from headroom.sources.documents import RefreshedJson
from headroom.sources.models import SlaBreach

log = logging.getLogger(__name__)
RULE_PERCENTILE = 95.0  # a p95 rule's threshold is a p95 target


@dataclass(frozen=True)
class Target:
    percentile: float
    threshold_s: float
    source: str  # capacity_analysis | alert_rule


def sla_target(session: Session, dataset_id: int) -> Target | None:
    """The SLA the newest capacity analysis derived, else the tightest threshold of the
    dataset's enabled p95 rules; None when neither gives one."""
    derived = derived_sla(session, dataset_id)
    if derived is not None:
        return Target(derived["percentile"], derived["threshold_s"], "capacity_analysis")
    rules = alerts_repository.rules_for_dataset(session, dataset_id, enabled_only=True)
    limits = [
        r.threshold
        for r in rules
        if r.kind == RuleKind.p95_above_sla and r.threshold is not None and r.threshold > 0
    ]
    return Target(RULE_PERCENTILE, min(limits), "alert_rule") if limits else None


def refreshed_figures(series: IntervalSeries, since_s: float, end_s: float) -> RefreshedJson:
    """The figures of the intervals starting at or after ``since_s``."""
    intervals, requests, p95 = range_figures(series, since_s, 95.0)
    mine = (series.class_index == 0) & (series.start_s >= since_s)
    errors = float(np.nansum(series.errors[mine]))
    return {
        "start": datetime.fromtimestamp(since_s, UTC).isoformat(),
        "end": datetime.fromtimestamp(end_s, UTC).isoformat(),
        "intervals": intervals,
        "requests": requests,
        "latency_p95_s": p95,
        "error_rate": errors / requests if requests > 0 else None,
    }


def check_sla(
    session: Session,
    source_id: int,
    dataset_id: int,
    series: IntervalSeries,
    since_s: float,
    end_s: float,
) -> SlaBreach | None:
    """A breach (added to the session) when the new intervals' percentile exceeds the
    target; None within it, without a target, or without latencies in the range."""
    from headroom.datasets.models import Dataset

    target = sla_target(session, dataset_id)
    dataset = session.get(Dataset, dataset_id)
    if target is None or dataset is None:
        return None
    intervals, requests, observed = range_figures(series, since_s, target.percentile)
    if observed is None or observed <= target.threshold_s:
        return None
    breach = SlaBreach(
        workspace_id=dataset.workspace_id,
        source_id=source_id,
        dataset_id=dataset_id,
        range_start=datetime.fromtimestamp(since_s, UTC),
        range_end=datetime.fromtimestamp(end_s, UTC),
        percentile=target.percentile,
        observed_s=observed,
        threshold_s=target.threshold_s,
        target_from=target.source,
        intervals=intervals,
        requests=requests,
    )
    session.add(breach)
    return breach


def after_refresh(
    settings: Settings,
    source_id: int,
    dataset_id: int,
    series: IntervalSeries,
    since_s: float,
    end_s: float,
) -> None:
    """The import's hook once its table is in: never fails the import that called it."""
    from headroom.alerts.evaluation import evaluate_after_ingest

    try:
        with session_scope(settings.resolved_database_url()) as session:
            check_sla(session, source_id, dataset_id, series, since_s, end_s)
    except Exception:
        log.exception("the SLA of dataset %s was not checked after its refresh", dataset_id)
    evaluate_after_ingest(settings, dataset_id, "refresh")
