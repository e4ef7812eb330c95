"""The characterization job's parts (characterizations/parts.py) with several partitions
of clients and several shares of the spill, run by hand in one process, as the worker's
tasks run them: the spill spread over shares gives the result of a single share, a
retried spill overwrites its own pieces, and a missing piece fails its map clearly."""

from dataclasses import replace

import polars as pl
import pytest
from analyses.synth_logs import combined_latency_lines, mm1_table
from fastapi.testclient import TestClient

from headroom.characterizations import parts, run
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.core.storage import ObjectStore, open_store
from headroom.datasets.slices import where_of
from headroom.datasets.slices_params import SliceIn
from headroom.engine.logs import LogInputError
from headroom.engine.workload import mapreduce, spill
from headroom.engine.workload.partial import Partial
from headroom.engine.workload.scan import Scan
from headroom.engine.workload.slices import sliced
from headroom.jobs import service as job_service
from headroom.jobs.runner import ingest_body, run_job
from support.factories import member, signed_in

LOG = combined_latency_lines(mm1_table(segment_s=20.0))  # 6,856 requests
BUDGET_MB = 1  # 1,000 requests a partition: 7 partitions
WORKER = "test-worker"


@pytest.fixture
def small(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """Slices of 1,000 rows, 2 a share: 4 shares of the spill."""
    monkeypatch.setattr(spill, "SPILL_BATCH_ROWS", 1000)
    monkeypatch.setattr(spill, "SPILL_SHARE_BATCHES", 2)
    return settings.model_copy(update={"memory_budget_mb": BUDGET_MB})


def _claimed_job(
    settings: Settings, client: TestClient, name: str, where: dict[str, int] | None = None
) -> tuple[int, int]:
    """A new dataset of LOG and its characterization job (of the slice ``where`` when
    given), claimed by WORKER."""
    created = client.post(
        "/api/v1/datasets",
        params={"name": name},
        content=LOG,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert run_job(settings, created.json()["job"]["id"], ingest_body)
    dataset_id = int(created.json()["id"])
    body = None if where is None else {"slice": where}
    item = client.post(f"/api/v1/datasets/{dataset_id}/characterizations", json=body).json()
    with session_scope(settings.resolved_database_url()) as session:
        assert job_service.claim(session, item["job"]["id"], WORKER, settings.job_lease_s)
    return dataset_id, item["job"]["id"]


def _files(store: ObjectStore, prefix: str) -> dict[str, bytes]:
    files = {}
    for key in store.list(prefix):
        with store.open(key) as source:
            files[key] = source.read()
    return files


def test_the_spill_spread_over_shares_gives_the_maps_of_one_share(
    small: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each partition's pieces, read in share order, are its rows in the order of a
    single share's spill, and its map stores the same partial; the reduce completes the
    job."""
    client = signed_in(small, member(small, "spread@example.com", "Spread"))
    dataset_id, job_id = _claimed_job(small, client, "spread.log")
    store = open_store(small.resolved_storage_url())
    base = parts.folder(dataset_id, job_id)
    planned = parts.plan(small, job_id, WORKER)
    assert planned.parts == 7 and planned.shares == 4
    spread = _spilled_and_mapped(small, job_id, planned, monkeypatch)
    for key in store.list(base):
        if key.rsplit("/", 1)[-1].startswith("input-"):
            store.delete(key)
    monkeypatch.setattr(spill, "SPILL_SHARE_BATCHES", 1000)
    serial = _spilled_and_mapped(small, job_id, replace(planned, shares=1), monkeypatch)
    assert len(spread) == len(serial) > 7
    for key, frame in serial.items():
        if key.startswith("input-"):
            assert frame.equals(spread[key]), key
        else:  # a partial's rows come in no particular order
            assert frame.sort(frame.columns).equals(spread[key].sort(frame.columns)), key
    parts.reduce_parts(small, job_id, WORKER)
    assert client.get(f"/api/v1/jobs/{job_id}").json()["status"] == "succeeded"
    assert store.list(base) == []


def _spilled_and_mapped(
    settings: Settings, job_id: int, planned: parts.Planned, monkeypatch: pytest.MonkeyPatch
) -> dict[str, pl.DataFrame]:
    """Every share spilled and every partition mapped: the requests each map read, and
    its stored partial's frames."""
    store = open_store(settings.resolved_storage_url())
    base = parts.folder(planned.dataset_id, job_id)
    for share in range(planned.shares):
        parts.spill_one(settings, job_id, WORKER, share)
    parts.scan_shares(settings, job_id, WORKER)
    frames: dict[str, pl.DataFrame] = {}

    def recorded(requests: pl.LazyFrame, found: Scan) -> Partial:
        frames[f"input-{len(frames)}"] = requests.collect()
        return mapreduce.map_spilled(requests, found)

    monkeypatch.setattr(parts, "map_spilled", recorded)
    for index in range(planned.parts):
        parts.map_one(settings, job_id, WORKER, index)
    for key in store.list(base):
        if "/part-" in key and key.endswith(".parquet"):
            frames[key] = store.scan_parquet([key]).collect()
    return frames


def test_a_retried_spill_overwrites_its_own_pieces(small: Settings) -> None:
    client = signed_in(small, member(small, "retry@example.com", "Retry"))
    dataset_id, job_id = _claimed_job(small, client, "retry.log")
    store = open_store(small.resolved_storage_url())
    base = parts.folder(dataset_id, job_id)
    parts.plan(small, job_id, WORKER)
    parts.spill_one(small, job_id, WORKER, 1)
    first = _files(store, base)
    pieces = [key for key in first if "-from-00001" in key]
    assert len(pieces) == 7
    with store.writer(pieces[0]) as out:
        out.write(b"left by a spill killed mid-write")
    parts.spill_one(small, job_id, WORKER, 1)
    assert _files(store, base) == first


def test_a_missing_piece_fails_the_map_with_a_clear_error(small: Settings) -> None:
    client = signed_in(small, member(small, "missing@example.com", "Missing"))
    dataset_id, job_id = _claimed_job(small, client, "missing.log")
    planned = parts.plan(small, job_id, WORKER)
    for share in range(planned.shares):
        parts.spill_one(small, job_id, WORKER, share)
    parts.scan_shares(small, job_id, WORKER)
    store = open_store(small.resolved_storage_url())
    store.delete(parts.folder(dataset_id, job_id) + "input-00005-from-00002.parquet")
    with pytest.raises(LogInputError, match=r"missing \(partition 5, share 2\)") as error:
        parts.map_one(small, job_id, WORKER, 5)
    assert error.value.code == "internal_error"


def test_a_plan_without_the_counts_by_time_fails_the_reduce_clearly(small: Settings) -> None:
    # a plan written by a version whose maps still counted requests by time
    client = signed_in(small, member(small, "older@example.com", "Older"))
    dataset_id, job_id = _claimed_job(small, client, "older.log")
    planned = parts.plan(small, job_id, WORKER)
    for share in range(planned.shares):
        parts.spill_one(small, job_id, WORKER, share)
    parts.scan_shares(small, job_id, WORKER)
    for index in range(planned.parts):
        parts.map_one(small, job_id, WORKER, index)
    store = open_store(small.resolved_storage_url())
    store.delete(parts.folder(dataset_id, job_id) + "scan-lat_time.parquet")
    with pytest.raises(LogInputError, match="plan is incomplete") as error:
        parts.reduce_parts(small, job_id, WORKER)
    assert error.value.code == "internal_error"


def test_the_job_shows_progress_while_the_table_is_split_then_mapped(small: Settings) -> None:
    client = signed_in(small, member(small, "progress@example.com", "Progress"))
    _, job_id = _claimed_job(small, client, "progress.log")
    planned = parts.plan(small, job_id, WORKER)

    def seen() -> tuple[float, str]:
        job = client.get(f"/api/v1/jobs/{job_id}").json()
        return job["progress"], job["stage"]

    assert seen() == (0.0, "planning")
    spilled = []
    for share in range(planned.shares):
        parts.spill_one(small, job_id, WORKER, share)
        spilled.append(seen())
    assert spilled == [(pytest.approx(0.1 * (s + 1) / 4), "splitting the table") for s in range(4)]
    parts.scan_shares(small, job_id, WORKER)
    mapped = []
    for index in range(planned.parts):
        parts.map_one(small, job_id, WORKER, index)
        mapped.append(seen()[0])
    assert mapped == pytest.approx([0.1 + 0.8 * (i + 1) / 7 for i in range(7)])


def test_a_slices_spill_cuts_the_whole_table_and_keeps_the_slices_rows(
    small: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shares cut the whole table's rows (each read once, filtered as it is read), and
    each partition's pieces are the slice's requests of that partition, in table order."""
    client = signed_in(small, member(small, "slice@example.com", "Slice"))
    dataset_id, job_id = _claimed_job(small, client, "slice.log")
    with session_scope(small.resolved_database_url()) as session:
        keys = run.job_inputs(session, job_id).table_keys
    store = open_store(small.resolved_storage_url())
    table = store.scan_parquet(keys)
    ts_ms = table.select(pl.col("ts").dt.epoch("ms")).collect()["ts"]
    where = {"from_ms": int(ts_ms.quantile(0.2)), "to_ms": int(ts_ms.quantile(0.9))}
    item = client.post(f"/api/v1/datasets/{dataset_id}/characterizations", json={"slice": where})
    sliced_job = item.json()["job"]["id"]
    with session_scope(small.resolved_database_url()) as session:
        assert job_service.claim(session, sliced_job, WORKER, small.job_lease_s)
    planned = parts.plan(small, sliced_job, WORKER)
    assert planned.shares == 4  # the whole table's 6,856 rows, not the slice's
    inputs = _spilled_and_mapped(small, sliced_job, planned, monkeypatch)
    bucket = pl.col("client").hash(spill.PARTITION_SEED) % planned.parts
    keep = where_of(SliceIn.model_validate(where))
    kept = sliced(table, keep).with_columns(bucket.alias("b")).collect()
    assert 3000 < kept.height < 6000
    for index in range(planned.parts):
        expected = kept.filter(pl.col("b") == index).drop("b")
        assert inputs[f"input-{index}"].equals(expected), index
    parts.reduce_parts(small, sliced_job, WORKER)
    done = client.get(f"/api/v1/characterizations/{item.json()['id']}").json()
    assert done["result"]["requests"] == kept.height
