"""Keep numba's on-disk cache honest across modules.

numba keys a cached kernel on its own file only, but our kernels inline helpers from the
other kernel modules; after an edit to a helper, a stale kernel would load. On import we
hash all kernel sources and drop this package's cached kernels when the hash changed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

KERNEL_MODULES = (
    "loads.py",
    "fields.py",
    "strftime.py",
    "clf.py",
    "scanner.py",
    "views.py",
    "syslog.py",
)
_HERE = Path(__file__).resolve().parent


def sources_digest() -> str:
    h = hashlib.sha256()
    for name in KERNEL_MODULES:
        h.update((_HERE / name).read_bytes())
    return h.hexdigest()


def invalidate_stale_cache(cache_dir: Path = _HERE / "__pycache__") -> bool:
    """Delete cached kernels built from other sources; True when something was dropped."""
    stamp = cache_dir / "headroom_kernels.sha256"
    digest = sources_digest()
    try:
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        cache_dir.mkdir(exist_ok=True)
        for pattern in ("*.nbi", "*.nbc"):
            for f in cache_dir.glob(pattern):
                f.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:
        return False  # read-only install: numba falls back to its own cache dir or none
    return True
