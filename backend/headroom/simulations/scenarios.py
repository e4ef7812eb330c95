"""Saved scenarios (named documents per workspace) and the editor's presets."""

from pydantic import JsonValue
from sqlalchemy.orm import Session

from headroom.analyses import service as analysis_service
from headroom.auth.principal import Principal
from headroom.characterizations.models import Characterization
from headroom.core.errors import HeadroomError, InvalidInput, NotFound, NotReady
from headroom.core.settings import get_settings
from headroom.datasets import service as dataset_service
from headroom.datasets.models import DatasetStatus
from headroom.engine.sim.budget import check_budget
from headroom.engine.sim.presets import reference, replay
from headroom.engine.sim.scenario import ScenarioError, load_scenario
from headroom.engine.workload.model import ModelError, from_workload_model
from headroom.jobs import derived
from headroom.jobs import repository as job_repository
from headroom.simulations import class_presets, dataset_policies, references, repository
from headroom.simulations.models import SavedScenario
from headroom.simulations.scenario_json import ScenarioJson
from headroom.simulations.schemas import Preset, SavedScenarioIn, SavedScenarioUpdate
from headroom.workspaces.models import Role


class NameTaken(HeadroomError):
    status_code, code = 409, "name_taken"


def check(document: ScenarioJson, prefix: str = "scenario") -> None:
    """422 whose field is ``<prefix>.<path>`` (the engine's path) on a bad document."""
    try:
        loaded = load_scenario(references.normalised(document))
        check_budget(loaded, get_settings().max_sim_events)
    except ScenarioError as error:
        path = str(error).split(":", 1)[0]
        field = prefix if path == "(document)" else f"{prefix}.{path}"
        raise InvalidInput("validation_error", f"{prefix}.{error}", field=field) from None


def check_datasets(
    session: Session, principal: Principal, document: ScenarioJson, workspace_id: int | None
) -> None:
    """The dataset references of a document, checked in the caller's workspace (only
    needed, and so only resolved, when there are any)."""
    if next(references.find(document), None) is None:
        return
    workspace = dataset_service.resolve_workspace(principal, workspace_id)
    principal.require(workspace, Role.viewer)
    references.check(session, workspace, document)


def get_visible(session: Session, principal: Principal, scenario_id: int) -> SavedScenario:
    saved = repository.visible_scenario(session, principal.workspace_ids, scenario_id)
    if saved is None:
        raise NotFound(f"saved scenario {scenario_id} not found")
    return saved


def create(session: Session, principal: Principal, body: SavedScenarioIn) -> SavedScenario:
    workspace_id = dataset_service.resolve_workspace(principal, body.workspace_id)
    principal.require(workspace_id, Role.editor)
    check(body.scenario)
    _name_free(session, workspace_id, body.name)
    saved = SavedScenario(
        workspace_id=workspace_id,
        name=body.name,
        scenario=body.scenario,
        created_by_id=principal.user.id,
    )
    session.add(saved)
    session.flush()
    return saved


def update(
    session: Session, principal: Principal, scenario_id: int, body: SavedScenarioUpdate
) -> SavedScenario:
    saved = get_visible(session, principal, scenario_id)
    principal.require(saved.workspace_id, Role.editor)
    if body.scenario is not None:
        check(body.scenario)
        saved.scenario = body.scenario
    if body.name is not None and body.name != saved.name:
        _name_free(session, saved.workspace_id, body.name)
        saved.name = body.name
    session.flush()
    return saved


def delete(session: Session, principal: Principal, scenario_id: int) -> None:
    saved = get_visible(session, principal, scenario_id)
    principal.require(saved.workspace_id, Role.editor)
    session.delete(saved)


def _name_free(session: Session, workspace_id: int, name: str) -> None:
    if repository.scenario_named(session, workspace_id, name) is not None:
        raise NameTaken(f"a saved scenario is already named {name!r}", field="name")


def presets() -> list[Preset]:
    return [
        Preset(
            id="reference",
            name="University site (reference)",
            description="The spec's reference site: 24 h diurnal profile of about 330,000 "
            "pages of 40 objects, threshold autoscaling 1-100 VMs, 50% push.",
            scenario=reference(),
        ),
        Preset(
            id="class-policies",
            name="Four classes on 6 VMs (class policies)",
            description="Static/dynamic x top/normal requests (5 ms / 50 ms, a fifth top) "
            "on 6 one-core PS VMs (218 req/s), p95 SLA of 1 s: the base of the class "
            "policies comparison (MaxConn_D(T_D) = 5, MaxConn_D = 10).",
            scenario=class_presets.class_policies(),
            sweep=class_presets.class_policies_sweep(),
        ),
        Preset(
            id="virtual-queue",
            name="One 100 req/s server in overload (virtual queue)",
            description=class_presets.virtual_queue_description(class_presets.virtual_queue()),
            scenario=class_presets.virtual_queue(),
        ),
    ]


def dataset_preset(session: Session, principal: Principal, dataset_id: int) -> Preset:
    """The dataset's newest finished characterization as a scenario, under the SLA the
    dataset's own data gives (:func:`dataset_sla`)."""
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    model = characterization(session, dataset.id)["model"]
    assert isinstance(model, dict)  # a characterization's workload model is a JSON object
    return _model_preset(dataset.id, dataset.name, model, dataset_sla(session, dataset.id))


def dataset_sla(session: Session, dataset_id: int) -> tuple[dict[str, float] | None, str]:
    """The SLA of a scenario built from a dataset and where it comes from: the newest
    capacity analysis' derived SLA; else the log's own p99 response time at the 95th
    percentile (as a replay); else none (the log records no response times)."""
    derived = analysis_service.derived_sla(session, dataset_id)
    if derived is not None:
        return derived, "derived by the dataset's capacity analysis"
    ingested = dataset_service.ingest_result(session, dataset_id)
    latency = (ingested.document or {}).get("latency") if ingested is not None else None
    if latency and latency.get("p99_s"):
        threshold_s = float(f"{max(float(latency['p99_s']), 0.001):.3g}")
        return {"percentile": 95.0, "threshold_s": threshold_s}, "the log's own p99 response time"
    return None, "none: the log records no response times"


def characterization(session: Session, dataset_id: int) -> dict[str, JsonValue]:
    """The dataset's newest finished characterization (the whole result document)."""
    rows, _ = job_repository.derived_page(session, Characterization, dataset_id, 50, 0)
    for item in rows:
        result = derived.result_of(session, item)
        if result is not None:
            return result
    raise NotFound(
        f"dataset {dataset_id} has no finished workload characterization: characterize it first",
        field="dataset_id",
    )


POLICY_PRESETS = {
    "class_policies": ("class-policies", "Class policies", dataset_policies.class_policies_from),
    "virtual_queue": ("virtual-queue", "Virtual queue", dataset_policies.virtual_queue_from),
}


def dataset_policy_preset(
    session: Session, principal: Principal, dataset_id: int, kind: str
) -> Preset:
    """A policy page's scenario (and, for the class policies, its sweep) built from the
    dataset's characterization: its hourly arrival rates, classes and service times."""
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    suffix, label, build = POLICY_PRESETS[kind]
    try:
        built = build(characterization(session, dataset.id), dataset.name)
    except (KeyError, ValueError, TypeError) as error:
        raise InvalidInput("invalid_workload_model", f"the characterization: {error}") from None
    return Preset(
        id=f"dataset-{dataset.id}-{suffix}",
        name=f"{label} from dataset {dataset.name}",
        description=built.description,
        scenario=built.scenario,
        sweep=built.sweep,
    )


def dataset_replay_preset(session: Session, principal: Principal, dataset_id: int) -> Preset:
    """A replay of the dataset's own requests: a scenario that refers to the dataset."""
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    ingested = dataset_service.ingest_result(session, dataset.id)
    if dataset.status != DatasetStatus.ready or ingested is None:
        raise NotReady(f"dataset {dataset_id} is {dataset.status}: it can be replayed once ready")
    summary = ingested.document
    latency = summary.get("latency")
    p99 = float(latency["p99_s"]) if latency else None
    scenario = replay(str(dataset.id), dataset.name, float(summary.get("span_s") or 0), p99)
    source = (
        "resampled from its logged response times"
        if p99
        else "the reference's (no response times logged)"
    )
    return Preset(
        id=f"dataset-{dataset.id}-replay",
        name=f"Replay of {dataset.name}",
        description=f"The dataset's {summary.get('request_count', 0):,} requests at their logged "
        f"times on the reference cluster and autoscaling; service times {source}.",
        scenario=scenario,
    )


def _step_words(step_s: float) -> str:
    if step_s % 3600 == 0:
        return "hour" if step_s == 3600 else f"{step_s / 3600:g} hours"
    if step_s % 60 == 0:
        return "minute" if step_s == 60 else f"{step_s / 60:g} minutes"
    return f"{step_s:g} s"


def _model_preset(
    dataset_id: int,
    name: str,
    model: ScenarioJson,
    sla: tuple[dict[str, float] | None, str] = (None, ""),
) -> Preset:
    try:
        scenario = from_workload_model(model, name)
    except ModelError as error:
        raise InvalidInput("invalid_workload_model", f"the workload model: {error}") from None
    target, source = sla
    if target is not None:
        scenario["sla"] = {"percentile": target["percentile"], "threshold_s": target["threshold_s"]}
        sla_text = f"p{target['percentile']:g} under {target['threshold_s']:g} s ({source})"
    else:
        scenario.pop("sla", None)
        sla_text = source or "none"
    step = float(model.get("profile_step_s", 3600.0))
    return Preset(
        id=f"dataset-{dataset_id}",
        name=f"From dataset {name}",
        description="The dataset's arrival profile (one rate per "
        f"{_step_words(step)}), page shape and service times (workload model) on the "
        f"reference cluster and autoscaling. SLA: {sla_text}.",
        scenario=scenario,
    )


def list_visible(
    session: Session, principal: Principal, workspace_id: int | None
) -> list[SavedScenario]:
    scope = principal.workspace_ids
    if workspace_id is not None:
        principal.require(workspace_id, Role.viewer)
        scope = [workspace_id]
    return repository.scenarios(session, scope)
