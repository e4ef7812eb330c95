"""`headroom parse`: structure lines are reported as `lines_skipped`, apart from rejects, and
the counts add up over several chunks (a W3C log whose `#Fields:` changes mid-file)."""

import json
from pathlib import Path

from click.testing import CliRunner

from headroom.cli import main
from headroom.cli.workload import parse_log

DATA = Path(__file__).resolve().parents[3] / "data" / "logs"
FIELDS_A = "date time c-ip cs-method cs-uri-stem sc-status time-taken"
FIELDS_B = "time-taken sc-status date time cs-uri-stem c-ip cs-method"


def test_iis_directives_are_skipped_not_rejected() -> None:
    path = DATA / "lnav_iis_w3c_time-taken.log"
    result = CliRunner().invoke(main, ["parse", str(path), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    directives = sum(1 for line in path.read_text().splitlines() if line.startswith("#"))
    assert directives == 44
    assert (doc["lines_total"], doc["lines_parsed"]) == (254, 210)
    assert (doc["lines_rejected"], doc["lines_skipped"], doc["rejects"]) == (0, 44, [])
    text = CliRunner().invoke(main, ["parse", str(path)]).stdout
    assert "lines: 254 (210 parsed, 0 rejected, 44 skipped)" in text


def test_w3c_fields_change_read_right_in_every_chunk(tmp_path: Path) -> None:
    """Before, each chunk after the first was read with the first `#Fields:`."""
    out, paths = ["#Software: t\n", f"#Fields: {FIELDS_A}\n"], []
    for i in range(400):
        if i == 100:
            out += ["\n", "#Remark: rotated\n", f"#Fields: {FIELDS_B}\n"]
        stamp = f"2024-03-01 00:{i // 60:02d}:{i % 60:02d}"
        if i < 100:
            out.append(f"{stamp} 10.0.0.1 GET /a{i} 200 {i}\n")
        else:
            out.append(f"{i} 404 {stamp} /b{i} 10.0.0.2 GET\n")
        paths.append(f"/a{i}" if i < 100 else f"/b{i}")
    path = tmp_path / "u_ex.log"
    path.write_text("".join(out))
    parsed = parse_log(path, chunk_bytes=2048)
    assert path.stat().st_size > 8 * 2048
    assert (parsed.lines_total, parsed.lines_rejected, parsed.lines_skipped) == (405, 0, 5)
    assert parsed.table.height == 400
    assert parsed.table["path"].to_list() == paths
    assert parsed.table["status"].to_list() == [200] * 100 + [404] * 300
