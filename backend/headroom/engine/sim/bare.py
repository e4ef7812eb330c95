"""Reference-count-free views of arrays, for the event loop (tiers/loop.py).

Compiled code takes a reference (an ``NRT_incref`` call, and an ``NRT_decref`` later) on
every array it copies: each helper argument, each field read from a named tuple of
arrays. Those calls are opaque to the optimiser, which must then keep every value in
memory around them; in the loop they cost several times the work itself. A view's type,
``BareArray``, is an array whose data model holds no reference to count, so compiled code
emits none of those calls for it. The caller keeps the owners alive during the call.
"""

from __future__ import annotations

from typing import Any

from numba import njit, types
from numba.core import cgutils
from numba.core.datamodel.models import ArrayModel
from numba.extending import intrinsic, register_model


class BareArray(types.Array):
    """A C-contiguous array type whose values carry no reference count."""

    def __init__(self, dtype: Any, ndim: int) -> None:
        super().__init__(dtype, ndim, "C", name=f"bare array({dtype}, {ndim}d, C)")


@register_model(BareArray)
class BareArrayModel(ArrayModel):
    def traverse(self, builder: Any) -> list[Any]:
        return []  # no member (the meminfo included) to count references on


@intrinsic
def _bare_view(typingctx: Any, arr: Any) -> Any:
    if not isinstance(arr, types.Array) or arr.layout != "C":
        return None  # a typing error: the view indexes as C-contiguous
    view_type = BareArray(arr.dtype, arr.ndim)
    sig = view_type(arr)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        src = context.make_array(signature.args[0])(context, builder, args[0])
        view = context.make_array(view_type)(context, builder)
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        view.nitems, view.itemsize, view.data = src.nitems, src.itemsize, src.data
        view.shape, view.strides = src.shape, src.strides
        return view._getvalue()

    return sig, codegen


@njit(cache=True)
def bare(a):
    """A view of C-contiguous ``a`` without a reference count: compiled helpers pass it
    around with no reference-count calls (the caller keeps the owner alive for the
    duration of the call)."""
    return _bare_view(a)  # type: ignore[call-arg]
