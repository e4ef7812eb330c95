"""Small dense linear algebra in plain loops: the same bits on every CPU.

numpy's solvers and matrix products call OpenBLAS, whose kernel follows the CPU it runs
on; kernels sum in different orders, so a fit's last bits (and the figures, choices and
documents built on them) would differ between machines. These functions fix the order
of every sum. They are meant for the engine's small systems: a few unknowns, at most some
thousands of rows."""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


@njit(cache=True)
def least_squares(a: FloatArray, y: FloatArray) -> FloatArray:
    """The x minimising |a x - y| for ``a`` of full column rank, by Householder QR."""
    m, n = a.shape
    r, b = a.copy(), y.copy()
    v = np.empty(m)
    for k in range(n):
        norm = math.sqrt(np.sum(r[k:, k] ** 2))
        if norm == 0.0:
            continue
        alpha = -norm if r[k, k] >= 0.0 else norm  # away from r[k, k]: no cancellation
        v[k:] = r[k:, k]
        v[k] -= alpha
        v_norm2 = np.sum(v[k:] ** 2)
        for j in range(k, n):
            r[k:, j] -= 2.0 * np.sum(v[k:] * r[k:, j]) / v_norm2 * v[k:]
        b[k:] -= 2.0 * np.sum(v[k:] * b[k:]) / v_norm2 * v[k:]
    x = np.zeros(n)
    for k in range(n - 1, -1, -1):
        if r[k, k] != 0.0:
            x[k] = (b[k] - np.sum(r[k, k + 1 :] * x[k + 1 :])) / r[k, k]
    return x


@njit(cache=True)
def polyfit(x: FloatArray, y: FloatArray, degree: int) -> FloatArray:
    """Least-squares polynomial, highest power first, as numpy's ``polyfit``: the
    Vandermonde columns scaled to unit norm before the fit, for conditioning."""
    m, n = x.size, degree + 1
    a = np.empty((m, n))
    for i in range(m):
        power = 1.0
        for j in range(n - 1, -1, -1):
            a[i, j] = power
            power *= x[i]
    scale = np.empty(n)
    for j in range(n):
        total = 0.0
        for i in range(m):
            total += a[i, j] * a[i, j]
        scale[j] = math.sqrt(total)
        if scale[j] == 0.0:
            scale[j] = 1.0
        for i in range(m):
            a[i, j] /= scale[j]
    return least_squares(a, y.astype(np.float64)) / scale


@njit(cache=True)
def solve(a: FloatArray, b: FloatArray) -> FloatArray:
    """x with a x = b for a square ``a``, by Gaussian elimination with partial pivoting."""
    n = a.shape[0]
    lu, x = a.copy(), b.copy()
    for k in range(n):
        pivot = k
        for i in range(k + 1, n):
            if abs(lu[i, k]) > abs(lu[pivot, k]):
                pivot = i
        if lu[pivot, k] == 0.0:
            raise ZeroDivisionError("singular matrix")
        if pivot != k:
            for j in range(n):
                lu[k, j], lu[pivot, j] = lu[pivot, j], lu[k, j]
            x[k], x[pivot] = x[pivot], x[k]
        for i in range(k + 1, n):
            factor = lu[i, k] / lu[k, k]
            for j in range(k + 1, n):
                lu[i, j] -= factor * lu[k, j]
            x[i] -= factor * x[k]
    for k in range(n - 1, -1, -1):
        total = x[k]
        for j in range(k + 1, n):
            total -= lu[k, j] * x[j]
        x[k] = total / lu[k, k]
    return x


@njit(cache=True)
def solve_each(a: FloatArray, b: FloatArray) -> FloatArray:
    """``solve`` of every system of a stack: a (P, n, n), b (P, n), x (P, n)."""
    x = np.empty_like(b)
    for p in range(a.shape[0]):
        x[p] = solve(a[p], b[p])
    return x


@njit(cache=True)
def inverse(a: FloatArray) -> FloatArray:
    """The inverse of a square matrix, column by column."""
    n = a.shape[0]
    out = np.empty((n, n))
    unit = np.zeros(n)
    for j in range(n):
        unit[:] = 0.0
        unit[j] = 1.0
        out[:, j] = solve(a, unit)
    return out


@njit(cache=True)
def matmul(a: FloatArray, b: FloatArray) -> FloatArray:
    """a @ b for 2-D operands, each entry summed in index order."""
    m, k = a.shape
    n = b.shape[1]
    out = np.zeros((m, n))
    for i in range(m):
        for t in range(k):
            for j in range(n):
                out[i, j] += a[i, t] * b[t, j]
    return out


@njit(cache=True)
def matvec(a: FloatArray, v: FloatArray) -> FloatArray:
    """a @ v for a 2-D ``a``, each entry summed in index order."""
    out = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        total = 0.0
        for j in range(a.shape[1]):
            total += a[i, j] * v[j]
        out[i] = total
    return out
