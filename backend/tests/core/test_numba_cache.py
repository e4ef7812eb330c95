"""numba's cache directory keyed by the engine's sources (core/numba_cache.py)."""

import os
import time
from pathlib import Path

import pytest

from headroom.core import numba_cache


@pytest.fixture
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "engine"
    (root / "sim").mkdir(parents=True)
    (root / "sim" / "vm.py").write_text("def helper(): return 1\n")
    (root / "sim" / "core.py").write_text("from .vm import helper\n")
    monkeypatch.setattr(numba_cache, "ENGINE", root)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    return root


def test_a_change_in_any_engine_file_is_a_new_directory(engine: Path, tmp_path: Path) -> None:
    numba_cache.configure(tmp_path / "cache")
    before = os.environ["NUMBA_CACHE_DIR"]
    assert Path(before).is_dir() and Path(before).parent == (tmp_path / "cache" / "numba")
    # the inlined helper changes, the caller's file does not: numba's own check misses this
    (engine / "sim" / "vm.py").write_text("def helper(): return 2\n")
    del os.environ["NUMBA_CACHE_DIR"]
    numba_cache.configure(tmp_path / "cache")
    assert os.environ["NUMBA_CACHE_DIR"] != before
    del os.environ["NUMBA_CACHE_DIR"]
    (engine / "sim" / "vm.py").write_text("def helper(): return 1\n")
    numba_cache.configure(tmp_path / "cache")
    assert os.environ["NUMBA_CACHE_DIR"] == before  # same sources, same directory


def test_an_explicit_setting_wins(
    engine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere")
    numba_cache.configure(tmp_path / "cache")
    assert os.environ["NUMBA_CACHE_DIR"] == "/somewhere"
    assert not (tmp_path / "cache").exists()


def test_an_unwritable_root_keeps_numbas_default(engine: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    numba_cache.configure(blocker)
    assert "NUMBA_CACHE_DIR" not in os.environ


def test_old_versions_are_pruned_after_a_week(engine: Path, tmp_path: Path) -> None:
    base = tmp_path / "cache" / "numba"
    stale, recent = base / "0ld", base / "recent"
    stale.mkdir(parents=True)
    recent.mkdir()
    week_ago = time.time() - numba_cache.PRUNE_AFTER_S - 60
    os.utime(stale, (week_ago, week_ago))
    numba_cache.configure(tmp_path / "cache")
    assert not stale.exists() and recent.exists()
    assert Path(os.environ["NUMBA_CACHE_DIR"]).is_dir()
