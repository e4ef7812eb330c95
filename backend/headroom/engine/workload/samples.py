"""The fit samples' counts and bottom-k per (quantity, user class), in numpy
(docs/methods/workload.md, "Bounded memory").

Each group is a small integer (:func:`group_codes`); the rows are put in group order by a
stable sort of those integers (a counting sort for a few groups) and each group's rows
are a contiguous run of that order, where a group-by or a window over the string columns
would hash every row.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import NamedTuple

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
CUTS_SCHEMA = {"quantity": pl.String, "cls_user": pl.String, "cut": pl.UInt64}
KEYS = 1 << 64  # the hash keys are uniform over [0, KEYS)
# a part's head: HEAD_MARGIN times its even share of a group's k smallest keys (head_cut)
HEAD_MARGIN = 3


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


class Sampled(NamedTuple):
    """A part's counts and its bottom-k sample, split at each group's cut."""

    counts: pl.DataFrame  # quantity, cls_user, n, zeros
    head: pl.DataFrame  # the bottom-k rows whose key is below their group's cut
    tail: pl.DataFrame  # the rest of the bottom-k
    cuts: pl.DataFrame  # quantity, cls_user, cut: the groups whose tail holds rows


def counts_and_sample(values: Mapping[str, pl.DataFrame], k: int, parts: int = 1) -> Sampled:
    """``quantity, cls_user, n, zeros`` (the values and the zeros of each group) and the
    bottom-k of the positive values (:func:`bottom_k`, groups as strings, one group
    after another) of each quantity's values (``cls_user, key, value``), split at each
    group's :func:`head_cut` for a log of ``parts`` such parts."""
    counts, heads, tails, cuts = [], [], [], []
    for quantity, frame in values.items():
        key = frame["key"].to_numpy()
        value = frame["value"].to_numpy()
        classes = frame["cls_user"]
        for rows in _class_runs(classes):
            group = (quantity, classes[int(rows[0])])
            zeros = int(np.count_nonzero(value[rows] == 0))
            counts.append((*group, len(rows), zeros))
            positive = rows[value[rows] > 0]
            kept = _bottom_k_of(positive, key, value, k)
            cut = head_cut(len(positive), k, parts)
            below = key[kept] < np.uint64(cut) if cut < KEYS else np.ones(len(kept), bool)
            heads.append(_group_rows(group, key[kept[below]], value[kept[below]]))
            if not below.all():
                tails.append(_group_rows(group, key[kept[~below]], value[kept[~below]]))
                cuts.append((*group, cut))
    return Sampled(
        pl.DataFrame(counts, schema=COUNTS_SCHEMA, orient="row"),
        _rows(heads),
        _rows(tails),
        pl.DataFrame(cuts, schema=CUTS_SCHEMA, orient="row"),
    )


def head_cut(n: int, k: int, parts: int) -> int:
    """The key below which a part's bottom-k of ``n`` values is its head (KEYS: all of
    it). ``n * parts`` values would have their ``k`` smallest keys below ``k * KEYS / (n *
    parts)``; the cut is HEAD_MARGIN times that, so a part writes about HEAD_MARGIN * k /
    parts rows a group in its head and the heads of ``parts`` even parts hold about
    HEAD_MARGIN * k. The merge needs ``k`` head rows below the smallest cut, which the part
    holding the most of a group's values sets: with HEAD_MARGIN = 3 the heads suffice while
    no part holds more than about three times its even share (clients hashed into the parts
    stay far within that: on a 2 M request log in 41 parts, the largest part held 1.06
    times its share and the heads about 140,000 rows below the smallest cut for k =
    50,000), and a group beyond it (a few heavy clients in one part) costs a read of its
    tails, which 2 would ask of a part with twice its share. The reduce reads k more rows
    a group than at 2, a fraction of the ``parts * k`` of whole samples."""
    return min(KEYS, HEAD_MARGIN * k * KEYS // max(n * parts, 1))


def _rows(chosen: list[pl.DataFrame]) -> pl.DataFrame:
    return pl.concat(chosen) if chosen else pl.DataFrame(schema=SAMPLE_SCHEMA)


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
