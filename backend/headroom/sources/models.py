from datetime import datetime

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from headroom.core.db import Base
from headroom.core.types import UtcDateTime, utcnow
from headroom.sources.documents import RangeSummaryJson


class PrometheusSource(Base):
    """A Prometheus server a workspace imports from; its dataset is kept current by the
    refresh schedule. ``secret_encrypted``: the bearer token or basic-auth password,
    encrypted with the app's secret (sources/secrets.py), never returned by the API."""

    __tablename__ = "prometheus_source"

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(255))
    base_url: Mapped[str] = mapped_column(String(2000))
    auth: Mapped[str] = mapped_column(String(10), default="none")  # none | bearer | basic
    username: Mapped[str | None] = mapped_column(String(255))
    secret_encrypted: Mapped[str | None] = mapped_column(Text)
    requests_selector: Mapped[str] = mapped_column(Text)
    latency_selector: Mapped[str | None] = mapped_column(Text)
    class_label: Mapped[str | None] = mapped_column(String(255))
    error_label: Mapped[str | None] = mapped_column(String(255))
    error_pattern: Mapped[str] = mapped_column(String(255), default="5..")
    step_s: Mapped[float] = mapped_column(default=60.0)
    window_s: Mapped[float] = mapped_column(default=7 * 86400.0)
    refresh: Mapped[bool] = mapped_column(default=True)
    # the range of the import queued last (null: the rolling window ending when it runs)
    range_start: Mapped[datetime | None] = mapped_column(UtcDateTime)
    range_end: Mapped[datetime | None] = mapped_column(UtcDateTime)
    dataset_id: Mapped[int | None] = mapped_column(ForeignKey("dataset.id", ondelete="SET NULL"))
    job_id: Mapped[int | None] = mapped_column(ForeignKey("job.id", ondelete="SET NULL"))
    last_refresh_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    last_error: Mapped[str | None] = mapped_column(Text)
    last_summary: Mapped[RangeSummaryJson | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SlaBreach(Base):
    """A refresh whose new intervals' latency percentile exceeded the dataset's SLA target
    (from its capacity analysis, else from a p95 alert rule's threshold)."""

    __tablename__ = "sla_breach"

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), index=True
    )
    source_id: Mapped[int | None] = mapped_column(
        ForeignKey("prometheus_source.id", ondelete="SET NULL"), index=True
    )
    dataset_id: Mapped[int] = mapped_column(
        ForeignKey("dataset.id", ondelete="CASCADE"), index=True
    )
    range_start: Mapped[datetime] = mapped_column(UtcDateTime)
    range_end: Mapped[datetime] = mapped_column(UtcDateTime)
    percentile: Mapped[float] = mapped_column(Float)
    observed_s: Mapped[float] = mapped_column(Float)
    threshold_s: Mapped[float] = mapped_column(Float)
    target_from: Mapped[str] = mapped_column(String(40))  # capacity_analysis | alert_rule
    intervals: Mapped[int] = mapped_column(Integer)
    requests: Mapped[float] = mapped_column(Float)
    detected_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
