"""Where numba keeps its compiled kernels: ``<dir>/numba/<hash of the engine's sources>``.

numba's own cache (``__pycache__`` beside each source file) checks only the file that
defines a function, so a kernel that inlines a helper from another module keeps running
the old helper after that module changes. Keying the directory by every engine source
makes any engine change start from an empty cache. Directories of other versions are
pruned once they have been unused for a week (a rolling deploy may still run one)."""

import hashlib
import os
import shutil
import time
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"
PRUNE_AFTER_S = 7 * 86400


def engine_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(ENGINE.rglob("*.py")):
        digest.update(str(path.relative_to(ENGINE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def default_root() -> Path:
    """The user's cache directory, shared by the server, the workers, the local commands
    and the tests of one machine (the image sets XDG_CACHE_HOME to its data volume)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "headroom"


def configure(root: Path | None = None) -> None:
    """Set NUMBA_CACHE_DIR under ``root`` (before numba is imported, so that this process
    and the processes it starts use it), unless the environment already sets it. Where
    the directory cannot be made, numba keeps its default."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = (root or default_root()).resolve() / "numba"
    current = base / engine_hash()
    try:
        current.mkdir(parents=True, exist_ok=True)
        os.utime(current)
        _prune(base, current)
    except OSError:
        return
    os.environ["NUMBA_CACHE_DIR"] = str(current)


def _prune(base: Path, keep: Path) -> None:
    cutoff = time.time() - PRUNE_AFTER_S
    for other in base.iterdir():
        if other != keep and other.is_dir() and other.stat().st_mtime < cutoff:
            shutil.rmtree(other, ignore_errors=True)
