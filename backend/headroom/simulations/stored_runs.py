"""The full run documents of a sweep's runs, kept in the object store (one gzipped JSON per
run, under the sweep job's id) so that opening a point of the frontier shows that run's
stored result instead of simulating it again. The sweep's Result lists their keys."""

import gzip

from headroom.core.storage import ObjectStore
from headroom.simulations.result_models import RunDocument, stored_json


def key(job_id: int, index: int) -> str:
    """Where run ``index`` of the sweep job ``job_id`` is kept (a retry overwrites it)."""
    return f"simulations/job-{job_id}/run-{index}.json.gz"


def keys(job_id: int, count: int) -> list[str]:
    return [key(job_id, index) for index in range(count)]


def write(store: ObjectStore, job_id: int, index: int, document: RunDocument) -> str:
    stored = key(job_id, index)
    with store.writer(stored) as handle:
        handle.write(gzip.compress(stored_json(document).encode(), compresslevel=6))
    return stored


def read(store: ObjectStore, stored: str) -> RunDocument | None:
    """The run document under ``stored``, or None when it is not there."""
    if not store.exists(stored):
        return None
    with store.open(stored) as handle:
        return RunDocument.model_validate_json(gzip.decompress(handle.read()))
