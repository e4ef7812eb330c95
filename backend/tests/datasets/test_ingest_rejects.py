"""A log with more than 20 bad lines spread over several chunks: the dataset keeps exactly
the first 20 (absolute line numbers, in order) and counts every one, on the one-pass path
and on the parallel-ranges path."""

import shutil
from pathlib import Path

import pytest

from headroom.core.settings import Settings
from headroom.core.storage import open_store
from headroom.datasets import ingest
from headroom.datasets.ingest_ranges import merge, parse_range, plan_ranges, prepared_to_dict
from headroom.jobs.runner import JobContext, ingest_body, run_job
from support.factories import member, signed_in

LINES = 400
CHUNK_BYTES = 4096  # about 45 lines: the bad lines fall in 9 or 10 chunks


def log_lines() -> tuple[bytes, list[int]]:
    """Combined lines, with line n garbage when n % 13 == 5 (1-based): 31 bad lines."""
    lines, bad = [], []
    for n in range(1, LINES + 1):
        if n % 13 == 5:
            lines.append(f"garbage line {n} without any structure")
            bad.append(n)
        else:
            lines.append(
                f"10.0.{n // 250}.{n % 250} - - [01/Mar/2026:10:{n // 60:02d}:{n % 60:02d} +0000] "
                f'"GET /p/{n} HTTP/1.1" 200 {n} "-" "agent/1.0"'
            )
    return ("\n".join(lines) + "\n").encode(), bad


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
    assert len(ranges) >= 8
    args = (settings, context.job_id, context.worker, payload)
    merge(*args, [parse_range(*args, part) for part in reversed(ranges)])  # any order


@pytest.mark.parametrize("body", [ingest_body, ranges_body], ids=["one_pass", "ranges"])
def test_first_twenty_rejects_kept_all_counted(settings: Settings, body) -> None:  # type: ignore[no-untyped-def]
    data, bad = log_lines()
    assert len(bad) == 31 and len(data) > 8 * CHUNK_BYTES
    client = signed_in(settings, member(settings, "rj@example.com", "Shop"))
    created = client.post("/api/v1/datasets", params={"name": "bad.log"}, content=data).json()
    run_job(settings, created["job"]["id"], body)
    summary = client.get(f"/api/v1/datasets/{created['id']}/summary").json()
    assert summary["rejected_count"] == 31
    assert summary["request_count"] == LINES - 31
    assert [r["line_number"] for r in summary["rejects"]] == bad[:20]
    assert all(r["text"] == f"garbage line {r['line_number']} without any structure"
               for r in summary["rejects"])  # fmt: skip
