"""The memory budget a CLI or worker process aims to stay under, read without loading the
settings when the environment does not set it (the settings' pydantic machinery costs a
local command a noticeable share of its start-up)."""

import os

DEFAULT_MEMORY_BUDGET_MB = 768
ENV_NAME = "HEADROOM_MEMORY_BUDGET_MB"


def memory_budget_mb() -> int:
    """The settings' memory_budget_mb (environment variable names are case-insensitive
    there, so here too)."""
    if not any(name.upper() == ENV_NAME for name in os.environ):
        return DEFAULT_MEMORY_BUDGET_MB
    from headroom.core.settings import get_settings

    return get_settings().memory_budget_mb
