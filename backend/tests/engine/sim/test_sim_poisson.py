"""Periods' arrivals and demands drawn at once against numpy's draws period by period:
the same values to the bit and the generators left in the same state."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from headroom.engine.sim import distributions as ds
from headroom.engine.sim.arrivals import PoissonArrivals, ProfileArrivals, periods_between
from headroom.engine.sim.poisson import _sort_uniform, poisson_count


def _pair(seed: int) -> tuple[np.random.Generator, np.random.Generator]:
    return np.random.default_rng(seed), np.random.default_rng(seed)


@pytest.mark.parametrize(
    "lam", [0.0, 1e-9, 0.5, 3.0, 9.999, 10.0, 10.5, 37.0, 192.0, 4_000.0, 2.5e6]
)
def test_poisson_count_is_numpys(lam: float) -> None:
    """Counts on both sides of numpy's switch between its two methods (lam 10), many
    draws in a row from one stream."""
    ours, numpys = _pair(int(lam * 1000) + 7)
    drawn = [poisson_count(ours, lam) for _ in range(3000)]
    assert drawn == numpys.poisson(lam, 3000).tolist()
    assert ours.bit_generator.state == numpys.bit_generator.state


def _one_by_one(
    rate: float, edges: np.ndarray, seed: int
) -> tuple[np.ndarray, list[int], np.random.Generator]:
    """Each period drawn on its own (PoissonArrivals.between); the generator after."""
    rng = np.random.default_rng(seed)
    parts = [PoissonArrivals(rate).between(rng, t0, t1) for t0, t1 in pairwise(edges)]
    return np.concatenate(parts), [len(p) for p in parts], rng


@pytest.mark.parametrize("rate", [0.0, 0.05, 3.2, 40.0, 900.0])
def test_poisson_periods_are_the_periods_drawn_one_by_one(rate: float) -> None:
    """Periods of uneven lengths, Poisson means on both sides of numpy's switch."""
    edges = np.array([0.0, 0.7, 60.0, 60.5, 120.0, 180.25, 1000.0, 1000.1, 1100.0])
    for seed in range(20):
        rng = np.random.default_rng(seed)
        times, counts = periods_between(PoissonArrivals(rate), rng, edges, 10**9)
        expected, expected_counts, after = _one_by_one(rate, edges, seed)
        assert counts.tolist() == expected_counts
        assert times.tobytes() == expected.tobytes()
        assert rng.bit_generator.state == after.bit_generator.state


def test_periods_stop_once_the_limit_is_reached() -> None:
    edges = np.arange(0.0, 601.0, 60.0)
    for process in (PoissonArrivals(3.2), ProfileArrivals((0.0, 300.0), (1.0, 5.0))):
        times, counts = periods_between(process, np.random.default_rng(1), edges, 500)
        assert counts.sum() == len(times) >= 500 > counts[:-1].sum()
        assert np.all(np.diff(times) >= 0)
        rng = np.random.default_rng(1)
        parts = [process.between(rng, t0, t1) for t0, t1 in pairwise(edges[: len(counts) + 1])]
        assert times.tobytes() == np.concatenate(parts).tobytes()


@pytest.mark.parametrize(("low", "span"), [(0.0, 1.0), (1000.0, 1e-14), (5.0, 1e-320)])
def test_a_period_of_any_length_is_sorted(low: float, span: float) -> None:
    """Also periods shorter than a float step at their start, and so short that their
    bucket scale overflows."""
    values = low + span * np.random.default_rng(3).random(1000)
    expected = np.sort(values)
    _sort_uniform(values, low, span)
    assert values.tobytes() == expected.tobytes()


DISTRIBUTIONS: list[ds.Distribution] = [
    ds.Constant(0.3),
    ds.Uniform(0.1, 2.0),
    ds.Exponential(0.7),
    ds.Lognormal(-1.0, 0.8),
    ds.Pareto(2.5, 0.1),
    ds.Mixture((0.3, 0.7), (ds.Exponential(0.1), ds.Uniform(1.0, 2.0))),
    ds.Empirical((0.1, 0.2, 0.5, 3.0)),
]


@pytest.mark.parametrize("dist", DISTRIBUTIONS, ids=lambda d: type(d).__name__)
def test_sample_runs_are_the_draws_one_after_another(dist: ds.Distribution) -> None:
    sizes = [1100, 0, 192, 7, 0, 250, 1]
    ours, theirs = _pair(5)
    expected = np.concatenate([dist.sample(theirs, n) for n in sizes])
    assert ds.sample_runs(dist, ours, sizes).tobytes() == expected.tobytes()
    assert ours.bit_generator.state == theirs.bit_generator.state
