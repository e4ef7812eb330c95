"""The policy pages' demo results (issue 7), so they show real simulated results on a first
visit: one class-policies sweep (the four admission policies x five loads on the four-class
preset; the sweep keeps every run, so K(t) is read from its DynamicPart and StaticPart
runs), and the virtual-queue pair (with a discovering queue, and without a stage). Named
with the pages' prefixes (ClassPoliciesPage.tsx, VirtualQueuePage.tsx); each is created
once per workspace."""

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from headroom.auth.principal import Principal
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.simulations import class_presets, service
from headroom.simulations.models import SimulationRun
from headroom.simulations.schemas import SimulationIn, SweepIn

SWEEP_PREFIX = "Class policies · "
QUEUED_PREFIX, BARE_PREFIX = "Virtual queue · ", "No queue · "


@dataclass(frozen=True)
class DemoRun:
    name: str
    scenario: dict[str, Any]
    sweep: dict[str, Any] | None = None


def _shortened(scenario: dict[str, Any], duration_s: float | None) -> dict[str, Any]:
    return scenario if duration_s is None else {**scenario, "duration_s": duration_s}


def demo_runs(
    class_duration_s: float | None = None, queue_duration_s: float | None = None
) -> list[DemoRun]:
    """The runs in the order the pages read them (durations overridable for tests)."""
    classes = _shortened(class_presets.class_policies(), class_duration_s)
    queue = _shortened(class_presets.virtual_queue(), queue_duration_s)
    return [
        DemoRun(f"{SWEEP_PREFIX}{classes['name']}", classes, class_presets.class_policies_sweep()),
        DemoRun(f"{QUEUED_PREFIX}{queue['name']}", class_presets.with_virtual_queue(queue)),
        DemoRun(f"{BARE_PREFIX}{queue['name']}", {**queue, "admission": {"policy": "none"}}),
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
