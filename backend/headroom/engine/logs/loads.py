"""Unaligned little-endian 8-byte loads from a uint8 buffer, for word-at-a-time scanning."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

ONES = np.uint64(0x0101010101010101)
HIGHS = np.uint64(0x8080808080808080)


@intrinsic
def _load_u64(typingctx, arr, idx):
    sig = types.uint64(arr, idx)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = builder.gep(ary.data, [args[1]])
        return builder.load(builder.bitcast(ptr, ir.IntType(64).as_pointer()), align=1)

    return sig, codegen


@njit(cache=True, inline="always")
def word_at(buf: np.ndarray, s: int) -> np.uint64:
    """buf[s:s+8] as a little-endian word; bytes past the buffer's end read as 0."""
    if s + 8 <= buf.size:
        return _load_u64(buf, s)  # type: ignore[call-arg]
    w = np.uint64(0)
    for t in range(max(buf.size - s, 0)):
        w |= np.uint64(buf[s + t]) << np.uint64(8 * t)
    return w


@njit(cache=True, inline="always")
def low_bytes(w: np.uint64, n: int) -> np.uint64:
    """The n (0..8) low bytes of w."""
    if n >= 8:
        return w
    return w & ((np.uint64(1) << np.uint64(8 * n)) - np.uint64(1))


@njit(cache=True, inline="always")
def byte_mask(w: np.uint64, b: int) -> np.uint64:
    """High bit set in each byte of w equal to b (exact: no false positives)."""
    x = w ^ (ONES * np.uint64(b))
    return ~(((x & ~HIGHS) + ~HIGHS) | x) & HIGHS


@njit(cache=True, inline="always")
def find3(buf: np.ndarray, pos: int, a: int, b: int, c: int) -> int:
    """The first index >= pos holding byte a, b or c; buf.size when none."""
    n = buf.size
    while pos + 8 <= n:
        w: np.uint64 = _load_u64(buf, pos)  # type: ignore[call-arg]
        m = byte_mask(w, a) | byte_mask(w, b) | byte_mask(w, c)
        if m:
            return pos + trailing_zeros(m) // 8
        pos += 8
    while pos < n and buf[pos] != a and buf[pos] != b and buf[pos] != c:
        pos += 1
    return pos


@intrinsic
def _borrow(typingctx, arr):
    """The same array without its reference count (a null meminfo): numba then skips the
    atomic increments and decrements it does each time a hot helper receives the array.
    Only for use while the original is alive (within the function that holds it)."""
    if not isinstance(arr, types.Array):
        return None
    sig = arr(arr)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        out = context.make_array(signature.return_type)(context, builder)
        for name in ("nitems", "itemsize", "data", "shape", "strides", "parent"):
            setattr(out, name, getattr(ary, name))
        out.meminfo = context.get_constant_null(types.MemInfoPointer(types.voidptr))
        return out._getvalue()

    return sig, codegen


@njit(cache=True, inline="always")
def borrow(arr: np.ndarray) -> np.ndarray:
    """arr without reference counting (see _borrow): for the helpers of a per-line loop."""
    return _borrow(arr)  # type: ignore[call-arg]
