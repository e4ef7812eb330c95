"""Policy calculators. The engine's background policies are compiled (numba), which the
API process never imports: runs go to a helper process (core.heavy_calls)."""

from typing import Any

from sqlalchemy.orm import Session

from headroom.auth.principal import Principal
from headroom.core import heavy_calls
from headroom.core.errors import InvalidInput, NotReady
from headroom.core.settings import REPO_ROOT
from headroom.policies.schemas import BackgroundCompare, BackgroundComparison, BackgroundDemo
from headroom.simulations import service as simulations
from headroom.simulations.result_models import Rates, RunDocument

PROFILES = REPO_ROOT / "data" / "profiles"
_RATE_NOTE = "a bursty rate profile as CPU demand, its peak at 90% busy (synthetic shape)"
DEMOS = (
    BackgroundDemo(
        id="epa_day",
        label="EPA web server, one day (real)",
        description="requests per minute over 24 h as CPU demand, the busiest minute 90% busy",
    ),
    *(
        BackgroundDemo(id=name, label=name.replace("_", " ").capitalize(), description=_RATE_NOTE)
        for name in (
            "large_variation",
            "quick_varying",
            "slowly_varying",
            "big_spike",
            "dual_phase",
            "steep_tri_phase",
        )
    ),
)


def _run(text: str, static_quota: float | None, min_multiplier: float, rates: bool) -> Any:
    """Runs in the child; returns plain data (an error as {"error": message})."""
    from headroom.engine.background.compare import compare_csv
    from headroom.engine.background.series import SeriesError

    try:
        return compare_csv(text, static_quota, min_multiplier, rates)
    except SeriesError as error:
        return {"error": str(error)}


def _input(session: Session, principal: Principal, body: BackgroundCompare) -> tuple[str, bool]:
    given = [x is not None for x in (body.csv, body.demo, body.simulation_id)]
    if sum(given) != 1:
        raise InvalidInput("bad_series", "give one of csv, demo or simulation_id", field="csv")
    if body.csv is not None:
        return body.csv, False
    if body.simulation_id is not None:
        return simulation_demand_csv(session, principal, body.simulation_id), False
    if body.demo == "epa_day":
        return (PROFILES / "epa_cpu_demand.csv").read_text(), False
    return (PROFILES / f"{body.demo}.csv").read_text(), True


def simulation_demand_csv(session: Session, principal: Principal, simulation_id: int) -> str:
    """A finished run's utilization (the mean busy share of its active VMs, in the stored
    display buckets) as `t_s, busy_fraction` rows; 404 outside the caller's workspaces."""
    simulation = simulations.get_visible(session, principal, simulation_id)
    if simulation.sweep:
        raise InvalidInput(
            "bad_series",
            f"simulation {simulation_id} is a sweep: pick one of its runs, or a single run",
            field="simulation_id",
        )
    result = simulations.result_document(session, simulation)
    if result is None:
        raise NotReady(f"simulation {simulation_id} has not finished: no utilization yet")
    if not isinstance(result, RunDocument):
        raise InvalidInput("bad_series", f"simulation {simulation_id} is not a run")
    return demand_csv(result.rates)


def demand_csv(rates: Rates) -> str:
    """Rows at the bucket starts; a last, shorter bucket is left out (rows must be evenly
    spaced)."""
    bucket_s, ends = rates.bucket_s, rates.t_s
    busy = rates.utilization
    n = len(ends)
    if n >= 2 and abs(ends[-1] - ends[-2] - bucket_s) > 0.01 * bucket_s:
        n -= 1
    if n < 2:
        raise InvalidInput(
            "bad_series",
            "the run is too short: fewer than 2 utilization buckets",
            field="simulation_id",
        )
    rows = (f"{i * bucket_s:.6g},{min(max(float(busy[i]), 0.0), 1.0):.6g}" for i in range(n))
    return "t_s,busy_fraction\n" + "\n".join(rows) + "\n"


async def compare_background(
    session: Session, principal: Principal, body: BackgroundCompare
) -> BackgroundComparison:
    text, rates = _input(session, principal, body)
    args = (text, body.static_quota, body.min_multiplier, rates)
    result = await heavy_calls.run(_run, *args)
    if "error" in result:
        raise InvalidInput("bad_series", result["error"], field="csv")
    return BackgroundComparison.model_validate(result)
