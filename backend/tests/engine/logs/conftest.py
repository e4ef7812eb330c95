from __future__ import annotations

import sys
from pathlib import Path

import pytest

# importmode=importlib does not put test folders on sys.path; the reference parser lives here
sys.path.insert(0, str(Path(__file__).resolve().parent))

DATA = Path(__file__).resolve().parents[4] / "data" / "logs"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA
