"""A simulation sweep as a report item: the app's cost against SLA-violation frontier (every
run a dot, the Pareto-optimal ones highlighted and joined as a staircase) and the best run's
figures."""

from dataclasses import dataclass

from headroom.reports.schemas import Chart, Figure, ItemContent, Mark, Series
from headroom.reports.snapshots import SnapshotError, fig
from headroom.simulations.result_models import RunDocument, SweepDocument, SweepRow
from headroom.simulations.scenario_json import ScenarioJson


@dataclass(frozen=True)
class Point:
    index: int
    cost: float
    badness: float  # SLA violation fraction, or the p95 (PLT with pages) without an SLA


def measure(runs: list[SweepRow]) -> str:
    """'sla' when any run has an SLA violation fraction, else 'p95' (the scenario has no SLA)."""
    return "sla" if any(r.sla_violation_fraction is not None for r in runs) else "p95"


def frontier_points(runs: list[SweepRow], by: str) -> list[Point]:
    out = []
    for run in runs:
        bad = run.sla_violation_fraction if by == "sla" else _p95(run)
        if run.cost is not None and bad is not None:
            out.append(Point(run.index, run.cost, bad))
    return out


def _p95(run: SweepRow) -> float | None:
    return run.plt_p95_s if run.plt_p95_s is not None else run.latency_p95_s


def pareto_front(points: list[Point]) -> list[Point]:
    """The points no other point beats on both cost and badness, by rising cost."""
    front: list[Point] = []
    for p in sorted(points, key=lambda p: (p.cost, p.badness)):
        if not front or p.badness < front[-1].badness:
            front.append(p)
    return front


def best_run(runs: list[SweepRow]) -> SweepRow:
    """The cheapest run without SLA violations; the cheapest of all when none is free of
    them (or without an SLA). The sweep list names the same run (simulations.summaries)."""
    clean = [r for r in runs if r.sla_violation_fraction == 0]
    return min(clean or runs, key=lambda r: r.cost or 0.0)


def sweep(
    document: RunDocument | SweepDocument,
    scenario: ScenarioJson,
    seed: int | None,
) -> ItemContent:
    if not isinstance(document, SweepDocument):
        raise SnapshotError("this simulation is a single run: add it with kind 'simulation'")
    runs = document.runs
    if not runs:
        raise SnapshotError("the sweep has no runs")
    by = measure(runs)
    points = frontier_points(runs, by)
    front, best = pareto_front(points), best_run(runs)
    axes = [axis.model_dump(mode="json") for axis in document.axes]
    return ItemContent(
        source_label="",
        params={"scenario": scenario, "seed": seed, "axes": axes, "best_values": best.values},
        figures=_figures(runs, front, best),
        charts=[_frontier_chart(points, front, best, by)] if points else [],
        notes=_notes(runs, points, by),
    )


def _figures(runs: list[SweepRow], front: list[Point], best: SweepRow) -> list[Figure]:
    return [
        fig("runs", "Runs", len(runs), "count"),
        fig("pareto_runs", "Pareto-optimal runs", len(front), "count"),
        fig("best_cost", "Best run: cost", best.cost, "cost", "lower"),
        fig("best_vm_hours", "Best run: VM time", best.vm_hours, "VM-hours", "lower"),
        fig(
            "best_sla_violations",
            "Best run: windows violating the SLA",
            best.sla_violation_fraction,
            "fraction",
            "lower",
        ),
        fig("best_latency_p95", "Best run: latency p95", best.latency_p95_s, "s", "lower"),
        fig("best_max_vms", "Best run: most VMs allocated", best.summary.vms.max_allocated, "VMs"),
    ]


def _frontier_chart(points: list[Point], front: list[Point], best: SweepRow, by: str) -> Chart:
    on_front = {p.index for p in front}
    others = [p for p in points if p.index not in on_front]
    series = [
        Series(key="front", label="Pareto frontier", x=_xs(front), y=_ys(front)),
        _scatter("runs", f"Other runs ({len(others)})", others),
        _scatter("pareto", f"Pareto-optimal runs ({len(front)})", front),
    ]
    marks = [
        Mark(label=f"Best: run {p.index + 1}", x=p.cost, y=p.badness)
        for p in points
        if p.index == best.index
    ]
    return Chart(
        key="frontier",
        title="Cost against SLA violations" if by == "sla" else "Cost against p95 time",
        kind="step",
        x_label="cost",
        x_unit="cost",
        y_label="SLA violations (share of windows)" if by == "sla" else "p95 (PLT with pages)",
        y_unit="fraction" if by == "sla" else "s",
        series=[s for s in series if s.x],
        marks=marks,
    )


def _scatter(key: str, label: str, points: list[Point]) -> Series:
    return Series(key=key, label=label, x=_xs(points), y=_ys(points), points=True)


def _xs(points: list[Point]) -> list[float]:
    return [p.cost for p in points]


def _ys(points: list[Point]) -> list[float | None]:
    return [p.badness for p in points]


def _notes(runs: list[SweepRow], points: list[Point], by: str) -> list[str]:
    notes = []
    if by == "p95":
        notes.append("The scenario has no SLA: the runs are compared on their p95 time.")
    elif not any(r.sla_violation_fraction == 0 for r in runs):
        notes.append("No run is free of SLA violations: the best run is the cheapest of all.")
    if len(points) < len(runs):
        notes.append(f"{len(runs) - len(points)} runs have no cost or no measure: not plotted.")
    return notes
