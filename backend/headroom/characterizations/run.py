"""What the parts of the `workload.characterize` job share (parts.py runs them): read the
dataset's request table (or a slice of it), characterize it under the stored rules, store
to_dict() plus the histograms as the job's Result.
Idempotent: a retry replaces its own Result. Bad input fails the job once with a stable
code and never touches the dataset's status."""

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl
from sqlalchemy.orm import Session

from headroom.characterizations.documents import CharacterizationDoc, characterization_document
from headroom.characterizations.models import Characterization as CharacterizationRow
from headroom.core.storage import ObjectStore
from headroom.datasets.service import ingest_result
from headroom.datasets.slices import where_of
from headroom.datasets.slices_params import SliceIn
from headroom.engine.logs import LogInputError
from headroom.engine.workload import Characterization, Rules
from headroom.engine.workload.display import display_document
from headroom.engine.workload.slices import RequestSlice, sliced
from headroom.jobs import derived
from headroom.jobs.runner import JobContext

RESULT_KIND = "workload_characterization"
HISTOGRAM_BINS = 40


@dataclass(frozen=True)
class Inputs:
    dataset_id: int
    rules: Rules
    table_keys: list[str]
    where: RequestSlice


def guarded(context: JobContext, work: Callable[[], None]) -> None:
    """Runs ``work``; input errors (and unexpected ones) end the job here, transient
    errors and a lost job propagate (jobs.derived.guarded)."""
    derived.guarded(context, work, "characterization")


def load_table(
    store: ObjectStore, keys: list[str], where: RequestSlice | None = None
) -> pl.LazyFrame:
    """The dataset's request table (only the slice's requests when given), read lazily:
    characterize reads it one range of clients at a time and orders each range by
    arrival (ties in the parts' order)."""
    if not keys:
        raise LogInputError("empty_log", "the dataset has no request table")
    table = store.scan_parquet(keys)
    if where is not None:
        table = sliced(table, where)
    if table.select(pl.len()).collect().item() == 0:
        if where is not None and not where.whole:
            raise LogInputError("empty_slice", "the range and filters keep no requests")
        raise LogInputError("empty_log", "the dataset's request table is empty")
    return table


def result_document(result: Characterization) -> CharacterizationDoc:
    """to_dict() plus, per fitted quantity, its histogram with the fitted pdf (bins only),
    and the dataset page's chart data (``display``: series capped in points)."""
    histograms = {name: result.histogram(name, HISTOGRAM_BINS).to_dict() for name in result.fits}
    display = result.display
    if display is None:
        display = display_document(
            result.tables["annotated"], result.tables["sessions"], held=result.fields_recorded
        )
    return characterization_document(result, histograms, display)


def job_inputs(session: Session, job_id: int) -> Inputs:
    item = derived.row_of_job(session, CharacterizationRow, job_id, "characterization")
    ingested = ingest_result(session, item.dataset_id)
    if ingested is None:
        raise LogInputError("dataset_not_ready", "the dataset has no request table yet")
    rules = Rules.model_validate(item.rules)
    part = None if item.slice is None else SliceIn.model_validate(item.slice)
    return Inputs(item.dataset_id, rules, list(ingested.table_keys), where_of(part))
