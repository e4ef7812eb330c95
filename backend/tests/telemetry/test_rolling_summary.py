"""A live dataset's summary after many appends, against the summary of its kept table
made from scratch: the same figures (the latency percentiles within the sketch's 1%),
also once retention drops old parts; and an append reads no earlier part."""

import shutil
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

from headroom.auth.principal import Caller, Principal
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import LocalStore
from headroom.datasets.models import Dataset
from headroom.engine.logs import REQUEST_SCHEMA
from headroom.engine.workload.sketch import ALPHA
from headroom.engine.workload.traffic import summarize
from headroom.telemetry import repository, rolling
from headroom.workspaces.models import Role
from support.factories import member

START = datetime(2026, 11, 1, tzinfo=UTC)
HOUR_S = 3600.0


class CountingStore(LocalStore):
    """A local store that counts the rows of every Parquet part it is asked to scan."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.rows_read = 0

    def scan_parquet(self, keys: Sequence[str]) -> pl.LazyFrame:
        self.rows_read += int(super().scan_parquet(keys).select(pl.len()).collect().item())
        return super().scan_parquet(keys)


@pytest.fixture
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    shutil.copy(request.getfixturevalue("sqlite_template"), tmp_path / "headroom.db")
    return Settings(
        data_dir=tmp_path,
        database_url=f"sqlite:///{tmp_path / 'headroom.db'}",
        static_dir=tmp_path / "none",
    )


def requests(n: int, seed: int, first_s: float, span_s: float) -> pl.DataFrame:
    """`n` requests over [first_s, first_s + span_s) past START, at whole milliseconds."""
    rng = np.random.default_rng(seed)
    offset_ms = np.sort(rng.integers(0, int(span_s * 1000), n)) + int(first_s * 1000)
    ts_ns = int(START.timestamp()) * 10**9 + offset_ms * 10**6
    columns: dict[str, Any] = {
        "ts": pl.from_epoch(pl.Series(ts_ns), "ns").dt.replace_time_zone("UTC"),
        "client": [f"10.0.0.{i % 9}" for i in range(n)],
        "method": ["GET"] * n,
        "path": [f"/items/{i % 5}" for i in range(n)],
        "status": rng.choice([200, 200, 200, 200, 302, 404, 500, 503], n),
        "bytes": rng.integers(200, 20_000, n),
        "latency_s": rng.lognormal(-2.0, 0.9, n),
    }
    return (
        pl.DataFrame(columns)
        .with_columns([pl.lit(None).alias(c) for c in REQUEST_SCHEMA if c not in columns])
        .select(pl.col(c).cast(t) for c, t in REQUEST_SCHEMA.items())
    )


def live_dataset(settings: Settings) -> int:
    owner = member(settings, "live@example.com", "Live")
    principal = Principal(
        user=Caller(id=owner.user_id, email=owner.email, name="live"),
        roles={owner.workspace_id: Role.owner},
    )
    with session_scope(settings.resolved_database_url()) as session:
        dataset, _ = rolling.get_or_create(
            session, principal, owner.workspace_id, "stream", "edge", {}, "combined"
        )
        session.flush()
        return dataset.id


def append(settings: Settings, store: CountingStore, dataset_id: int, table: pl.DataFrame) -> None:
    with session_scope(settings.resolved_database_url()) as session:
        dataset = session.get(Dataset, dataset_id)
        assert dataset is not None
        rolling.append(session, store, dataset, table, 100 * table.height)


def stored(settings: Settings, dataset_id: int) -> tuple[dict[str, Any], list[str]]:
    with session_scope(settings.resolved_database_url()) as session:
        result = repository.result_of_kind(session, dataset_id, rolling.INGEST)
        assert result is not None
        return dict(result.document), list(result.table_keys)


def assert_same_summary(document: dict[str, Any], table: pl.DataFrame) -> None:
    want = summarize(table.lazy()).model_dump(mode="json")
    got = {k: document[k] for k in want}
    got_latency, want_latency = got.pop("latency"), want.pop("latency")
    assert got == want
    assert got_latency["count"] == want_latency["count"]
    assert got_latency["max_s"] == want_latency["max_s"]
    assert got_latency["mean_s"] == pytest.approx(want_latency["mean_s"], rel=1e-12)
    latencies = table["latency_s"].to_numpy()
    for p in (50, 90, 95, 99):
        assert got_latency[f"p{p}_s"] == pytest.approx(want_latency[f"p{p}_s"], rel=ALPHA)
        assert got_latency[f"p{p}_s"] == pytest.approx(np.percentile(latencies, p), rel=ALPHA)


def test_appends_summarise_the_kept_table_reading_only_the_append(settings: Settings) -> None:
    store = CountingStore(settings.data_dir / "objects")
    dataset_id = live_dataset(settings)
    tables = [requests(400, seed, seed * 2 * HOUR_S, 1.5 * HOUR_S) for seed in range(10)]
    for table in tables:
        append(settings, store, dataset_id, table)
        assert store.rows_read == 0  # no part read back: the summary is the partials' merge
    document, keys = stored(settings, dataset_id)
    assert len(keys) == 10
    assert document["request_count"] == 4000
    assert_same_summary(document, pl.concat(tables))


def test_retention_drops_the_old_parts_contributions(settings: Settings) -> None:
    store = CountingStore(settings.data_dir / "objects")
    dataset_id = live_dataset(settings)
    day_s = 24 * HOUR_S
    tables = [requests(300, seed, seed * day_s, 6 * HOUR_S) for seed in range(10)]
    for table in tables:
        append(settings, store, dataset_id, table)
    document, keys = stored(settings, dataset_id)

    def newest_ns(table: pl.DataFrame) -> int:
        return int(table["ts"].dt.epoch("ns").to_numpy().max())

    oldest_kept_ns = newest_ns(tables[-1]) - int(rolling.RETENTION.total_seconds()) * 10**9
    kept = [t for t in tables if newest_ns(t) >= oldest_kept_ns]
    assert len(kept) == 8 and len(keys) == 8
    assert document["request_count"] == 2400
    assert store.rows_read == 0
    assert_same_summary(document, pl.concat(kept))


def test_a_part_without_a_partial_gets_one_from_its_rows(settings: Settings) -> None:
    store = CountingStore(settings.data_dir / "objects")
    dataset_id = live_dataset(settings)
    first, second = requests(250, 1, 0.0, HOUR_S), requests(150, 2, HOUR_S, HOUR_S)
    append(settings, store, dataset_id, first)
    _, keys = stored(settings, dataset_id)
    store.delete(rolling.partial_key(keys[0]))  # a part written before partials were kept
    append(settings, store, dataset_id, second)
    assert store.rows_read == 250
    document, _ = stored(settings, dataset_id)
    assert_same_summary(document, pl.concat([first, second]))
    assert store.exists(rolling.partial_key(keys[0]))


def test_compaction_keeps_the_summary(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rolling, "COMPACT_AFTER_PARTS", 3)
    store = CountingStore(settings.data_dir / "objects")
    dataset_id = live_dataset(settings)
    tables = [requests(200, seed, seed * HOUR_S, HOUR_S) for seed in range(5)]
    for table in tables:
        append(settings, store, dataset_id, table)
    document, keys = stored(settings, dataset_id)
    assert len(keys) == 2  # four merged into one, then one more
    assert_same_summary(document, pl.concat(tables))
