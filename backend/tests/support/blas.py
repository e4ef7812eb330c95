"""Running a script under several of OpenBLAS's CPU kernels, whose sums run in different
orders: a result that follows the kernel prints differently under each."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

KERNELS = ("Haswell", "SkylakeX")


def _avx512() -> bool:
    cpuinfo = Path("/proc/cpuinfo")
    return cpuinfo.is_file() and " avx512f" in cpuinfo.read_text()


needs_both_kernels = pytest.mark.skipif(
    not _avx512(), reason="both BLAS kernels need an x86-64 CPU with AVX-512"
)


def outputs_under_each_kernel(script: str) -> set[str]:
    """The distinct outputs of ``script`` (Python source) run once under each kernel."""
    outputs = set()
    for kernel in KERNELS:
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel}
        run = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        outputs.add(run.stdout)
    return outputs
