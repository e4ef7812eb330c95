"""Configuration, from environment variables prefixed HEADROOM_ (nothing else)."""

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from headroom.core.memory import DEFAULT_MEMORY_BUDGET_MB

REPO_ROOT = Path(__file__).resolve().parents[3]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="HEADROOM_", extra="ignore")

    data_dir: Path = Field(default=Path("var"), description="Embedded-mode state lives here")
    database_url: str = ""  # default: SQLite file in data_dir
    broker_url: str = ""  # default: kombu filesystem transport in data_dir (no server)
    storage_url: str = ""  # default: file://<data_dir>/storage
    secret_key: str = "insecure-dev-key-change-me"
    static_dir: Path = REPO_ROOT / "frontend" / "dist"
    migrations_dir: Path = REPO_ROOT / "migrations"

    max_upload_bytes: int = 64 * 1024**3
    session_ttl_s: int = 14 * 24 * 3600
    cookie_secure: bool = False

    ingest_chunk_bytes: int = 32 * 1024**2
    # the peak a CLI or worker process aims to stay under
    memory_budget_mb: int = DEFAULT_MEMORY_BUDGET_MB
    parallel_ingest: bool | None = None  # None: parallel ranges when the broker is Redis
    # A running job whose heartbeat is older is re-queued: a killed worker's job runs again
    # within lease + reaper interval (+ a second to send it). Heartbeats come every lease/5.
    job_lease_s: float = 10.0
    reaper_interval_s: float = 2.0  # also how often a worker sends the outbox
    janitor_interval_s: float = 900.0  # how often a worker removes objects no row owns
    janitor_grace_s: float = 3600.0  # an object changed more recently is never removed
    resend_queued_after_s: float = 600.0  # a queued job not picked up by then is sent again
    task_max_retries: int = 5

    # teams and pipelines
    trust_forwarded_proto: bool = False  # behind a TLS proxy: X-Forwarded-Proto https -> Secure
    public_url: str = ""  # base of invitation links; default: the request's own base URL
    invitation_ttl_s: int = 7 * 24 * 3600
    smtp_url: str = ""  # smtp://user:pass@host:port (optional): invitations are e-mailed too
    smtp_from: str = "headroom@localhost"
    # alerts and the weekly report (docs/alerts.md); e-mail goes through smtp_url too
    alert_max_retries: int = Field(default=4, ge=0)  # a delivery is tried this many times more
    alert_retry_base_s: float = Field(default=30.0, ge=0)  # then 2x, 4x... (capped at an hour)
    alert_timeout_s: float = Field(default=10.0, gt=0)  # per SMTP or webhook attempt
    weekly_report_day: str = "mon"  # the weekly report's day (mon..sun) and hour (UTC)
    weekly_report_hour: int = Field(default=8, ge=0, le=23)
    rate_limit_ip_per_min: int = 1200  # requests without a token, per client address; 0: off
    rate_limit_token_per_min: int = 1200  # requests with an API token or session; 0: off
    # counters shared by API processes (rate limits, login throttle, uploads per credential);
    # default: the broker's Redis if it is one, else each process's memory
    rate_limit_redis_url: str = ""
    max_json_bytes: int = 4 * 1024**2  # JSON request bodies (uploads have their own limits)
    idempotency_ttl_s: int = 24 * 3600
    # the events a simulation may need (estimated before it runs); the reference full-day
    # scenario needs about 3e7
    max_sim_events: float = Field(default=2e8, gt=0)

    # holding up under load and abuse
    # Connections each API or worker process may keep open, opened as needed; an API process
    # runs at most pool + overflow requests at once (core/middleware.py), so PostgreSQL's
    # max_connections must cover (API processes x 32) + workers.
    db_pool_size: int = 16
    db_max_overflow: int = 16  # extra connections opened under load, closed when idle
    db_pool_timeout_s: float = 30.0  # wait this long for a free connection, then 500
    upload_read_timeout_s: float = 60.0  # an upload that sends nothing for this long: 408
    uploads_per_credential: int = 4  # concurrent upload requests per token or session; 0: off
    trusted_proxies: str = ""  # comma-separated proxy addresses whose X-Forwarded-For is read

    # data sources (Prometheus): how often the schedule re-imports each source's window
    source_refresh_interval_s: float = Field(default=300.0, gt=0)

    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'headroom.db').resolve()}"

    def resolved_broker_url(self) -> str:
        return self.broker_url or "filesystem://"

    def resolved_storage_url(self) -> str:
        return self.storage_url or f"file://{(self.data_dir / 'storage').resolve()}"

    def counters_url(self) -> str:
        """The Redis that API processes share counters in ("": each keeps its own)."""
        broker = self.resolved_broker_url()
        return self.rate_limit_redis_url or (broker if broker.startswith("redis") else "")

    def broker_folder(self) -> Path:
        return (self.data_dir / "broker").resolve()


@lru_cache
def get_settings() -> Settings:
    return Settings()
