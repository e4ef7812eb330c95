"""The capacity reports and a fit's standard errors are the same on every CPU: computed
here under two of OpenBLAS's CPU kernels, whose sums run in different orders."""

from support.blas import needs_both_kernels, outputs_under_each_kernel

RUN_FIGURES = """
import hashlib, json, math
import numpy as np, polars as pl
from headroom.engine.capacity import CapacityParams, analyze, analyze_windows, synth
from headroom.engine.capacity.prometheus import capacity_windows
from headroom.engine.capacity.sct import SctParams, analyze_trace
from headroom.engine.prometheus import IntervalSeries
from headroom.engine.workload import fitting

def queue_log(mu, seed, cls):
    rates = [r * mu / 100.0 for r in np.linspace(5.0, 90.0, 18)]
    table = synth.queue_log(rates, 200.0, mu, 1, np.random.default_rng(seed))
    return table.with_columns(cls_request=pl.lit(cls), server=pl.lit("web-1"))

def pool(q_lower, q_upper, seed, name):
    rates = synth.plateau_rates(100.0, q_lower, q_upper, 0.02, 80)
    users = list(range(1, 51)) + list(range(50, 0, -1))
    return synth.pool_trace(users, 5.0, 0.005, rates, np.random.default_rng(seed), server=name)

def mm1_series(mu=100.0, step_s=60.0):
    bounds = np.array([*np.round(np.arange(0.005, 2.0001, 0.005), 3), math.inf])
    loads = np.repeat(np.linspace(10.0, 92.0, 20), 6)
    requests = loads * step_s
    return IntervalSeries(
        step_s=step_s, classes=("all",), start_s=step_s * np.arange(loads.size, dtype=float),
        class_index=np.zeros(loads.size, np.int64), requests=requests,
        errors=np.zeros(loads.size), bucket_bounds_s=bounds,
        bucket_counts=requests[:, None] * (1.0 - np.exp(-np.outer(mu - loads, bounds))),
    )

def hessians():  # 2 x 2 observed informations, a twentieth of which LAPACK inverts per kernel
    rng = np.random.default_rng(0)
    for _ in range(200):
        a = rng.normal(size=(2, 2))
        yield -(np.einsum("ij,kj->ik", a, a) + 2.0 * np.eye(2))

log = pl.concat([queue_log(200.0, 1, "static"), queue_log(50.0, 2, "dynamic")]).sort("ts")
trace = pl.concat([pool(10, 20, 1, "a"), pool(20, 30, 2, "b")]).sort("ts")
params = CapacityParams(threshold_s=0.1, bootstrap_resamples=50)
docs = [
    analyze(log).to_dict(),
    analyze_trace(trace, SctParams(window_s=None)).to_dict(),
    analyze_windows(capacity_windows(mm1_series(), 95.0), params).to_dict(),
]
given = hessians()
fitting._hessian = lambda f, theta, floor=None: next(given)
gamma = {"shape": 1.0, "scale": 1.0}
docs.append([fitting.standard_errors("gamma", gamma, np.ones(3)) for _ in range(200)])
print(hashlib.sha256(json.dumps(docs, sort_keys=True, default=str).encode()).hexdigest())
"""


@needs_both_kernels
def test_capacity_reports_and_standard_errors_do_not_depend_on_the_blas_kernel() -> None:
    assert len(outputs_under_each_kernel(RUN_FIGURES)) == 1
