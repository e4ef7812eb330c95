"""Reference-count-free views of arrays, so that compiled helpers pass them around
without atomic increments (the caller keeps the owners alive during the call)."""

from __future__ import annotations

from numba import carray, njit, types
from numba.extending import intrinsic


@intrinsic
def data_ptr(typingctx, arr):
    """The raw data pointer of an array."""
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


@njit(cache=True)
def bare(a):
    """A view without a reference count: passing it between compiled helpers costs no
    atomic increments (the caller keeps the owner alive for the duration of the call)."""
    return carray(data_ptr(a), a.shape)  # type: ignore[call-arg]
