"""Histograms: counts against numpy, density integrates to the positive share, and the
fitted pdf tracks the density where the bins are well filled."""

from __future__ import annotations

import numpy as np
import pytest

from headroom.engine.workload.fitting import fit_distribution
from headroom.engine.workload.histogram import histogram


def test_log_bins_and_fitted_density() -> None:
    rng = np.random.default_rng(3)
    x = np.concatenate([np.zeros(1000), rng.lognormal(8, 1.5, 9000)])
    h = histogram(x, fit_distribution(x), bins=30)
    assert h.log_x and h.zeros == 1000 and sum(h.counts) == 9000
    ref, _ = np.histogram(x[x > 0], bins=np.asarray(h.edges))
    assert h.counts == ref.tolist()
    area = np.sum(np.asarray(h.density) * np.diff(h.edges))
    assert area == pytest.approx(0.9)
    assert h.fitted_dist == "lognormal" and h.fitted_pdf is not None
    # bins with >= 400 values: relative sampling error <= 1/sqrt(400) = 5%; allow 4 x 5%
    # plus the centre-vs-average-over-bin difference of log bins (3.5% wide in log x)
    dens, pdf = np.asarray(h.density), np.asarray(h.fitted_pdf)
    full = np.asarray(h.counts) >= 400
    assert np.all(np.abs(pdf[full] / dens[full] - 1) < 0.25)


def test_linear_bins_and_degenerate_inputs() -> None:
    h = histogram(np.arange(1, 11, dtype=float), bins=9)
    assert not h.log_x and h.counts == [1] * 8 + [2] and h.fitted_pdf is None
    assert histogram([]).counts == [] and histogram([0, 0]).zeros == 2
    assert histogram([5.0, 5.0]).counts == [2]
