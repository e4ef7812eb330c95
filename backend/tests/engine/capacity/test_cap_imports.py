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


def test_parameters_load_without_numeric_libraries() -> None:
    """The API validates CapacityParams/SctParams without numpy, polars or numba; the rest
    of the package loads on first use, and `analyze` stays the function even when the
    module defining it was imported first."""
    code = (
        "import sys\n"
        "from headroom.engine.capacity import CapacityParams, SctParams\n"
        "print(sorted({'numpy', 'polars', 'numba'} & set(sys.modules)))\n"
        "import headroom.engine.capacity.analysis\n"
        "from headroom.engine.capacity import analyze, partition_report\n"
        "print(callable(analyze), analyze.__name__, partition_report.__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:2] == ["[]", "True analyze partition_report"]
