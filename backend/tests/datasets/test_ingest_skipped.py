"""The stored parse report counts structure lines (W3C directives, blank lines) as skipped,
apart from rejects, and reads `#GMT-Offset:` times as UTC: on the one-pass path and on the
parallel-ranges path (ranges that start after a directive block)."""

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.datasets import ingest
from headroom.datasets.ingest_ranges import merge, parse_range, plan_ranges, prepared_to_dict
from headroom.jobs.runner import JobContext, ingest_body, run_job
from support.factories import member, signed_in

CHUNK_BYTES = 4096
FIELDS = "date time c-ip cs-method cs-uri-stem sc-status time-taken"
T0 = datetime(2024, 3, 1, 22, 0, tzinfo=UTC)


def w3c_log(blocks: int = 6, per_block: int = 80) -> tuple[bytes, int, int, list[datetime]]:
    """IIS-like: each block restarts with its directives; local times at GMT-Offset -0800.
    Returns (data, requests, structure lines, UTC times)."""
    out, times, structure = [], [], 0
    for b in range(blocks):
        head = ["#Software: IIS", "#Version: 1.0", "#GMT-Offset: -0800", f"#Fields: {FIELDS}"]
        out += head + ([""] if b % 2 else [])
        structure += len(head) + b % 2
        for i in range(per_block):
            utc = T0 + timedelta(seconds=b * per_block + i)
            local = utc - timedelta(hours=8)
            out.append(f"{local:%Y-%m-%d %H:%M:%S} 10.0.0.{i} GET /p{i} 200 {i}")
            times.append(utc)
    return ("\n".join(out) + "\n").encode(), len(times), structure, times


@pytest.fixture
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    shutil.copy(request.getfixturevalue("sqlite_template"), tmp_path / "headroom.db")
    url = f"sqlite:///{tmp_path / 'headroom.db'}"
    return Settings(
        data_dir=tmp_path,
        database_url=url,
        static_dir=tmp_path / "none",
        ingest_chunk_bytes=CHUNK_BYTES,
    )


def ranges_body(context: JobContext) -> None:
    settings = context.settings
    prepared = ingest.prepare(settings, context.job_id, context.worker)
    payload = prepared_to_dict(prepared)
    ranges = plan_ranges(
        open_store(settings.resolved_storage_url()),
        prepared.key,
        prepared.size_bytes,
        settings.ingest_chunk_bytes,
    )
    assert len(ranges) >= 5
    args = (settings, context.job_id, context.worker, payload)
    merge(*args, [parse_range(*args, part) for part in ranges])


@pytest.mark.parametrize("body", [ingest_body, ranges_body], ids=["one_pass", "ranges"])
def test_directives_are_skipped_and_offset_applied(settings: Settings, body) -> None:  # type: ignore[no-untyped-def]
    data, requests, structure, times = w3c_log()
    assert len(data) > 5 * CHUNK_BYTES
    client = signed_in(settings, member(settings, "sk@example.com", "Shop"))
    created = client.post("/api/v1/datasets", params={"name": "u_ex.log"}, content=data).json()
    run_job(settings, created["job"]["id"], body)
    summary = client.get(f"/api/v1/datasets/{created['id']}/summary").json()
    assert (summary["request_count"], summary["rejected_count"]) == (requests, 0)
    assert summary["skipped_count"] == structure
    assert requests + structure == data.count(b"\n")
    assert datetime.fromisoformat(summary["first_ts"]) == times[0]
    assert datetime.fromisoformat(summary["last_ts"]) == times[-1]
