"""The capacity analysis of a Prometheus dataset: its stored intervals as load windows
(engine/capacity/prometheus.py), the report stating the histogram's bounds and limits."""

from typing import TYPE_CHECKING

from headroom.core.storage import ObjectStore
from headroom.jobs.models import Result

if TYPE_CHECKING:
    from headroom.engine.capacity import CapacityParams, CapacityReport


def prometheus_capacity(
    store: ObjectStore, result: Result, params: "CapacityParams"
) -> "CapacityReport":
    from headroom.engine.capacity import analyze_windows
    from headroom.engine.capacity.prometheus import capacity_windows, histogram_note
    from headroom.sources.imports import read_intervals

    series = read_intervals(store, result)
    windows = capacity_windows(series, params.percentile)
    intervals = int((series.class_index == 0).sum())
    note = histogram_note(series.bucket_bounds_s, intervals, windows["all"].load_per_s.size)
    step = f"{series.step_s:g} s"
    said = (
        f"windows are the source's {step} intervals (the window length set for logs does "
        "not apply); latencies are histogram interpolations",
    )
    return analyze_windows(windows, params, said, note)
