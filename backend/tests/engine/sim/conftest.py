"""Every simulation run in this folder is checked for conservation and Little's law.

The module-scoped autouse fixture wraps ``Simulation.run`` (calling the real one), so
each test's runs, including Hypothesis examples, pass :func:`assert_conserved`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from headroom.engine.sim.results import SimulationResult
from headroom.engine.sim.simulation import Simulation


def assert_conserved(r: SimulationResult) -> None:
    """Requests and pages are conserved; Little's law holds over [0, T] within 1%.

    Little: the time-average number in system (integrated event by event) equals the
    accepted arrival rate times the mean time in system (summed request by request,
    counting the requests still inside up to T). Exact up to rounding from an empty
    start, so 1% only absorbs float error.
    """
    assert r.requests == r.completed + r.rejected + r.in_system_at_end
    assert r.latency.count == r.completed
    assert r.pages_completed + r.pages_failed <= r.pages
    if r.little.arrival_rate_per_s > 0:
        assert r.little.relative_error < 0.01, r.little
    s, ticks = r.series, r.series.monitor_s
    assert int(np.rint(s.arrivals_per_s.sum(dtype=np.float64) * ticks)) <= r.requests
    assert int(np.rint(s.completions_per_s.sum(dtype=np.float64) * ticks)) <= r.completed
    assert np.all(s.in_system >= s.waiting) and np.all(s.waiting >= 0)


@pytest.fixture(autouse=True, scope="module")
def every_run_is_conserved() -> Iterator[None]:
    run = Simulation.run

    def checked(self: Simulation, *args: Any, **kwargs: Any) -> SimulationResult:
        result = run(self, *args, **kwargs)
        assert_conserved(result)
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Simulation, "run", checked)
        yield
