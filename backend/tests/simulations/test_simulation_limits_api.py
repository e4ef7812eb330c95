"""Absurd scenarios through the API: 422 naming the field (never a 5xx), and the CLI's
one-line exit 2; the limit is the HEADROOM_MAX_SIM_EVENTS setting."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from headroom.cli import main
from headroom.core.settings import Settings, get_settings
from support.factories import member, signed_in


def post(client: Any, document: dict[str, Any]) -> Any:
    """Infinity and NaN as Python's json writes them (the test client refuses them)."""
    body = json.dumps({"name": "s", "scenario": document})
    headers = {"content-type": "application/json"}
    return client.post("/api/v1/simulations", content=body, headers=headers)


def scenario(duration_s: float = 60, rate: float = 5, mu: float = -3.0) -> dict[str, Any]:
    return {
        "duration_s": duration_s,
        "workload": {
            "arrivals": {"rate_per_s": rate},
            "service_s": {"dist": "lognormal", "mu": mu, "sigma": 0.5},
        },
    }


@pytest.mark.parametrize(
    ("document", "field", "words"),
    [
        (scenario(duration_s=math.inf), "scenario.duration_s", "finite"),
        (scenario(duration_s=1e13), "scenario.duration_s", "needs about"),
        (scenario(rate=1e13), "scenario.duration_s", "lower duration_s or the rate"),
        (scenario(rate=math.inf), "scenario.workload.arrivals.rate_per_s", "finite"),
        (scenario(mu=2000), "scenario.workload.service_s", "overflow"),
        (
            {**scenario(), "autoscaling": {"monitor_s": 1e-10}},
            "scenario.autoscaling.monitor_s",
            "raise monitor_s",
        ),
    ],
)
def test_absurd_scenarios_are_422_naming_the_field(
    settings: Settings, document: dict[str, Any], field: str, words: str
) -> None:
    client = signed_in(settings, member(settings, "limits@example.com", "Limits"))
    response = post(client, document)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == field and words in error["message"], error


def test_the_limit_is_a_setting(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("duration_s: 3600\nworkload: {arrivals: {rate_per_s: 50},"
                    " service_s: {dist: exponential, mean: 0.01}}\n")  # fmt: skip
    monkeypatch.setenv("HEADROOM_MAX_SIM_EVENTS", "1e5")
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(main, ["simulate", str(path)])
    finally:
        monkeypatch.delenv("HEADROOM_MAX_SIM_EVENTS")
        get_settings.cache_clear()
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    # 1.25 x (2 x 50 x 3600 + 36,000 ticks + 60 steps) + 10,000 = 5.05e5
    assert len(lines) == 1 and "needs about 5.1e+05 events (limit 1e+05)" in lines[0], lines


numbers = st.floats(allow_nan=True, allow_infinity=True)


def test_any_numbers_give_a_simulation_or_a_422(settings: Settings) -> None:
    client = signed_in(settings, member(settings, "fuzz@example.com", "Fuzz"))

    @hsettings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(numbers, numbers, numbers)
    def check(duration_s: float, rate: float, mu: float) -> None:
        response = post(client, scenario(duration_s, rate, mu))
        assert response.status_code in (202, 422), response.text
        if response.status_code == 422:
            assert response.json()["error"]["field"].startswith("scenario")

    check()
