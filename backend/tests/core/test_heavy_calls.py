"""The API's one pool of helper processes: opened with the app's lifespan, shut down with
it, and the one that sniffing and the policy calculators both use."""

import asyncio
import os
from pathlib import Path

from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core import heavy_calls
from headroom.core.settings import Settings


def test_the_lifespan_opens_the_pool_and_shuts_it_down(tmp_path: Path) -> None:
    heavy_calls.shutdown_pool()
    app = create_app(Settings(data_dir=tmp_path, static_dir=tmp_path / "no-ui"))
    with TestClient(app):
        opened = heavy_calls._pool
        assert opened is not None
        assert heavy_calls.open_pool() is opened  # one pool, not one per call
    assert heavy_calls._pool is None


def test_a_call_runs_in_another_process_and_reuses_the_pool() -> None:
    heavy_calls.shutdown_pool()
    try:
        first = asyncio.run(heavy_calls.run(os.getpid))
        pool = heavy_calls._pool
        second = asyncio.run(heavy_calls.run(os.getpid))
        assert first != os.getpid() and second != os.getpid()
        assert heavy_calls._pool is pool
    finally:
        heavy_calls.shutdown_pool()


def test_sniffing_and_policies_share_the_pool() -> None:
    from headroom.datasets import sniffing
    from headroom.policies import service as policies

    for module in (sniffing, policies):
        assert module.heavy_calls is heavy_calls
        assert not hasattr(module, "_pool") and not hasattr(module, "_executor")
