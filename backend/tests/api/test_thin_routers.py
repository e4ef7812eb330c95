"""Routers neither commit nor enqueue (CONTRIBUTING.md): a service starts a job after the
commit. The import contract keeps the outbox out of routers; this keeps commits out."""

import ast
from pathlib import Path

HEADROOM = Path(__file__).resolve().parents[2] / "headroom"


def _calls(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    calls = [node.func for node in ast.walk(tree) if isinstance(node, ast.Call)]
    return {f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "") for f in calls}


def test_no_router_commits_or_enqueues() -> None:
    routers = sorted(HEADROOM.glob("*/router.py")) + sorted(HEADROOM.glob("*/*_router.py"))
    assert len(routers) >= 10  # the glob found the domains' routers
    offenders = [
        f"{path.relative_to(HEADROOM)}: {name}"
        for path in routers
        for name in sorted(_calls(path) & {"commit", "enqueue", "notify"})
    ]
    assert offenders == []
