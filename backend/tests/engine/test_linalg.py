"""The plain-loop linear algebra against numpy's BLAS-backed calls on random problems."""

import numpy as np
import pytest

from headroom.engine.linalg import (
    inverse,
    least_squares,
    matmul,
    matvec,
    polyfit,
    solve,
    solve_each,
)

RTOL = 1e-9


@pytest.mark.parametrize("low", [0.0, 0.9])  # spread over (0, 1], or bunched near 1
def test_least_squares_is_numpys(low: float) -> None:
    rng = np.random.default_rng(5)
    for rows in (6, 40, 512):
        x = rng.uniform(low, 1.0, rows)
        a = np.stack([x**3, x**2, x, np.ones(rows)], axis=1)
        y = rng.normal(size=rows)
        expected = np.linalg.lstsq(a, y, rcond=None)[0]
        np.testing.assert_allclose(least_squares(a, y), expected, rtol=1e-7)


@pytest.mark.parametrize(("degree", "rows", "high"), [(3, 200, 1.0), (3, 5, 1.0), (2, 3, 300.0)])
def test_polyfit_is_numpys(degree: int, rows: int, high: float) -> None:
    rng = np.random.default_rng(degree * rows)
    for _ in range(50):
        x = rng.uniform(0.05 * high, high, rows)
        y = rng.uniform(1.0, 100.0, rows)
        np.testing.assert_allclose(polyfit(x, y, degree), np.polyfit(x, y, degree), rtol=RTOL)


def test_solve_and_inverse_are_numpys_on_gram_matrices() -> None:
    rng = np.random.default_rng(7)
    for n in (3, 4):
        design = rng.uniform(0.0, 50.0, (200, 30, n))
        gram = np.einsum("pmk,pml->pkl", design, design)
        rhs = rng.normal(size=(200, n))
        expected = np.linalg.solve(gram, rhs[..., None])[..., 0]
        np.testing.assert_allclose(solve_each(gram, rhs), expected, rtol=RTOL)
        np.testing.assert_allclose(inverse(gram[0]), np.linalg.inv(gram[0]), rtol=RTOL)


def test_a_singular_system_is_refused() -> None:
    with pytest.raises(ZeroDivisionError):
        solve(np.zeros((2, 2)), np.ones(2))


def test_products_are_numpys() -> None:
    rng = np.random.default_rng(9)
    weights = rng.integers(0, 4, (400, 30)).astype(np.float64)
    counts = rng.uniform(0.0, 1e4, (30, 401))
    np.testing.assert_allclose(matmul(weights, counts), weights @ counts, rtol=RTOL)
    np.testing.assert_allclose(matvec(counts.T, counts[:, 0]), counts.T @ counts[:, 0], rtol=RTOL)
