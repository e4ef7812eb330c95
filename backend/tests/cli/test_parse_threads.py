"""`headroom parse` parses two chunks at once: the table, counts, rejects (with their line
numbers) and the format chosen per chunk (W3C's #Fields) equal the one-thread parse's."""

from pathlib import Path
from typing import Any

import polars as pl
import pytest

from headroom.cli.workload import _parse_chunks

CHUNK = 4096
DATA = Path(__file__).resolve().parents[3] / "data" / "logs"


def parse(path: Path, threads: int) -> tuple[Any, pl.DataFrame]:
    tables: list[pl.DataFrame] = []
    parsed = _parse_chunks(path, "auto", CHUNK, tables.append, threads)
    return parsed, pl.concat(tables)


@pytest.mark.parametrize("name", ["apache_combined_elastic.log", "lnav_iis_w3c_time-taken.log"])
def test_two_threads_parse_as_one_does(name: str, tmp_path: Path) -> None:
    text = (DATA / name).read_bytes()
    lines = text.splitlines(keepends=True)
    for i in range(7, len(lines), 37):  # bad lines in many chunks
        lines[i] = b"not a request line\n"
    path = tmp_path / name
    path.write_bytes(b"".join(lines))
    one, one_table = parse(path, 1)
    two, two_table = parse(path, 2)
    assert one_table.height > 100 and len(one.rejects) > 3
    assert path.stat().st_size > 8 * CHUNK  # many chunks
    assert two == one
    assert two_table.equals(one_table)
