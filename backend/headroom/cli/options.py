"""Numeric option types whose refusals name the option, its allowed range and its unit, in
the words of the command line (never the engine's parameter names)."""

import math
from typing import Any

import click


def _number(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:g}"


class Range(click.ParamType):
    """An int or a finite float within [low, high] (an end left out is open to infinity;
    ``low_open`` excludes ``low`` itself), with the unit said in the refusal."""

    def __init__(
        self,
        kind: type[int] | type[float],
        low: float | None = None,
        high: float | None = None,
        *,
        low_open: bool = False,
        unit: str = "",
    ) -> None:
        self.kind, self.low, self.high, self.low_open, self.unit = kind, low, high, low_open, unit
        self.name = "integer" if kind is int else "float"

    def allowed(self) -> str:
        """ "between 1 and 3,600 seconds", "more than 0 seconds", "at least 1"."""
        unit = f" {self.unit}" if self.unit else ""
        if self.low is not None and self.high is not None:
            lowest = "more than " if self.low_open else ""
            return f"{lowest}{_number(self.low)} to {_number(self.high)}{unit}".replace(
                "more than 0 to", "more than 0 and at most"
            )
        if self.low is not None:
            return f"{'more than' if self.low_open else 'at least'} {_number(self.low)}{unit}"
        return f"at most {_number(self.high or 0)}{unit}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, self.kind) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = self.kind(str(value).replace("_", ""))
            except ValueError:
                whole = "a whole number" if self.kind is int else "a number"
                self.fail(f"{value!r} is not {whole}; use {self.allowed()}", param, ctx)
        if not math.isfinite(number) or not self._within(number):
            self.fail(f"{value} is out of range; use {self.allowed()}", param, ctx)
        return number

    def _within(self, x: float) -> bool:
        if self.low is not None and (x < self.low or (self.low_open and x == self.low)):
            return False
        return self.high is None or x <= self.high
