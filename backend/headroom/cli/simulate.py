"""Local simulation commands (no server): `headroom simulate SCENARIO` (or `--model
MODEL.json`, a workload model document made into a scenario) and `headroom
scenario-from-model MODEL.json` (that scenario, printed as YAML). A bad scenario or model
exits with status 2 and one line on stderr naming the field."""

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from headroom.cli.analysis import InputError, OneLineCommand
from headroom.cli.options import Range

if TYPE_CHECKING:
    from numpy import float64
    from numpy.typing import NDArray
    from pydantic import JsonValue

    from headroom.simulations.result_models import RunSummary
    from headroom.simulations.scenario_json import ScenarioJson


@click.command("simulate", cls=OneLineCommand)
@click.argument("scenario", required=False)
@click.option(
    "--seed", type=Range(int, 0, 2**31 - 1), default=None, help="overrides the scenario's"
)
@click.option("--out", "out_dir", default=None, help="write series.csv and summary.json here")
@click.option("--json", "as_json", is_flag=True, help="print the JSON summary")
@click.option("--schema", is_flag=True, help="print the scenario's JSON Schema and exit")
@click.option("--model", "model", default=None, help="a workload model (JSON) instead of SCENARIO")
@click.option(
    "--duration-s",
    type=Range(float, 0, low_open=True, unit="seconds"),
    default=None,
    help="with --model",
)
def simulate_command(
    scenario: str | None,
    seed: int | None,
    out_dir: str | None,
    as_json: bool,
    schema: bool,
    model: str | None,
    duration_s: float | None,
) -> None:
    """Run a scenario (YAML or JSON), or a workload model's, through the simulator."""
    from headroom.core.settings import get_settings
    from headroom.engine.sim import ScenarioError, Simulation, load_scenario, scenario_json_schema
    from headroom.simulations.documents import summary
    from headroom.simulations.result_models import stored

    if schema:
        click.echo(json.dumps(scenario_json_schema(), indent=2))
        return
    source = _source(scenario, model, duration_s)
    try:
        loaded = load_scenario(_model_scenario(model, duration_s) if model else _read(source))
        result = Simulation(loaded, max_events=get_settings().max_sim_events).run(seed)
    except (ScenarioError, KeyError) as error:
        raise InputError(f"{source}: {error}") from error
    run = summary(result)
    document = stored(run)
    if out_dir is not None:
        _write_out(Path(out_dir), document, result.series.downsample())
    if as_json:
        click.echo(json.dumps(document, indent=2, allow_nan=False))
    else:
        click.echo(_text(run))


def _source(scenario: str | None, model: str | None, duration_s: float | None) -> str:
    if scenario is not None and model is not None:
        raise InputError("give SCENARIO or --model, not both")
    if duration_s is not None and model is None:
        raise InputError("--duration-s goes with --model (a scenario has its own duration_s)")
    found = scenario or model
    if found is None:
        raise InputError("missing SCENARIO (a YAML or JSON file), or give --model or --schema")
    return found


def _model_scenario(path: str, duration_s: float | None) -> "ScenarioJson":
    """The scenario a workload model file becomes; InputError naming the model's field."""
    from headroom.engine.workload.model import ModelError, from_workload_model

    try:
        return from_workload_model(_read(path), duration_s=duration_s)
    except ModelError as error:
        raise InputError(f"{path}: {error}") from error


@click.command("scenario-from-model", cls=OneLineCommand)
@click.argument("model")
@click.option(
    "--duration-s", type=click.FloatRange(min=0, min_open=True), default=None, help="simulated s"
)
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of YAML")
def scenario_from_model_command(model: str, duration_s: float | None, as_json: bool) -> None:
    """Print the scenario a workload model (JSON, e.g. downloaded from a characterization)
    becomes: its class profiles, pages and service times on the reference cluster."""
    import yaml

    document = _model_scenario(model, duration_s)
    if as_json:
        click.echo(json.dumps(document, indent=2))
    else:
        click.echo(yaml.safe_dump(document, sort_keys=False), nl=False)


def _read(path: str) -> str:
    file = Path(path)
    if not file.is_file():
        raise InputError(f"no such file: {path}")
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: {error}") from error


def _write_out(
    folder: Path, document: "dict[str, JsonValue]", series: "dict[str, NDArray[float64]]"
) -> None:
    """summary.json, and series.csv in long form (series, t_s, value): each series has its
    own downsampled instants."""
    import polars as pl

    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "summary.json").write_text(json.dumps(document, indent=2) + "\n")
        names = [k for k in series if not k.endswith("_t_s")]
        frames = [
            pl.DataFrame({"series": name, "t_s": series[f"{name}_t_s"], "value": series[name]})
            for name in names
        ]
        pl.concat(frames).write_csv(folder / "series.csv")
    except OSError as error:
        raise InputError(f"--out {folder}: {error}") from error


def _text(run: "RunSummary") -> str:
    lat, vms = run.latency_s, run.vms
    lines = [
        f"requests {run.requests}, pages {run.pages}, events {run.events}",
        f"latency_s mean {lat.mean:.4g} median {lat.median:.4g} "
        f"p95 {lat.p95:.4g} p99 {lat.p99:.4g}",
    ]
    if run.plt_s is not None:
        plt = run.plt_s
        lines.append(
            f"plt_s mean {plt.mean:.4g} median {plt.median:.4g} p95 {plt.p95:.4g} p99 {plt.p99:.4g}"
        )
    lines.append(
        f"vms mean allocated {vms.mean_allocated:.3g}, max {vms.max_allocated}, "
        f"{vms.vm_hours:.3g} VM-hours, {vms.scaling_actions} scaling actions"
    )
    lines += _class_lines(run)
    sla = run.sla_violation_fraction
    lines.append(
        f"rejected {run.rejected_fraction:.3%}"
        + (f", SLA windows violated {sla:.3%}" if sla is not None else "")
        + f"; wall {run.wall_s:.2f} s"
    )
    return "\n".join(lines)


def _class_lines(run: "RunSummary") -> list[str]:
    """Per class (when there are several) p95 and refusals; a partition policy's K."""
    from headroom.simulations.result_models import PartitionFigures

    lines = []
    if len(run.classes) > 1:
        lines += [
            f"class {name}: latency p95 {c.latency_s.p95:.4g} s, rejected {c.rejected_fraction:.3%}"
            for name, c in run.classes.items()
        ]
    admission = run.admission
    if isinstance(admission, PartitionFigures):
        lines.append(
            f"High Set K mean {admission.k_mean:.3g}, min {admission.k_min}, max {admission.k_max}"
        )
    return lines


COMMANDS = (simulate_command, scenario_from_model_command)
