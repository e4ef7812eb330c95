"""Writes the six bursty rate profiles and the EPA foreground CPU-demand series.

Run from the repo root: `.venv/bin/python data/profiles/make_profiles.py`. Deterministic
(seeded); the CSVs beside this file are its output. See README.md for the shapes."""

from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
STEP_S, DURATION_S = 5.0, 3600.0
NOISE = 0.03  # multiplicative, seeded


def _ramp(t: np.ndarray, at_s: float, width_s: float) -> np.ndarray:
    """0 before at_s, 1 after at_s + width_s, linear in between."""
    return np.clip((t - at_s) / width_s, 0.0, 1.0)


def shapes(t: np.ndarray) -> dict[str, np.ndarray]:
    minute = 60.0
    return {
        "large_variation": 300
        + 150 * np.sin(2 * np.pi * t / (17 * minute))
        + 80 * np.sin(2 * np.pi * t / (7 * minute) + 1.0),
        "quick_varying": 300 + 140 * np.sin(2 * np.pi * t / (3 * minute)),
        "slowly_varying": 150 + 300 * np.sin(np.pi * t / DURATION_S) ** 2,
        "big_spike": 150
        + 350 * (_ramp(t, 30 * minute, minute) - _ramp(t, 35 * minute, 2 * minute)),
        "dual_phase": 150 + 250 * _ramp(t, 30 * minute, 2 * minute),
        "steep_tri_phase": 120
        + 360 * _ramp(t, 20 * minute, 30.0)
        - 280 * _ramp(t, 40 * minute, 30.0),
    }


def write_profiles() -> None:
    rng = np.random.default_rng(20261122)
    t = np.arange(0.0, DURATION_S, STEP_S)
    for name, rate in shapes(t).items():
        noisy = rate * rng.lognormal(0.0, NOISE, t.size)
        rows = "".join(f"{ti:.0f},{ri:.1f}\n" for ti, ri in zip(t, noisy, strict=True))
        (HERE / f"{name}.csv").write_text("t_s,rate_per_s\n" + rows)


def write_epa_demand() -> None:
    """Busy fraction = requests per minute / the day's peak x 0.9 (the server sized so its
    busiest minute uses 90% of the CPU)."""
    counts = np.loadtxt(HERE / "epa_http_requests_per_minute.tsv", delimiter="\t")
    busy = counts[:, 1] / counts[:, 1].max() * 0.9
    t = (counts[:, 0] - 1) * 60.0
    rows = "".join(f"{ti:.0f},{bi:.4f}\n" for ti, bi in zip(t, busy, strict=True))
    (HERE / "epa_cpu_demand.csv").write_text("t_s,busy_fraction\n" + rows)


if __name__ == "__main__":
    write_profiles()
    write_epa_demand()
