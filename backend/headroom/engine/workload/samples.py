"""The fit samples' counts and bottom-k per (quantity, user class), in numpy
(docs/methods/workload.md, "Bounded memory").

Each group is a small integer (:func:`group_codes`); the rows are put in group order by a
stable sort of those integers (a counting sort for a few groups) and each group's rows
are a contiguous run of that order, where a group-by or a window over the string columns
would hash every row.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np
import polars as pl

SAMPLE_GROUP = ("quantity", "cls_user")
COUNTS_SCHEMA = {"quantity": pl.String, "cls_user": pl.String, "n": pl.Int64, "zeros": pl.Int64}
SAMPLE_SCHEMA = {
    "quantity": pl.String,
    "cls_user": pl.String,
    "key": pl.UInt64,
    "value": pl.Float64,
}


def group_codes(frame: pl.DataFrame) -> np.ndarray:
    """Each row's (quantity, user class) as an integer: equal groups, equal codes (a null
    class is a group of its own)."""
    quantity = _dense_code(frame["quantity"])
    cls = _first_seen_code(frame["cls_user"])
    return _small(quantity * (int(cls.max(initial=0)) + 1) + cls)


def _small(codes: np.ndarray) -> np.ndarray:
    """The codes as 16-bit integers when they fit: numpy sorts those by a counting
    (radix) sort."""
    return codes.astype(np.int16) if codes.max(initial=0) < 2**15 else codes


def _dense_code(column: pl.Series) -> np.ndarray:
    """A code per value (its categorical code plus one), 0 for null. A string column
    is coded in categories of its own (a hash a row, no sort), so the codes stay small."""
    if column.dtype != pl.Categorical:
        column = column.cast(pl.Categorical(pl.Categories.random()))
    return column.to_physical().cast(pl.Int64).fill_null(-1).to_numpy() + 1


def _first_seen_code(column: pl.Series) -> np.ndarray:
    """:func:`_dense_code`, the codes numbered in order of first appearance (as a
    string column's own categories number them): groups then come in the same order
    whatever the categories. For a column of few distinct values (the user classes)."""
    codes = _dense_code(column)
    if column.dtype != pl.Categorical:
        return codes
    renumbered = np.zeros(int(codes.max(initial=0)) + 1, dtype=np.int64)
    found = np.zeros(len(renumbered), dtype=bool)
    start = 0
    while start < len(codes):
        code = codes[start]
        renumbered[code] = 0 if code == 0 else int(found[1:].sum()) + 1
        found[code] = True
        unseen = ~found[codes[start:]]
        start += int(np.argmax(unseen)) if unseen.any() else len(codes) - start
    return renumbered[codes]


def group_runs(codes: np.ndarray) -> Iterator[np.ndarray]:
    """The rows of each group (each in input order), one group after another."""
    order = np.argsort(codes, kind="stable")
    ends = np.flatnonzero(np.diff(codes[order])) + 1
    yield from np.split(order, ends) if len(order) else ()


def _class_runs(classes: pl.Series) -> Iterator[np.ndarray]:
    """:func:`group_runs` of the user classes; one class (the usual case) without a
    sort."""
    codes = classes.to_physical()
    one = codes.null_count() in (0, len(codes)) and codes.min() == codes.max()
    if len(codes) and one:
        yield np.arange(len(codes))
    else:
        yield from group_runs(_small(_dense_code(classes)))


def counts_and_sample(
    values: Mapping[str, pl.DataFrame], k: int
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``quantity, cls_user, n, zeros`` (the values and the zeros of each group) and the
    bottom-k of the positive values (:func:`bottom_k`, groups as strings, one group
    after another) of each quantity's values (``cls_user, key, value``)."""
    counts, chosen = [], []
    for quantity, frame in values.items():
        key = frame["key"].to_numpy()
        value = frame["value"].to_numpy()
        classes = frame["cls_user"]
        for rows in _class_runs(classes):
            group = (quantity, classes[int(rows[0])])
            zeros = int(np.count_nonzero(value[rows] == 0))
            counts.append((*group, len(rows), zeros))
            kept = _bottom_k_of(rows[value[rows] > 0], key, value, k)
            chosen.append(_group_rows(group, key[kept], value[kept]))
    sample = pl.concat(chosen) if chosen else pl.DataFrame(schema=SAMPLE_SCHEMA)
    return pl.DataFrame(counts, schema=COUNTS_SCHEMA, orient="row"), sample


def _group_rows(group: tuple[str | None, ...], key: np.ndarray, value: np.ndarray) -> pl.DataFrame:
    """A group's chosen rows: its quantity and class repeated beside their keys and
    values (no gather of the string columns)."""
    names = [
        pl.lit(name, pl.String).alias(column)
        for column, name in zip(SAMPLE_GROUP, group, strict=True)
    ]
    return pl.DataFrame({"key": key, "value": value}).select(*names, "key", "value")


def _in_order(chosen: list[np.ndarray]) -> np.ndarray:
    return np.sort(np.concatenate(chosen))


def bottom_k(samples: pl.DataFrame, k: int) -> pl.DataFrame:
    """Per quantity and user class, the rows of the ``k`` smallest keys (ties by value,
    nulls last), in input order. A group of more than ``k`` rows keeps those whose key is
    at most its k-th smallest (a selection, no sort): exactly ``k`` rows unless keys
    repeat at the cut, which only then need the (key, value) order."""
    if samples.height == 0:
        return samples
    key = samples["key"].to_numpy()
    value = samples["value"].to_numpy()
    runs = group_runs(group_codes(samples))
    return samples[_in_order([_bottom_k_of(rows, key, value, k) for rows in runs])]


def _bottom_k_of(rows: np.ndarray, key: np.ndarray, value: np.ndarray, k: int) -> np.ndarray:
    """Of ``rows`` (of one group), those of the ``k`` smallest (key, value)."""
    if len(rows) <= k:
        return rows
    mine = key[rows]
    at_most = mine <= np.partition(mine, k - 1)[k - 1]
    if np.count_nonzero(at_most) == k:
        return rows[at_most]
    return rows[np.lexsort((value[rows], mine))[:k]]
