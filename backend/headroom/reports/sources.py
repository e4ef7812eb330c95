"""The results a report item can be made from, read with the caller's rights, copied into
an item's content (figures, charts, parameters)."""

from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy.orm import Session

from headroom.analyses import service as analyses
from headroom.analyses.documents import CapacityReportDoc, SctReportDoc
from headroom.analyses.models import Analysis
from headroom.analyses.schemas import CapacityParamsIn, SctParamsIn
from headroom.auth.principal import Principal
from headroom.characterizations import service as characterizations
from headroom.characterizations.schemas import Rules
from headroom.core.errors import HeadroomError, InvalidInput
from headroom.datasets import service as datasets
from headroom.reports import snapshot_sct, snapshot_sweep, snapshots
from headroom.reports.schemas import ItemContent, ItemIn
from headroom.reports.snapshot_characterization import characterization_view
from headroom.reports.snapshots import SnapshotError
from headroom.simulations import service as simulations
from headroom.simulations.models import SimulationRun
from headroom.simulations.result_models import RunDocument, SweepDocument

T = TypeVar("T")


class SourceNotReady(HeadroomError):
    status_code, code = 409, "source_not_ready"


@dataclass(frozen=True)
class Captured:
    workspace_id: int
    title: str
    content: ItemContent
    view: str | None = None  # the capacity class or the SCT server shown


def _finished(result: T | None, what: str) -> T:
    if result is None:
        raise SourceNotReady(f"{what} has no result yet: add it once its job has succeeded")
    return result


def _analysis(session: Session, principal: Principal, item: ItemIn) -> Analysis:
    """The analysis, of the item's kind (an SCT analysis is not a capacity one)."""
    analysis = analyses.get_visible(session, principal, item.source_id)
    kind = str(analysis.kind)
    if kind != item.kind:
        message = f"analysis {analysis.id} is a {kind} analysis: add it with kind {kind!r}"
        raise InvalidInput("invalid_item", message, field="kind")
    return analysis


def _simulation_of_kind(session: Session, principal: Principal, item: ItemIn) -> SimulationRun:
    found = simulations.get_visible(session, principal, item.source_id)
    kind = "sweep" if found.sweep else "simulation"
    if kind != item.kind:
        what = "a sweep" if found.sweep else "a single run"
        message = f"simulation {found.id} is {what}: add it with kind {kind!r}"
        raise InvalidInput("invalid_item", message, field="kind")
    return found


def _capacity(session: Session, principal: Principal, item: ItemIn) -> Captured:
    analysis = _analysis(session, principal, item)
    out = analyses.to_out(session, analysis)
    result = _finished(out.result, f"analysis {analysis.id}")
    dataset = datasets.get_visible(session, principal, analysis.dataset_id).name
    if not isinstance(result, CapacityReportDoc) or not isinstance(out.params, CapacityParamsIn):
        raise SnapshotError(f"analysis {analysis.id} is not a capacity analysis")
    content = snapshots.capacity(result, out.params, item.view)
    label = f"capacity analysis {analysis.id} of {dataset}"
    view = content.params["class"]
    title = f"Capacity of {dataset} — {view}"
    return Captured(analysis.workspace_id, title, _labelled(content, label, dataset), view)


def _sct(session: Session, principal: Principal, item: ItemIn) -> Captured:
    analysis = _analysis(session, principal, item)
    out = analyses.to_out(session, analysis)
    result = _finished(out.result, f"analysis {analysis.id}")
    dataset = datasets.get_visible(session, principal, analysis.dataset_id).name
    if not isinstance(result, SctReportDoc) or not isinstance(out.params, SctParamsIn):
        raise SnapshotError(f"analysis {analysis.id} is not an SCT analysis")
    content = snapshot_sct.sct(result, out.params, item.view)
    label = f"SCT analysis {analysis.id} of {dataset}"
    view = content.params["server"]
    title = f"Concurrency of {dataset} — {view}"
    return Captured(analysis.workspace_id, title, _labelled(content, label, dataset), view)


def _characterization(session: Session, principal: Principal, item: ItemIn) -> Captured:
    found = characterizations.get_visible(session, principal, item.source_id)
    result = _finished(
        characterizations.document_of(session, found), f"characterization {found.id}"
    )
    dataset = datasets.get_visible(session, principal, found.dataset_id).name
    content = characterization_view(result, Rules.model_validate(found.rules), item.view)
    if found.slice is not None:  # a slice's (its range and filters): the item says which
        content.params["slice"] = found.slice
    label = f"characterization {found.id} of {dataset}"
    view = item.view or "workload"
    title = f"{view.capitalize()} of {dataset}"
    return Captured(found.workspace_id, title, _labelled(content, label, dataset), item.view)


def _simulated(
    result: RunDocument | SweepDocument | None, what: str
) -> RunDocument | SweepDocument:
    if result is None:
        raise SourceNotReady(f"{what} has no result yet: add it once its job has succeeded")
    return result


def _simulation(session: Session, principal: Principal, item: ItemIn) -> Captured:
    found = _simulation_of_kind(session, principal, item)
    out = simulations.to_out(session, found)
    result = _simulated(out.result, f"simulation {found.id}")
    content = snapshots.simulation(result, found.scenario)
    label = f"simulation {found.id} ({found.name})"
    return Captured(found.workspace_id, f"Simulation {found.name}", _labelled(content, label, None))


def _sweep(session: Session, principal: Principal, item: ItemIn) -> Captured:
    found = _simulation_of_kind(session, principal, item)
    out = simulations.to_out(session, found)
    result = _simulated(out.result, f"sweep {found.id}")
    content = snapshot_sweep.sweep(result, found.scenario, found.seed)
    label = f"sweep {found.id} ({found.name})"
    return Captured(found.workspace_id, f"Sweep {found.name}", _labelled(content, label, None))


def _traffic(session: Session, principal: Principal, item: ItemIn) -> Captured:
    dataset = datasets.get_visible(session, principal, item.source_id)
    summary = datasets.summary(session, principal, dataset.id)
    content = snapshots.traffic(summary)
    label = f"traffic summary of {dataset.name}"
    title = f"Traffic of {dataset.name}"
    return Captured(dataset.workspace_id, title, _labelled(content, label, dataset.name))


def _labelled(content: ItemContent, label: str, dataset: str | None) -> ItemContent:
    params = content.params if dataset is None else {"dataset": dataset, **content.params}
    return content.model_copy(update={"source_label": label, "params": params})


CAPTURE = {
    "capacity": _capacity,
    "characterization": _characterization,
    "simulation": _simulation,
    "traffic": _traffic,
    "sct": _sct,
    "sweep": _sweep,
}


def capture(session: Session, principal: Principal, item: ItemIn) -> Captured:
    """The item's content now; 404 when the source is not visible, 409 before it is done."""
    try:
        return CAPTURE[item.kind](session, principal, item)
    except snapshots.SnapshotError as error:
        raise InvalidInput("invalid_item", str(error), field="view") from None
