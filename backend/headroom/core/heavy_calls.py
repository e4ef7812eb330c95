"""The API's one pool of helper processes for heavy calls: sniffing an upload, compiling
parse options, running a policy calculator. The parser and the compiled (numba) engine
cost a process ~150 MB it does not otherwise need, and their CPU time would block the
event loop; so the API hands them to these processes and stays light. A call returns plain
data, never exceptions with state.

The app's lifespan opens the pool and shuts it down; a call outside an app (a test, a
script) opens it on first use."""

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
WORKERS = 2  # as many as the two pools (sniffing, policies) this one replaces
TASKS_PER_CHILD = 200  # then a fresh process: what the calls leave behind goes with it
_pool: ProcessPoolExecutor | None = None


def open_pool() -> ProcessPoolExecutor:
    """The pool (processes start on the first call, spawned: no state forked over)."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(
            max_workers=WORKERS,
            mp_context=multiprocessing.get_context("spawn"),
            max_tasks_per_child=TASKS_PER_CHILD,
        )
    return _pool


async def run(func: Callable[..., T], *args: object) -> T:
    """`func(*args)` in a helper process; func and args must pickle."""
    return await asyncio.get_running_loop().run_in_executor(open_pool(), func, *args)


def shutdown_pool() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
