"""A small access log with known figures for the alert tests: an M/M/1 queue's requests
(the load rising in steps from 5% to 90% of its capacity, so a capacity analysis finds a
knee) with every 16th answered 503, uploaded and ingested in-process."""

from typing import Any

import numpy as np
import polars as pl
from fastapi.testclient import TestClient

from headroom.core.settings import Settings
from headroom.engine.capacity import synth
from headroom.jobs.runner import ingest_body, run_job

MU_PER_S = 25.0
ERROR_EVERY = 16  # one request in 16 answered 503: a 5xx share of 1/16 (6.25%)


def request_table(seed: int = 3) -> pl.DataFrame:
    rates_per_s = [float(x) * MU_PER_S / 100 for x in np.linspace(5.0, 90.0, 18)]
    table = synth.queue_log(rates_per_s, 30.0, MU_PER_S, 1, np.random.default_rng(seed))
    index = pl.int_range(pl.len())
    status = pl.when(index % ERROR_EVERY == 0).then(503).otherwise(200)
    return table.with_columns(status=status)


def upload(
    settings: Settings, client: TestClient, table: pl.DataFrame, name: str
) -> dict[str, Any]:
    """The dataset, ingested."""
    response = client.post(
        "/api/v1/datasets",
        params={"name": name},
        content=synth.combined_log(table),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code in (201, 202), response.text
    dataset: dict[str, Any] = response.json()
    assert run_job(settings, dataset["job"]["id"], ingest_body)
    return dataset


def error_share(table: pl.DataFrame) -> float:
    return float((table["status"] >= 500).sum()) / table.height


def latencies_s(table: pl.DataFrame) -> np.ndarray:
    """As the log writes them: whole microseconds."""
    return np.sort(np.round(table["latency_s"].to_numpy() * 1e6) / 1e6)
