"""`headroom parse` starts numba without the optional modules its kernels never use
(scipy.linalg, cffi): in a fresh process they stay unimported while the command runs,
the report and the Parquet table equal the in-memory parse's, and the modules import
normally afterwards."""

import json
import subprocess
import sys
from pathlib import Path

import polars as pl

from headroom.cli.workload import parse_log, parse_report

DATA = Path(__file__).resolve().parents[3] / "data" / "logs"
LOG = DATA / "apache_combined_elastic.log"

SCRIPT = """
import json, sys
from headroom.cli import main
try:
    main(["parse", sys.argv[1], "--out", sys.argv[2], "--json"])
except SystemExit as stop:
    assert stop.code == 0, stop.code
during = {name: name in sys.modules for name in ("scipy.linalg", "cffi")}
import scipy.linalg  # importable again once the command is done
print(json.dumps(during))
"""


def test_parse_runs_without_numba_extras_and_its_output_is_unchanged(tmp_path: Path) -> None:
    cmd = [sys.executable, "-c", SCRIPT, str(LOG), str(tmp_path)]
    proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
    *report_lines, imported_line = proc.stdout.strip().splitlines()
    assert json.loads(imported_line) == {"scipy.linalg": False, "cffi": False}
    reference = parse_log(LOG)
    assert json.loads("\n".join(report_lines)) == json.loads(json.dumps(parse_report(reference)))
    table = pl.read_parquet(tmp_path / "requests.parquet")
    assert table.schema == reference.table.schema
    assert table.equals(reference.table)


def test_extras_are_left_alone_once_numba_has_started() -> None:
    from headroom.cli.parse_stream import without_numba_extras
    from headroom.engine.logs import detect_format

    detect_format(LOG.read_bytes())  # numba's compiler started in this process
    with without_numba_extras():
        import scipy.linalg

        assert sys.modules["scipy.linalg"] is scipy.linalg
