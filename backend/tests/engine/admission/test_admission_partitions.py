"""DynamicPart and SwitchAdm kernels. Scenario (docs/methods/admission.md's worked example): N = 10
servers, MaxConn_D(T_D) = 18 and MaxConn_D = 26 dynamic connections per server; the cluster holds on
average 0.9 x N x 18 = 162 dynamic connections, the top share of them on the High Set, averaged over
each 10 s period: with connections held ~1 s that is the mean of ~10 independent Poisson counts,
Poisson(10 L) / 10 (seeded). The ideal High Set is then ceil(top x 162 / 18): 2 servers at top
fraction 0.2 and 8 at 0.8."""

import numpy as np
import pytest

from headroom.engine.admission.partitions import (
    dynamic_part_admits_normal,
    dynamic_part_run,
    dynamic_part_start,
    dynamic_part_step,
    switch_adm_admits,
    switch_adm_array,
)
from headroom.engine.capacity.partitions import static_partition

N, SLA_CONN, MAX_CONN, TOTAL_CONN = 10, 18.0, 26.0, 162.0


def _loads(top_fraction: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.poisson(10 * top_fraction * TOTAL_CONN) / 10.0


def test_starts_from_the_static_partition() -> None:
    # K = ceil(0.2 x 10 + 10 x 0.8 x (1 - 18/26)) = ceil(4.46) = 5
    assert dynamic_part_start(N, 0.2, SLA_CONN, MAX_CONN) == 5
    assert static_partition(N, 0.2, SLA_CONN, MAX_CONN).k == 5


@pytest.mark.parametrize(("top", "seed"), [(0.2, 0), (0.5, 1), (0.8, 2)])
def test_constant_top_fraction_keeps_k_within_one_of_its_mean(top: float, seed: int) -> None:
    k0 = dynamic_part_start(N, top, SLA_CONN, MAX_CONN)
    loads = _loads(np.full(400, top), seed)
    ks = dynamic_part_run(k0, N, loads, loads, SLA_CONN)
    settled = ks[20:]  # the first periods walk from the StaticPart K
    # "varies by at most one around its mean": every K within one server of the mean K
    # rounded to a whole server (noise of sd ~0.2 server)
    assert np.abs(settled - round(settled.mean())).max() <= 1
    assert abs(settled.mean() - np.ceil(top * TOTAL_CONN / SLA_CONN)) <= 1.0


def test_k_follows_a_step_in_the_top_fraction_within_a_few_periods() -> None:
    top = np.where(np.arange(200) < 100, 0.2, 0.8)
    k0 = dynamic_part_start(N, 0.2, SLA_CONN, MAX_CONN)
    loads = _loads(top, 3)
    ks = dynamic_part_run(k0, N, loads, loads, SLA_CONN)
    assert abs(ks[90:100].mean() - 2) <= 1
    # 2 -> 8 needs six one-server moves: one per period, so it arrives in 6 to 8 periods
    arrived = int(np.argmax(ks[100:] >= 7))
    assert ks[100 + arrived] >= 7 and arrived <= 8
    assert abs(ks[120:].mean() - 8) <= 1
    static_k = static_partition(N, 0.2, SLA_CONN, MAX_CONN).k
    assert static_k == 5  # StaticPart stays put at its design-time K


def test_step_rules_and_clamping() -> None:
    assert dynamic_part_step(3, N, 3 * 18 + 1, 3 * 18 + 1, 18) == 4
    assert dynamic_part_step(3, N, 3 * 18, 3 * 18, 18) == 3
    assert dynamic_part_step(3, N, 2 * 18 - 1, 2 * 18 - 1, 18) == 2
    assert dynamic_part_step(9, N, 1e6, 1e6, 18) == 9  # never an empty Low Set
    assert dynamic_part_step(1, N, 0, 0, 18) == 1
    assert dynamic_part_admits_normal(7, N, 3 * 18, 18)
    assert not dynamic_part_admits_normal(7, N, 3 * 18 + 1, 18)


def test_switch_adm_rejects_normal_first_then_top() -> None:
    thr = switch_adm_array(4, 85, 18, 120, 26)  # Thr_S 340, Thr_D 72, top 480 / 104
    assert switch_adm_admits(thr, 72, True, False)
    assert not switch_adm_admits(thr, 73, True, False)
    assert switch_adm_admits(thr, 100, True, True)
    assert not switch_adm_admits(thr, 105, True, True)
    assert switch_adm_admits(thr, 340, False, False)
    assert not switch_adm_admits(thr, 341, False, False)


def test_a_low_instant_in_a_busy_period_keeps_the_high_set() -> None:
    """The High Set shrinks only when its load stayed under (K - 1) x MaxConn_D(T_D) all
    period: 2 servers whose load ends the period at 10 connections (< 18) but peaked at
    30 (> 18) keep K = 2; a period that never passed 17 gives one back."""
    assert dynamic_part_step(2, N, 10, 30, 18) == 2
    assert dynamic_part_step(2, N, 10, 17, 18) == 1
    # growth still reads the load at the period's end
    assert dynamic_part_step(2, N, 37, 37, 18) == 3
