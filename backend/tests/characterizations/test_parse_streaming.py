"""`headroom parse` streams: its report and Parquet file, built chunk by chunk, equal the
in-memory reference (parse_log + parse_report) on every real log, with chunks small enough
that most logs take several, in time order or not."""

from pathlib import Path
from typing import Any

import polars as pl
import pytest

from headroom.cli.parse_stream import ParquetSink, ReportTally
from headroom.cli.workload import _parse_chunks, parse_log, parse_report, tally_report

DATA = Path(__file__).resolve().parents[3] / "data" / "logs"
REFUSED = (
    "apachelogs_test_vectors.jsonl",
    "lnav_logfile_syslog_with_access_log.0",
    "lnav_logfile_w3c.5",
)
PARSEABLE = sorted(p.name for p in DATA.iterdir() if p.name not in REFUSED)
CHUNK_BYTES = 2048


def streamed(path: Path, out: Path) -> dict[str, Any]:
    tally, sink = ReportTally(), ParquetSink(out)

    def keep(table: pl.DataFrame) -> None:
        tally.add(table)
        sink.write(table)

    parsed = _parse_chunks(path, "auto", CHUNK_BYTES, keep)
    sink.close(tally.in_time_order)
    return tally_report(parsed, tally)


@pytest.mark.parametrize("name", PARSEABLE)
def test_streamed_report_and_table_equal_the_in_memory_ones(name: str, tmp_path: Path) -> None:
    reference = parse_log(DATA / name, chunk_bytes=CHUNK_BYTES)
    document = streamed(DATA / name, tmp_path / "requests.parquet")
    assert document == parse_report(reference)
    table = pl.read_parquet(tmp_path / "requests.parquet")
    assert table.schema == reference.table.schema
    assert table.equals(reference.table)
    assert not (tmp_path / "requests.parquet.partial").exists()


def test_rows_out_of_order_across_chunks_are_sorted(tmp_path: Path) -> None:
    line = '10.0.0.1 - - [01/Mar/2024:00:{:02d}:00 +0000] "GET /{} HTTP/1.1" 200 5 "-" "x"\n'
    minutes = [m for block in range(40) for m in (30 + block % 7, block % 5, 59 - block % 3)]
    log = tmp_path / "access.log"
    log.write_text("".join(line.format(m, i) for i, m in enumerate(minutes)))
    reference = parse_log(log, chunk_bytes=CHUNK_BYTES)
    document = streamed(log, tmp_path / "requests.parquet")
    assert document == parse_report(reference)
    assert pl.read_parquet(tmp_path / "requests.parquet").equals(reference.table)


def test_an_abandoned_sink_leaves_no_file(tmp_path: Path) -> None:
    sink = ParquetSink(tmp_path / "requests.parquet")
    for _ in range(3):  # the writer holds one, one waits for it
        sink.write(parse_log(DATA / PARSEABLE[0]).table)
    sink.abandon()
    assert list(tmp_path.iterdir()) == []


def test_the_writers_error_reaches_the_caller(tmp_path: Path) -> None:
    sink = ParquetSink(tmp_path / "missing" / "requests.parquet")
    table = parse_log(DATA / PARSEABLE[0]).table
    with pytest.raises(FileNotFoundError):
        for _ in range(3):
            sink.write(table)
        sink.close(in_time_order=True)
    sink.abandon()
    assert list(tmp_path.iterdir()) == []
