"""The scenario document as the web side holds it.

A scenario is a JSON document whose schema is the engine's (``engine.sim.scenario``,
served at GET /simulations/schema) and which ``load_scenario`` checks on every submit.
The web side passes it on, sets fields by dotted path (sweeps, presets) and stores it as
it is, so it stays a JSON object here instead of a second copy of the engine's types."""

from typing import Any, NotRequired, TypedDict

# A scenario document, or one of its blocks (a request class, an admission stage).
ScenarioJson = dict[str, Any]


class SweepAxisJson(TypedDict):  # schemas.SweepAxisIn, as JSON
    path: str
    values: list[Any]  # numbers, strings or whole blocks, as the path takes them


class SweepJson(SweepAxisJson):  # schemas.SweepIn, as JSON (as stored)
    second: NotRequired[SweepAxisJson]
