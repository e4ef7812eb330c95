"""StaticPart K, the K-vs-top-fraction curve, SwitchAdm thresholds, servers needed
(docs/methods/admission.md), against the worked example and exact rational arithmetic."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom.engine.capacity.partitions import (
    CANNOT_MEET,
    max_top_fraction,
    partition_report,
    servers_needed,
    static_partition,
    switch_adm_thresholds,
)


def _k_exact(n: int, rho: Fraction, a: int, b: int) -> int:
    """The docs/methods/admission.md formula in exact rationals: no float rounding at integer
    boundaries."""
    return math.ceil(rho * n + n * (1 - rho) * (1 - Fraction(a, b)))


def test_worked_example() -> None:
    # N = 10, rho_T = 0.2, MaxConn_D(T_D) = 18, MaxConn_D = 26:
    # K = ceil(2 + 8 x (1 - 18/26)) = ceil(4.4615...) = 5
    part = static_partition(10, 0.2, 18, 26)
    assert part.k == 5 and part.k_formula == 5
    assert part.safety_factor == pytest.approx(18 / 26)
    assert part.warning is None


def test_worked_example_curve_matches_exact_formula() -> None:
    report = partition_report(10, 0.2, 18, 26)
    assert [p.top_fraction for p in report.curve] == pytest.approx([i / 20 for i in range(21)])
    for i, point in enumerate(report.curve):
        exact = _k_exact(10, Fraction(i, 20), 18, 26)
        assert point.k_formula == exact
        assert point.k == min(max(exact, 1), 9)
    # at rho = 1 the formula asks for all 10 servers: clamped to 9 with the warning
    assert report.curve[-1].k == 9
    assert static_partition(10, 1.0, 18, 26).warning == CANNOT_MEET
    # K <= N - 1 iff rho <= 1 - 1 / (N s) = 1 - 26/180
    assert report.max_top_fraction == pytest.approx(1 - 26 / 180)
    d = report.to_dict()
    assert d["K"] == 5 and d["warning"] is None and len(d["curve"]) == 21


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(2, 200),
    num=st.integers(0, 20),
    b=st.integers(1, 500),
    data=st.data(),
)
def test_k_matches_exact_arithmetic_and_clamps(
    n: int, num: int, b: int, data: st.DataObject
) -> None:
    a = data.draw(st.integers(1, b))
    rho = Fraction(num, 20)
    part = static_partition(n, float(rho), a, b)
    exact = _k_exact(n, rho, a, b)
    assert part.k_formula == exact
    assert 1 <= part.k <= n - 1
    assert (part.warning is not None) == (exact >= n)
    # the largest serviceable top fraction is where the formula reaches N - 1
    if float(rho) <= max_top_fraction(n, a, b) - 1e-9:
        assert exact <= n - 1


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 100), b=st.integers(1, 300), data=st.data())
def test_k_is_monotone_in_top_fraction(n: int, b: int, data: st.DataObject) -> None:
    a = data.draw(st.integers(1, b))
    ks = [p.k for p in partition_report(n, 0.5, a, b).curve]
    assert ks == sorted(ks)


def test_safety_factor_one_gives_rho_n() -> None:
    # MaxConn_D(T_D) = MaxConn_D: no safety margin, K = ceil(rho N)
    assert static_partition(10, 0.3, 26, 26).k == 3
    assert static_partition(10, 0.0, 26, 26).k == 1  # formula 0, clamped up to 1


def test_switch_adm_thresholds_worked_example() -> None:
    thr = switch_adm_thresholds(10, 85, 18, 100, 26)
    assert (thr.static_conn, thr.dynamic_conn) == (850, 180)
    assert (thr.static_top_conn, thr.dynamic_top_conn) == (1000, 260)


def test_servers_needed() -> None:
    assert servers_needed(1000, 150) == 7  # ceil(6.67)
    assert servers_needed(900, 150) == 6  # exact multiple: no extra server
    assert servers_needed(0, 150) == 1


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((1, 0.2, 18, 26), "servers"),
        ((10, 1.5, 18, 26), "top_fraction"),
        ((10, 0.2, 30, 26), "maxconn"),
    ],
)
def test_bad_input_names_the_field(args: tuple[int, float, int, int], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        static_partition(*args)
