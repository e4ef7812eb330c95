"""Which fields a request table records: a figure built on a field the log does not hold
is *not recorded* (null), never zero.

A field is recorded when at least one request holds a value for it (a combined log's
``-`` referrer on every line means the log holds no referrer). A daily profile needs the
log to cover at least one day; sessions need clients.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import polars as pl

DAY_S = 86_400.0
# field name -> request table column
COLUMNS = {
    "status": "status",
    "bytes": "bytes",
    "latency": "latency_s",
    "client": "client",
    "user_agent": "user_agent",
    "referrer": "referer",
    "path": "path",
}


@dataclass(frozen=True)
class FieldsRecorded:
    status: bool
    bytes: bool
    latency: bool
    client: bool
    user_agent: bool
    referrer: bool
    path: bool
    span_s: float

    @property
    def sessions(self) -> bool:
        """Sessions group one client's requests: without clients there is one 'session'."""
        return self.client

    @property
    def daily_profile(self) -> bool:
        """A profile over the hours of a day needs a log covering at least a day."""
        return self.span_s >= DAY_S

    def to_dict(self) -> dict[str, bool | float]:
        return asdict(self) | {"sessions": self.sessions, "daily_profile": self.daily_profile}


def fields_recorded(requests: pl.DataFrame | pl.LazyFrame) -> FieldsRecorded:
    """One pass over the table: which fields hold a value on at least one request (a
    column the table lacks is not recorded)."""
    frame = requests.lazy()
    present = set(frame.collect_schema().names())
    held = [
        (pl.col(column).is_not_null().any() if column in present else pl.lit(False)).alias(name)
        for name, column in COLUMNS.items()
    ]
    span = (pl.col("ts").max() - pl.col("ts").min()).dt.total_seconds(fractional=True)
    selected = frame.select(*held, span.alias("span_s"))
    row = selected.collect(engine="streaming").row(0, named=True)  # a column at a time
    return FieldsRecorded(
        **{name: bool(row[name]) for name in COLUMNS}, span_s=float(row["span_s"] or 0.0)
    )
