"""The policy pages' demo results, so they show real simulated results for the demo
dataset on a first visit: built from its characterization by dataset_policies.py (its
hourly arrival rates, request mix and service times, scaled to a load that exercises the
policy; the scaling is in each run's name). One class-policies sweep (the four admission
policies x five loads; the sweep keeps every run, so K(t) is read from its DynamicPart and
StaticPart runs), and the virtual-queue pair (with a discovering queue, and without a
stage). Named with the pages' prefixes (ClassPoliciesPage.tsx, VirtualQueuePage.tsx);
each is created once per workspace."""

from dataclasses import dataclass

from pydantic import JsonValue
from sqlalchemy import select

from headroom.auth.principal import Principal
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.simulations import class_presets, dataset_policies, service
from headroom.simulations.models import SimulationRun
from headroom.simulations.scenario_json import ScenarioJson, SweepJson
from headroom.simulations.schemas import SimulationIn, SweepIn

SWEEP_PREFIX = "Class policies · "
QUEUED_PREFIX, BARE_PREFIX = "Virtual queue · ", "No queue · "


@dataclass(frozen=True)
class DemoRun:
    name: str
    scenario: ScenarioJson
    sweep: SweepJson | None = None


def _shortened(scenario: ScenarioJson, duration_s: float | None) -> ScenarioJson:
    return scenario if duration_s is None else {**scenario, "duration_s": duration_s}


def demo_runs(
    characterization: dict[str, JsonValue],  # workloads' result document
    dataset_name: str,
    class_duration_s: float | None = None,
    queue_duration_s: float | None = None,
) -> list[DemoRun]:
    """The runs in the order the pages read them (durations overridable for tests)."""
    classes = dataset_policies.class_policies_from(characterization, dataset_name)
    queue = dataset_policies.virtual_queue_from(characterization, dataset_name)
    sweep_scenario = _shortened(classes.scenario, class_duration_s)
    bare = _shortened(queue.scenario, queue_duration_s)
    return [
        DemoRun(f"{SWEEP_PREFIX}{sweep_scenario['name']}", sweep_scenario, classes.sweep),
        DemoRun(f"{QUEUED_PREFIX}{bare['name']}", class_presets.with_virtual_queue(bare)),
        DemoRun(f"{BARE_PREFIX}{bare['name']}", {**bare, "admission": {"policy": "none"}}),
    ]


def create_missing(
    settings: Settings, principal: Principal, workspace_id: int, runs: list[DemoRun]
) -> list[int]:
    """Creates the runs the workspace lacks (by name); returns their jobs' ids, to run."""
    with session_scope(settings.resolved_database_url()) as session:
        names = set(
            session.scalars(
                select(SimulationRun.name).where(SimulationRun.workspace_id == workspace_id)
            )
        )
        jobs = []
        for run in (r for r in runs if r.name not in names):
            body = SimulationIn(
                name=run.name,
                scenario=run.scenario,
                sweep=SweepIn.model_validate(run.sweep) if run.sweep else None,
                workspace_id=workspace_id,
            )
            _, job = service.create(session, principal, body)
            jobs.append(job.id)
        return jobs
