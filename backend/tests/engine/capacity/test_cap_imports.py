"""The capacity engine is a pure library: importing it pulls in nothing from the web side."""

import subprocess
import sys

FORBIDDEN = ("fastapi", "sqlalchemy", "celery", "headroom.core", "pydantic_settings")


def test_engine_imports_nothing_from_the_web_side() -> None:
    code = (
        "import sys, headroom.engine.capacity\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r} "
        f"or m.startswith('headroom.core')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""
