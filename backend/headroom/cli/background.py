"""Local background-harvesting command (no server): `headroom background SERIES.csv`.
Light at import: the engine (numba) loads only when the command runs. Unusable input
exits with status 2 and one line on stderr."""

import json

import click

from headroom.cli.analysis import InputError, OneLineCommand, _existing_file
from headroom.cli.options import Range

POLICIES = ("none", "suspend", "static", "adaptive")


@click.command("background", cls=OneLineCommand)
@click.argument("series")
@click.option("--policy", type=click.Choice(POLICIES), default="adaptive", show_default=True)
@click.option(
    "--static-quota",
    type=Range(float, 0, 1),
    default=None,
    help="background share for --policy static (default: 1 - the foreground's peak)",
)
@click.option(
    "--min-multiplier",
    type=Range(float, 1, 16),
    default=1.0,
    show_default=True,
    help="adaptive controller; about 8 for a foreground with limited parallelism",
)
@click.option("--json", "as_json", is_flag=True, help="print the JSON result")
def background_command(
    series: str, policy: str, static_quota: float | None, min_multiplier: float, as_json: bool
) -> None:
    """Run a background CPU policy over a foreground demand series (CSV: t_s, busy_fraction)."""
    from headroom.engine.background.outcome import outcome
    from headroom.engine.background.reservation import ReservationParams, simulate
    from headroom.engine.background.series import SeriesError, parse_series

    file = _existing_file(series)
    try:
        demand = parse_series(file.read_text(encoding="utf-8"))
    except (SeriesError, UnicodeDecodeError, OSError) as error:
        raise InputError(f"{series}: {error}") from error
    params = ReservationParams(static_quota=static_quota, min_multiplier=min_multiplier)
    rounds = simulate(demand.busy_fraction, policy, params)
    result = outcome(demand.busy_fraction, rounds, demand.round_s).to_dict()
    if as_json:
        click.echo(json.dumps(result, indent=2, allow_nan=False))
    else:
        click.echo(
            f"{policy}: background CPU {result['background_cpu_fraction']:.1%}, "
            f"idle {result['idle_fraction']:.1%}, foreground delayed "
            f"{result['foreground_delayed_fraction']:.2%} "
            f"(p95 extra delay {result['foreground_delay_p95_s']:.3g} s)"
        )


COMMANDS = (background_command,)
