from typing import Literal

from pydantic import BaseModel, Field

DemoId = Literal[
    "epa_day",
    "large_variation",
    "quick_varying",
    "slowly_varying",
    "big_spike",
    "dual_phase",
    "steep_tri_phase",
]
MAX_CSV_CHARS = 8_000_000


class BackgroundDemo(BaseModel):
    id: DemoId
    label: str
    description: str


class BackgroundCompare(BaseModel):
    """One of `csv` (rows of t_s, busy_fraction), a `demo` series, or `simulation_id`: the
    utilization of a finished simulation run (the mean busy share of its active VMs)."""

    csv: str | None = Field(default=None, max_length=MAX_CSV_CHARS)
    demo: DemoId | None = None
    simulation_id: int | None = None
    static_quota: float | None = Field(default=None, ge=0, le=1)
    min_multiplier: float = Field(default=1.0, ge=1, le=16)


class BackgroundOutcome(BaseModel):
    background_cpu_fraction: float
    idle_fraction: float
    foreground_delayed_fraction: float
    foreground_delay_p95_s: float


class BackgroundComparison(BaseModel):
    round_s: float
    rounds: int
    policies: dict[str, BackgroundOutcome]
    series: dict[str, list[float]]  # t_s, demand, quota_<policy>, background_<policy>
