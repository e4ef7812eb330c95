"""Every table, imported in one place for Alembic and the tests."""

from headroom.alerts.models import AlertChannel, AlertDelivery, AlertEvaluation, AlertRule
from headroom.analyses.models import Analysis
from headroom.auth.models import ApiToken, User, UserSession
from headroom.characterizations.models import Characterization
from headroom.core.db import Base
from headroom.core.idempotency_models import IdempotencyRecord
from headroom.datasets.models import Dataset
from headroom.jobs.models import Job, Result
from headroom.reports.models import Report, ReportItem, ShareLink
from headroom.simulations.models import SimulationRun
from headroom.sources.models import PrometheusSource
from headroom.uploads.models import Upload
from headroom.workspaces.models import Invitation, Membership, Workspace

__all__ = [
    "AlertChannel",
    "AlertDelivery",
    "AlertEvaluation",
    "AlertRule",
    "Analysis",
    "ApiToken",
    "Base",
    "Characterization",
    "Dataset",
    "IdempotencyRecord",
    "Invitation",
    "Job",
    "Membership",
    "PrometheusSource",
    "Report",
    "ReportItem",
    "Result",
    "ShareLink",
    "SimulationRun",
    "Upload",
    "User",
    "UserSession",
    "Workspace",
]
