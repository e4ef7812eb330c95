"""The slice query parameters the sliced routes read: a range (`from`, `to`) and the
filters, each a dependency of its own (the arrivals route takes the filters alone, its
window given as start_ms/end_ms), and the slice they make together."""

from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Query

from headroom.core.errors import error_responses
from headroom.datasets import slices
from headroom.datasets.slices_params import SliceIn, StatusClass

if TYPE_CHECKING:  # the engine's slices load polars: read lazily, as in datasets.slices
    from headroom.engine.workload.slices import RequestSlice

SLICE_ERRORS = error_responses(409, 422)  # the request table not ready; a bad slice


class SliceFilters:
    """The requests a view keeps: a path prefix or pattern, a status class, a request class,
    a host, a client."""

    def __init__(
        self,
        path_prefix: Annotated[
            str | None, Query(max_length=1000, description="Only paths starting with this")
        ] = None,
        status_class: Annotated[
            StatusClass | None, Query(description="Only responses of this class")
        ] = None,
        path_pattern: Annotated[
            str | None,
            Query(
                max_length=1000,
                description="Only paths matching this glob (* within a segment, ** across, "
                "? one character) or, after a ~, this regular expression",
            ),
        ] = None,
        request_class: Annotated[
            str | None, Query(max_length=200, description="Only this request class (the log's)")
        ] = None,
        host: Annotated[
            str | None, Query(max_length=500, description="Only this server (virtual host)")
        ] = None,
        client: Annotated[str | None, Query(max_length=500, description="Only this client")] = None,
    ) -> None:
        self.given = SliceIn(
            path_prefix=path_prefix,
            path_pattern=path_pattern,
            status_class=status_class,
            request_class=request_class,
            host=host,
            client=client,
        )

    @property
    def where(self) -> "RequestSlice":
        return slices.where_of(self.given)


Filters = Annotated[SliceFilters, Depends()]


class SliceRange:
    """The time range a view shows, [from, to) in epoch ms (None: unbounded)."""

    def __init__(
        self,
        from_ms: Annotated[
            int | None, Query(alias="from", description="Start of the range (epoch ms, UTC)")
        ] = None,
        to_ms: Annotated[
            int | None, Query(alias="to", description="End of the range, excluded (epoch ms)")
        ] = None,
    ) -> None:
        self.from_ms, self.to_ms = from_ms, to_ms


Range = Annotated[SliceRange, Depends()]


class SliceQuery:
    """The slice of a dataset a view shows: a time range and the filters."""

    def __init__(
        self,
        range_: Range,
        filters: Filters,
    ) -> None:
        bounds = {"from_ms": range_.from_ms, "to_ms": range_.to_ms}
        self.given = slices.normalized(filters.given.model_copy(update=bounds))
        self.where = slices.where_of(self.given)


Slice = Annotated[SliceQuery, Depends()]
