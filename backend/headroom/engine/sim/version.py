"""The simulator's version, recorded in every result (a result is reproducible from its
scenario, seed and this version)."""

from __future__ import annotations

from importlib import metadata

SIM_REVISION = 4  # bump when the same scenario and seed give different numbers


def _engine_version() -> str:
    try:
        package = metadata.version("headroom")
    except metadata.PackageNotFoundError:
        package = "unknown"
    return f"headroom-{package}/sim-{SIM_REVISION}"


ENGINE_VERSION = _engine_version()
