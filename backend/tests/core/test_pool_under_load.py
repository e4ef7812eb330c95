"""Many concurrent reads with a small database pool: a request must not hold a connection
while it waits for a thread (authentication used to keep its connection until the route
had run, so the threads all waited for connections held by requests waiting for threads,
until the pool timed out with 500s; a sync route still kept its connection while it waited
for a thread to validate its answer). A 500 also closed the connection, so the client's next
request on it was reset. A real API on PostgreSQL with one connection."""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import httpx
import pytest

from support.services import Stack

pytestmark = pytest.mark.faults
CONCURRENT = 60  # more than the API's 40 threads plus its one connection


def test_concurrent_reads_with_a_one_connection_pool_all_answer(
    make_stack: Callable[..., Stack],
) -> None:
    stack = make_stack(db_pool_size="1", db_max_overflow="0", db_pool_timeout_s="120")
    token = stack.token_for("many@example.com", "Busy", scope="read")

    clients = [stack.client(token) for _ in range(CONCURRENT)]
    start = Barrier(CONCURRENT)

    def reads(client: httpx.Client) -> list[int]:
        start.wait()  # every client ready first: the requests arrive together
        with client:
            return [client.get("/api/v1/datasets").status_code for _ in range(5)]

    with ThreadPoolExecutor(CONCURRENT) as pool:
        statuses = [s for batch in pool.map(reads, clients) for s in batch]
    assert set(statuses) == {200}
