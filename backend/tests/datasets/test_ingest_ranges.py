"""Byte ranges for parallel parsing: they tile the file and each starts at a line start."""

import itertools
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.core.storage import LocalStore
from headroom.datasets.ingest_ranges import plan_ranges

lines = st.lists(st.binary(max_size=300).map(lambda b: b.replace(b"\n", b"x")), max_size=60)


@settings(max_examples=200, deadline=None)
@given(lines=lines, trailing_newline=st.booleans(), chunk_bytes=st.integers(1, 2000))
def test_ranges_tile_the_file_at_line_starts(
    tmp_path_factory,
    lines: list[bytes],  # type: ignore[no-untyped-def]
    trailing_newline: bool,
    chunk_bytes: int,
) -> None:
    data = b"\n".join(lines) + (b"\n" if trailing_newline and lines else b"")
    path = Path(tmp_path_factory.mktemp("ranges")) / "log"
    path.write_bytes(data)
    ranges = plan_ranges(LocalStore(path.parent), path.name, len(data), chunk_bytes)
    assert ranges[0].start == 0 and ranges[-1].end == len(data)
    for before, after in itertools.pairwise(ranges):
        assert before.end == after.start > before.start
        assert data[after.start - 1 : after.start] == b"\n"
    assert b"".join(data[r.start : r.end] for r in ranges) == data
    assert [r.index for r in ranges] == list(range(len(ranges)))
