"""The spill of a characterization in bounded memory (docs/methods/workload.md, "Bounded
memory"): the request table cut into partitions of its clients (``hash(client) mod
parts``), each partition's requests written to Parquet files of its own in the table's
order, so that each map reads its partition once and never the whole table again. The
table's rows are cut into contiguous shares (:func:`spill_shares`) that tasks of their
own spill side by side; a partition's pieces in share order are its serial spill.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Final

import polars as pl

from .scan import ScanCounter

PARTITION_SEED = 0x5CA1E
# rows read at a time by the spill (its peak stays below a map's)
SPILL_BATCH_ROWS = 200_000
# slices a spill task reads (its share of the table; the workers spill shares side by side)
SPILL_SHARE_BATCHES = 5
PART_COLUMN = "__partition"
# the spilled partitions and their partials are read once, on this machine: a fast codec
TEMPORARY_COMPRESSION: Final = "lz4"


def partition(table: pl.LazyFrame, index: int, parts: int) -> pl.LazyFrame:
    """The requests of partition ``index`` of ``parts``: all of the clients hashed there."""
    if parts == 1:
        return table
    return table.filter(_bucket(parts) == index)


def _bucket(parts: int) -> pl.Expr:
    return pl.col("client").hash(PARTITION_SEED) % parts


def spill_shares(rows: int) -> list[range]:
    """The table's rows cut into contiguous shares of about SPILL_SHARE_BATCHES slices of
    SPILL_BATCH_ROWS each, as even as whole slices allow; each share can be spilled by a
    task of its own, and a partition's pieces in share order are its serial spill."""
    batches = max(math.ceil(rows / SPILL_BATCH_ROWS), 1)
    shares = math.ceil(batches / SPILL_SHARE_BATCHES)
    starts = [min(i * batches // shares * SPILL_BATCH_ROWS, rows) for i in range(shares + 1)]
    return [range(start, stop) for start, stop in pairwise(starts)]


def spill(
    table: pl.LazyFrame,
    parts: int,
    folder: Path,
    rows: range | None = None,
    name: str = "",
    keep: Callable[[pl.LazyFrame], pl.LazyFrame] | None = None,
    counter: ScanCounter | None = None,
) -> list[Path]:
    """Every partition's requests among the table's ``rows`` (all of them by default) in a
    Parquet file of its own under ``folder`` (``partition-<index><name>.parquet``, one per
    partition, empty ones included), in the table's order: one pass over consecutive
    slices of SPILL_BATCH_ROWS rows (a slice of a Parquet scan reads only its row groups;
    a streaming collect of the whole table would read ahead over several files), each
    slice's rows appended to their partition's file as a row group. With ``keep`` (a
    row-wise filter, such as a slice's), ``rows`` count the unfiltered table and each
    slice keeps its filtered rows: one pass over the table, where slices of the filtered
    table would each evaluate the filter from the table's start again. With ``counter``,
    each slice's kept rows are counted for the scan as well."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    paths = [folder / f"partition-{index:05d}{name}.parquet" for index in range(parts)]
    schema = table.collect_schema()
    # strings repeat (clients, paths, agents); timestamps and numbers rarely do
    dictionary = [column for column, dtype in schema.items() if dtype == pl.String]
    writers: dict[int, pq.ParquetWriter] = {}
    arrow_schema: pa.Schema | None = None
    if rows is None:
        rows = range(table.select(pl.len()).collect().item())
    try:
        for start in range(rows.start, rows.stop, SPILL_BATCH_ROWS):
            read = table.slice(start, min(SPILL_BATCH_ROWS, rows.stop - start))
            kept = read if keep is None else keep(read)
            batch = kept.with_columns(_bucket(parts).alias(PART_COLUMN)).collect()
            if counter is not None:
                counter.add(batch)
            split = batch.partition_by(PART_COLUMN, as_dict=True, include_key=False)
            del batch
            for key, requests in split.items():
                index = int(key[0])
                arrow = requests.to_arrow(compat_level=pl.CompatLevel.newest())  # no copy
                if arrow_schema is None:
                    arrow_schema = arrow.schema
                if index not in writers:
                    writers[index] = pq.ParquetWriter(
                        paths[index],
                        arrow_schema,
                        compression=TEMPORARY_COMPRESSION,
                        use_dictionary=dictionary,
                        write_statistics=False,  # each file is read whole: nothing to skip
                    )
                if not arrow.schema.equals(arrow_schema):  # a cast imports pyarrow.compute
                    arrow = arrow.cast(arrow_schema)
                writers[index].write_table(arrow)
            del split
    finally:
        for writer in writers.values():
            writer.close()
    for index, path in enumerate(paths):
        if index not in writers:
            pl.DataFrame(schema=schema).write_parquet(path)
    return paths
