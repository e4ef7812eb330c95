"""The slice query parameters every sliced route reads (`from`, `to`, the filters)."""

from typing import Annotated

from fastapi import Depends, Query

from headroom.datasets import slices
from headroom.datasets.slices_params import SliceIn, StatusClass


class SliceQuery:
    """The slice of a dataset a view shows: a time range, a path prefix or pattern, a status
    class, a request class, a host, a client."""

    def __init__(
        self,
        from_ms: Annotated[
            int | None, Query(alias="from", description="Start of the range (epoch ms, UTC)")
        ] = None,
        to_ms: Annotated[
            int | None, Query(alias="to", description="End of the range, excluded (epoch ms)")
        ] = None,
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
        self.given = slices.normalized(
            SliceIn(
                from_ms=from_ms,
                to_ms=to_ms,
                path_prefix=path_prefix,
                path_pattern=path_pattern,
                status_class=status_class,
                request_class=request_class,
                host=host,
                client=client,
            )
        )
        self.where = slices.where_of(self.given)


Slice = Annotated[SliceQuery, Depends()]
