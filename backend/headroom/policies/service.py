"""Policy calculators. The engine's background policies are compiled (numba), which the
API process never imports: runs go to a one-process pool, as sniffing does."""

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from headroom.core.errors import InvalidInput
from headroom.core.settings import REPO_ROOT
from headroom.policies.schemas import BackgroundCompare, BackgroundComparison, BackgroundDemo

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
_pool: ProcessPoolExecutor | None = None


def _run(text: str, static_quota: float | None, min_multiplier: float, rates: bool) -> Any:
    """Runs in the child; returns plain data (an error as {"error": message})."""
    from headroom.engine.background.compare import compare_csv
    from headroom.engine.background.series import SeriesError

    try:
        return compare_csv(text, static_quota, min_multiplier, rates)
    except SeriesError as error:
        return {"error": str(error)}


def _input(body: BackgroundCompare) -> tuple[str, bool]:
    if (body.csv is None) == (body.demo is None):
        raise InvalidInput("bad_series", "give either csv or demo", field="csv")
    if body.csv is not None:
        return body.csv, False
    if body.demo == "epa_day":
        return (PROFILES / "epa_cpu_demand.csv").read_text(), False
    return (PROFILES / f"{body.demo}.csv").read_text(), True


async def compare_background(body: BackgroundCompare) -> BackgroundComparison:
    text, rates = _input(body)
    loop = asyncio.get_running_loop()
    args = (text, body.static_quota, body.min_multiplier, rates)
    result = await loop.run_in_executor(_executor(), _run, *args)
    if "error" in result:
        raise InvalidInput("bad_series", result["error"], field="csv")
    return BackgroundComparison.model_validate(result)


def _executor() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"), max_tasks_per_child=200
        )
    return _pool
