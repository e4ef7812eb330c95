"""A simulation run's stored utilization buckets as a background-policy series."""

from headroom.engine.background.series import parse_series
from headroom.policies.service import demand_csv
from headroom.simulations.result_models import Rates


def test_demand_rows_are_evenly_spaced_and_clipped() -> None:
    ends = [4.0, 8.0, 12.0, 14.0]
    zeros = [0.0] * len(ends)
    rates = Rates(
        monitor_s=1.0,
        bucket_s=4.0,
        t_s=ends,
        arrivals_per_s=zeros,
        completions_per_s=zeros,
        rejected_per_s=zeros,
        waiting=zeros,
        in_system=zeros,
        utilization=[0.5, 1.2, -0.1, 0.3],
        utilization_max=zeros,
    )
    series = parse_series(demand_csv(rates))  # the last, shorter bucket is left out
    assert series.round_s == 4.0
    assert series.t_s.tolist() == [0.0, 4.0, 8.0]
    assert series.busy_fraction.tolist() == [0.5, 1.0, 0.0]
