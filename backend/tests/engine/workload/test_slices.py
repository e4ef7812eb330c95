"""Slices of a request table in several Parquet parts, against a plain Python filter."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest

from headroom.engine.workload.coverage import Coverage
from headroom.engine.workload.slices import RequestSlice, request_page, sliced

T0 = datetime(2024, 3, 1, tzinfo=UTC)
T0_MS = int(T0.timestamp() * 1000)
PATHS = ["/a/1", "/a/2", "/b", "/a"]
STATUSES = [200, 404, 500, 301, 200]


def rows() -> list[dict[str, object]]:
    return [
        {"ts": T0 + timedelta(seconds=i), "path": PATHS[i % 4], "status": STATUSES[i % 5]}
        for i in range(250)
    ]


@pytest.fixture
def table(tmp_path: Path) -> pl.LazyFrame:
    frame = pl.DataFrame(rows()).with_columns(pl.col("status").cast(pl.Int16))
    files = []
    for k in range(3):  # three parts, as an ingest writes them
        path = tmp_path / f"part-{k}.parquet"
        frame.slice(k * 100, 100).write_parquet(path, row_group_size=16)
        files.append(str(path))
    return pl.scan_parquet(files)


def by_hand(lo_s: int, hi_s: int, prefix: str, cls: int) -> list[int]:
    return [
        i
        for i, r in enumerate(rows())
        if lo_s <= i < hi_s and str(r["path"]).startswith(prefix) and int(r["status"]) // 100 == cls  # type: ignore[call-overload]
    ]


def test_pages_walk_exactly_the_slice_across_parts(table: pl.LazyFrame) -> None:
    where = RequestSlice(T0_MS + 10_000, T0_MS + 230_000, "/a", "2xx")
    want = by_hand(10, 230, "/a", 2)
    seen: list[int] = []
    after: int | None = 0
    while after is not None:
        page = request_page(table, where, after, 9)
        assert page.total == len(want) and page.rows.height <= 9
        seen += page.rows["row"].to_list()
        after = page.next_row
    assert seen == want


def test_the_slice_counts_what_a_plain_filter_counts(table: pl.LazyFrame) -> None:
    where = RequestSlice(None, T0_MS + 100_000, None, "5xx")
    assert sliced(table, where).select(pl.len()).collect().item() == len(by_hand(0, 100, "", 5))
    assert sliced(table, RequestSlice()) is table


def test_the_window_is_clipped_to_the_log() -> None:
    whole = Coverage(T0_MS * 1_000_000, (T0_MS + 250_000) * 1_000_000, 1.0)
    clip = RequestSlice(T0_MS - 5_000, T0_MS + 9_000_000).clip(whole)
    assert clip.span_s == 250.0
    assert RequestSlice(T0_MS + 1_000, T0_MS + 3_000).clip(whole).span_s == 2.0


def test_a_backwards_range_or_an_unknown_class_is_refused() -> None:
    with pytest.raises(ValueError, match="after"):
        RequestSlice(5, 5)
    with pytest.raises(ValueError, match="status class"):
        RequestSlice(status_class="6xx")
