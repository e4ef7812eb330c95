"""The memory budget a CLI or worker process aims to stay under, read from the environment
without loading the settings (the settings' pydantic machinery costs a local command a
noticeable share of its start-up); core/settings.py takes its default from here."""

import os

DEFAULT_MEMORY_BUDGET_MB = 768
ENV_NAME = "HEADROOM_MEMORY_BUDGET_MB"


def memory_budget_mb() -> int:
    """HEADROOM_MEMORY_BUDGET_MB as the settings read it (names case-insensitive), read now:
    never a value cached before the environment changed."""
    for name, value in os.environ.items():
        if name.upper() == ENV_NAME:
            return int(value)
    return DEFAULT_MEMORY_BUDGET_MB
