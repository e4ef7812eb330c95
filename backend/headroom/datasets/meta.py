"""The dataset's metadata (its `meta` JSON column) and the parts of it other code passes on."""

from typing import Literal, NotRequired, TypedDict, Unpack


class DetectionJson(TypedDict):  # engine.logs.Detection, as the dataset's meta keeps it
    format: str | None  # None: what sniffing did not recognise (the demo registers it anyway)
    confidence: float
    parsed_fraction: NotRequired[float]  # absent until the ingest has parsed the file
    latency_unit: NotRequired[str | None]
    notes: list[str]


class ParseOptionsJson(TypedDict):  # parse_options.ParseOptions
    format: str | None
    log_format: str | None
    zip_members: Literal["first", "all"]


class SourceMetaJson(TypedDict):  # schemas.DatasetSourceOut, as stored
    kind: str
    source_id: int
    live: bool
    refreshed_at: str | None
    base_url: str


class LiveMetaJson(TypedDict, total=False):  # a live dataset (telemetry.rolling)
    kind: str
    updated_at: str | None
    services: list[str]  # the trace services seen so far
    lines_received: int  # a stream's lines so far


class DatasetMetaJson(TypedDict, total=False):
    detection: DetectionJson
    parse_options: ParseOptionsJson
    source: SourceMetaJson
    live: LiveMetaJson


def updated(meta: DatasetMetaJson | None, **entries: Unpack[DatasetMetaJson]) -> DatasetMetaJson:
    """A copy with these entries set (a new object, so the JSON column sees the change)."""
    merged = meta.copy() if meta else DatasetMetaJson()
    merged.update(entries)
    return merged


def live_of(meta: DatasetMetaJson | None) -> LiveMetaJson:
    """A copy of the live entry (empty when the dataset is not live)."""
    found = meta.get("live") if meta else None
    return found.copy() if found else LiveMetaJson()
