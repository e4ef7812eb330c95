"""The memory budget read without the settings agrees with the settings."""

import pytest

from headroom.core.memory import memory_budget_mb
from headroom.core.settings import Settings


@pytest.mark.parametrize("name", [None, "HEADROOM_MEMORY_BUDGET_MB", "headroom_memory_budget_mb"])
def test_the_light_reader_agrees_with_the_settings(
    name: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in ("HEADROOM_MEMORY_BUDGET_MB", "headroom_memory_budget_mb"):
        monkeypatch.delenv(key, raising=False)
    if name is not None:
        monkeypatch.setenv(name, "240")
    assert memory_budget_mb() == Settings().memory_budget_mb
    assert memory_budget_mb() == (768 if name is None else 240)


def test_a_budget_set_after_the_settings_were_read_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    from headroom.core.settings import get_settings

    monkeypatch.delenv("HEADROOM_MEMORY_BUDGET_MB", raising=False)
    get_settings()  # cached by an earlier caller, before the budget was set
    monkeypatch.setenv("HEADROOM_MEMORY_BUDGET_MB", "240")
    assert memory_budget_mb() == 240


@pytest.mark.parametrize(("budget_mb", "recycle_above_mb"), [(768, 768), (2048, 2048), (1, 512)])
def test_a_worker_process_above_the_budget_after_a_task_is_replaced(
    budget_mb: int, recycle_above_mb: int
) -> None:
    from headroom.core.queue import make_celery

    app = make_celery(Settings(memory_budget_mb=budget_mb, broker_url="redis://127.0.0.1:1/0"))
    assert app.conf.worker_max_memory_per_child == recycle_above_mb * 1024  # Celery counts kB
