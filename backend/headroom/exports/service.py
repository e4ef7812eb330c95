"""Deployable settings from a simulation's scenario or an analysis' report (engine/export).
The scenario and the report are read through the two accessors below only."""

from collections.abc import Callable, Mapping
from typing import Any, Literal

from sqlalchemy.orm import Session

from headroom.analyses import service as analyses_service
from headroom.auth.principal import Principal
from headroom.core.errors import HeadroomError, InvalidInput
from headroom.engine import export
from headroom.engine.sim.scenario import Scenario, ScenarioError, load_scenario
from headroom.exports.schemas import ExportKind, ExportOut, ExportParams
from headroom.simulations import service as simulations_service


class AnalysisNotDone(HeadroomError):
    status_code, code = 409, "analysis_not_done"


def _scenario(document: Mapping[str, Any]) -> Scenario:
    try:
        return load_scenario(document)
    except ScenarioError as error:
        raise InvalidInput("unsupported_export", f"the run's scenario: {error}") from error


def _report(
    session: Session, analysis_id: int, principal: Principal
) -> tuple[str, Mapping[str, Any]]:
    """The analysis' kind ("capacity" or "sct") and its finished report as plain JSON."""
    analysis = analyses_service.get_visible(session, principal, analysis_id)
    out = analyses_service.to_out(session, analysis)
    result: Any = out.result
    if result is None:
        raise AnalysisNotDone(f"analysis {analysis_id} has no finished report to export from")
    plain = result.model_dump(mode="json") if hasattr(result, "model_dump") else result
    return str(out.kind), plain


def _exported(make: Callable[[], export.ExportFile]) -> ExportOut:
    try:
        file = make()
    except export.ExportError as error:
        raise InvalidInput("unsupported_export", str(error)) from error
    return ExportOut(
        kind=file.kind,
        content=file.content,
        media_type=file.media_type,
        filename=file.filename,
        note=file.note,
    )


def from_simulation(
    session: Session,
    principal: Principal,
    simulation_id: int,
    kind: ExportKind,
    params: ExportParams,
) -> ExportOut:
    simulation = simulations_service.get_visible(session, principal, simulation_id)
    scenario = _scenario(simulation.scenario)
    return _exported(lambda: export.from_scenario(kind, scenario, params.to_engine()))


def from_analysis(
    session: Session, principal: Principal, analysis_id: int, kind: ExportKind, params: ExportParams
) -> ExportOut:
    analysis_kind, report = _report(session, analysis_id, principal)
    which: Literal["capacity", "sct"] = "sct" if analysis_kind == "sct" else "capacity"
    return _exported(lambda: export.from_analysis(kind, which, report, params.to_engine()))
