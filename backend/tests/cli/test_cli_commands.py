"""The `headroom` group: every command module's commands, each loaded only when run."""

from __future__ import annotations

import subprocess
import sys

import click

from headroom.cli import analysis, background, forecast, main, remote, reports, simulate, workload


def test_every_module_command_is_reachable_by_its_name() -> None:
    modules = (analysis, background, forecast, remote, reports, simulate, workload)
    ctx = click.Context(main)
    listed = main.list_commands(ctx)
    for module in modules:
        for command in module.COMMANDS:
            assert command.name in listed
            assert main.get_command(ctx, command.name) is command


def test_parse_starts_without_settings_or_http_client() -> None:
    """`headroom parse` loads its own module only: the settings (pydantic-settings), the
    HTTP client (httpx) and the API (fastapi) cost start-up time it does not need."""
    code = (
        "import sys, click; from headroom.cli import main; "
        "main.get_command(click.Context(main), 'parse'); "
        "print(sorted(m for m in ('httpx', 'pydantic_settings', 'fastapi') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
