"""The key numbers of a stored result document, for lists (no engine import: API side)."""

from headroom.simulations.result_models import (
    BestRun,
    RunDocument,
    RunSummary,
    SweepDocument,
    SweepKeyNumbers,
)


def key_numbers(document: RunDocument | SweepDocument) -> RunSummary | SweepKeyNumbers | None:
    """A run's summary; for a sweep, its size and its best run: the cheapest without SLA
    violations (the cheapest of all when none is free of them, or without an SLA)."""
    if isinstance(document, RunDocument):
        return document.summary
    runs = document.runs
    if not runs:
        return None
    clean = [r for r in runs if r.sla_violation_fraction == 0]
    best = min(clean or runs, key=lambda r: r.cost or 0.0)
    summary = best.summary.model_dump(exclude_unset=True)
    return SweepKeyNumbers(
        runs=len(runs),
        axes=[axis.path for axis in document.axes],
        best=BestRun.model_validate({"values": best.values, **summary}),
    )
