"""`headroom analyze | sct | partition`: the JSON contract, agreement with the engine
called directly, and one-line exit-2 errors on unusable input."""

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from analyses.synth_logs import combined_latency_lines, mm1_table
from click.testing import CliRunner, Result

from headroom.analyses.tables import for_capacity
from headroom.cli import main
from headroom.engine.capacity import (
    CapacityParams,
    SctParams,
    analyze,
    analyze_trace,
    partition_report,
    synth,
)
from headroom.engine.logs import detect_format, parse_chunk

DATA = Path(__file__).resolve().parents[3] / "data" / "logs"
CLASS_KEYS = {"knee", "breaking_point_per_s", "sla", "max_conn"}
SLA_KEYS = {"percentile", "threshold_s", "max_rate_per_s", "max_conn"}
SERVER_KEYS = {"q_lower", "q_upper", "tp_max_per_s", "usl"}


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def json_of(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def assert_one_line_error(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture(scope="module")
def mm1_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "mm1.log"
    path.write_bytes(combined_latency_lines(mm1_table()))
    return path


def test_analyze_json_holds_the_contract_and_the_engine_numbers(mm1_log: Path) -> None:
    out = json_of(run("analyze", str(mm1_log), "--percentile", "90", "--stance", "loose", "--json"))
    data = mm1_log.read_bytes()
    table = for_capacity(parse_chunk(data, detect_format(data)).table)
    expected = analyze(table, CapacityParams(percentile=90, stance="loose")).to_dict()
    assert set(out) >= {"classes", "capacity"}
    assert set(out["classes"]) == {"all"}
    for cls in out["classes"].values():
        assert set(cls) >= CLASS_KEYS
        assert set(cls["knee"]) == {"load_per_s", "latency_s", "source"}
        assert cls["knee"]["source"] in {"measured", "model"}
        assert set(cls["sla"]) >= SLA_KEYS and cls["sla"]["percentile"] == 90
    assert set(out["capacity"]) == {"power_peak_load_per_s", "r2"}
    assert out["classes"] == expected["classes"]
    assert out["capacity"] == expected["capacity"]


def test_analyze_threshold_and_window_reach_the_engine(mm1_log: Path) -> None:
    out = json_of(
        run("analyze", str(mm1_log), "--threshold-s", "0.2", "--window-s", "20", "--json")
    )
    data = mm1_log.read_bytes()
    table = for_capacity(parse_chunk(data, detect_format(data)).table)
    expected = analyze(table, CapacityParams(threshold_s=0.2, window_s=20)).to_dict()
    assert out["classes"]["all"]["sla"]["threshold_s"] == 0.2
    assert out["classes"]["all"]["sla"] == expected["classes"]["all"]["sla"]


def test_analyze_without_json_prints_a_table(mm1_log: Path) -> None:
    result = run("analyze", str(mm1_log))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].split()[:2] == ["class", "knee/s"]
    assert result.stdout.splitlines()[1].startswith("all ")
    assert "power-ratio capacity" in result.stdout


def test_the_real_command_runs_as_a_process(mm1_log: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "headroom.cli", "analyze", str(mm1_log), "--json"],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)["classes"]["all"]) >= CLASS_KEYS
    missing = subprocess.run(
        [sys.executable, "-m", "headroom.cli", "analyze", "/no/such.log"],
        capture_output=True,
        check=False,
    )
    assert missing.returncode == 2 and missing.stderr.decode().count("\n") == 1


@pytest.mark.parametrize(
    "args, words",
    [
        (["analyze", "/no/such/file.log"], ["no such file"]),
        (["analyze", str(DATA / "apache_combined_elastic.log")], ["no response times", "%D"]),
        (["analyze", "{garbage}"], ["no known format"]),
        (["analyze", "{truncated_gz}"], ["{truncated_gz}"]),
        (["analyze", "{corrupt_gz}"], ["{corrupt_gz}"]),
        (["sct", "{corrupt_gz}"], ["{corrupt_gz}"]),
        (["analyze", "{mm1}", "--percentile", "200"], ["--percentile", "50 to 99.9"]),
        (["analyze", "{mm1}", "--percentile", "abc"], ["--percentile"]),
        (
            ["analyze", "{mm1}", "--window-s", "-5"],
            ["--window-s", "more than 0 and at most 86,400 seconds"],
        ),
        (["analyze", "{mm1}", "--window-s", "5000"], ["fewer than 5 windows", "--window-s"]),
        (["analyze", "{mm1}", "--stance", "reckless"], ["--stance"]),
        (["analyze", "{mm1}", "--format", "nonsense"], ["unknown log format"]),
        (["sct", "/no/such/trace.csv"], ["no such file"]),
        (["sct", "{garbage}"], ["no known format"]),
        (["sct", "{no_latency}"], ["no response times", "duration"]),
        (["sct", str(DATA / "apache_combined_elastic.log")], ["no response times", "duration"]),
        (["sct", "{trace}", "--interval-ms", "0"], ["--interval-ms", "0.1 to 60,000 ms"]),
        (
            [
                "partition",
                "--servers",
                "1",
                "--top-fraction",
                ".2",
                "--maxconn-sla",
                "1",
                "--maxconn",
                "2",
            ],
            ["--servers", "at least 2"],
        ),
        (
            [
                "partition",
                "--servers",
                "10",
                "--top-fraction",
                "1.5",
                "--maxconn-sla",
                "1",
                "--maxconn",
                "2",
            ],
            ["--top-fraction", "0 to 1"],
        ),
        (
            [
                "partition",
                "--servers",
                "10",
                "--top-fraction",
                ".2",
                "--maxconn-sla",
                "30",
                "--maxconn",
                "26",
            ],
            ["--maxconn-sla (30) cannot exceed --maxconn (26)"],
        ),
        (["partition", "--servers", "ten"], ["--servers"]),
    ],
)
def test_unusable_input_is_one_line_and_exit_2(
    args: list[str], words: list[str], mm1_log: Path, small_trace: Path, tmp_path: Path
) -> None:
    no_latency = tmp_path / "arrivals.csv"
    no_latency.write_text("arrival,server\n1.0,a\n2.0,a\n")
    garbage = tmp_path / "notes.txt"
    garbage.write_text("this is not a log\nnor is this\n" * 50)
    truncated_gz, corrupt_gz = tmp_path / "cut.log.gz", tmp_path / "bad.log.gz"
    truncated_gz.write_bytes(gzip.compress(mm1_log.read_bytes())[:50_000])
    corrupt_gz.write_bytes(b"\x1f\x8b\x08\x00" + b"garbage" * 100)
    paths = {
        "{truncated_gz}": str(truncated_gz),
        "{corrupt_gz}": str(corrupt_gz),
        "{mm1}": str(mm1_log),
        "{trace}": str(small_trace),
        "{no_latency}": str(no_latency),
        "{garbage}": str(garbage),
    }
    assert_one_line_error(run(*[paths.get(a, a) for a in args]), *[paths.get(w, w) for w in words])


RAMP = list(range(1, 41)) + list(range(40, 0, -1))  # users, one step per 2 s


@pytest.fixture(scope="module")
def pool_table() -> pl.DataFrame:
    """A server whose best pool is 10..20 (completion rate flat there, falling above)."""
    rates = synth.plateau_rates(100.0, 10, 20, 0.02, 80)
    return synth.pool_trace(RAMP, 2.0, 0.005, rates, np.random.default_rng(3), server="app-1")


@pytest.fixture(scope="module")
def small_trace(pool_table: pl.DataFrame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("traces") / "trace.csv"
    pool_table.select(
        arrival=pl.col("ts").dt.epoch("ns") / 1e9,
        duration_ms=pl.col("latency_s") * 1e3,
        server="server",
    ).write_csv(path)
    return path


def test_sct_csv_trace_matches_the_engine(pool_table: pl.DataFrame, small_trace: Path) -> None:
    out = json_of(run("sct", str(small_trace), "--window-s", "0", "--json"))
    expected = analyze_trace(pool_table, SctParams(window_s=None)).to_dict()["servers"]
    assert set(out["servers"]) == {"app-1"}
    got = out["servers"]["app-1"]
    assert set(got) >= SERVER_KEYS and set(got["usl"]) >= {"sigma", "kappa", "n_star"}
    want = expected["app-1"]
    # times went through text (epoch seconds, milliseconds): levels may move by rounding,
    # so the pool bounds are compared exactly and throughput within 1%
    assert (got["q_lower"], got["q_upper"]) == (want["q_lower"], want["q_upper"])
    assert got["tp_max_per_s"] == pytest.approx(want["tp_max_per_s"], rel=0.01)
    assert 8 <= got["q_lower"] <= 12  # the simulated server's flat stage starts at 10


def test_sct_json_lines_with_iso_times_and_departures(
    pool_table: pl.DataFrame, small_trace: Path, tmp_path: Path
) -> None:
    iso = "%Y-%m-%dT%H:%M:%S%.9fZ"
    depart = pl.col("ts") + pl.duration(nanoseconds=(pl.col("latency_s") * 1e9).round())
    path = tmp_path / "trace.jsonl"
    pool_table.select(
        start=pl.col("ts").dt.strftime(iso), end=depart.dt.strftime(iso), host="server"
    ).write_ndjson(path)
    from_jsonl = json_of(run("sct", str(path), "--window-s", "0", "--json"))
    from_csv = json_of(run("sct", str(small_trace), "--window-s", "0", "--json"))
    for key in ("q_lower", "q_upper"):
        assert from_jsonl["servers"]["app-1"][key] == from_csv["servers"]["app-1"][key]


def test_sct_text_output(small_trace: Path) -> None:
    result = run("sct", str(small_trace))
    assert result.exit_code == 0, result.output
    assert result.stdout.split()[:2] == ["server", "Q_lower"] and "app-1" in result.stdout


def test_partition_worked_example_of_sla_md() -> None:
    """N = 10, top fraction 0.2, MaxConn_D(T_D) = 18, MaxConn_D = 26 (docs/methods/admission.md)."""
    args = ["--servers", "10", "--top-fraction", "0.2", "--maxconn-sla", "18", "--maxconn", "26"]
    out = json_of(run("partition", *args, "--json"))
    assert out == partition_report(10, 0.2, 18, 26).to_dict()
    assert set(out) >= {"K", "warning", "safety_factor", "curve"}
    # K = ceil(0.2 * 10 + 10 * 0.8 * (1 - 18/26)) = ceil(4.46) = 5
    assert out["K"] == 5 and out["warning"] is None
    assert [p["top_fraction"] for p in out["curve"]] == [round(i * 0.05, 2) for i in range(21)]
    text = run("partition", *args)
    assert text.exit_code == 0 and text.stdout.startswith("K = 5")


@pytest.mark.parametrize("log", sorted(p.name for p in DATA.iterdir() if p.is_file()))
def test_every_real_log_gives_the_contract_or_a_one_line_refusal(log: str) -> None:
    """Real logs of every shape (most too short or without response times): never a
    traceback; either the contract or exit 2 with one line."""
    result = run("analyze", str(DATA / log), "--json")
    if result.exit_code == 0:
        assert set(json.loads(result.stdout)) >= {"classes", "capacity"}
    else:
        assert_one_line_error(result)


def test_the_iis_log_with_time_taken_matches_the_engine() -> None:
    """The real IIS W3C log (time-taken in ms): the CLI prints what the engine computes
    from the parser's table (or, if the parser cannot read it, refuses in one line)."""
    path = DATA / "lnav_iis_w3c_time-taken.log"
    data = path.read_bytes()
    try:
        table = for_capacity(parse_chunk(data, detect_format(data)).table.sort("ts"))
        expected: dict[str, Any] | None = analyze(table).to_dict()
    except ValueError:  # LogInputError included: no W3C support or no latencies
        expected = None
    result = run("analyze", str(path), "--json")
    if expected is None:
        assert_one_line_error(result)
        return
    out = json_of(result)
    assert out["classes"] == expected["classes"] and out["capacity"] == expected["capacity"]
    assert table["latency_s"].null_count() < table.height


def test_a_named_format_gives_what_detection_gives(mm1_log: Path) -> None:
    auto = json_of(run("analyze", str(mm1_log), "--json"))
    named = json_of(run("analyze", str(mm1_log), "--format", "combined_latency_us", "--json"))
    assert named == auto


def test_sct_analyses_the_whole_trace_by_default(small_trace: Path) -> None:
    """An uploaded trace is analysed whole (the recent window is for live use), and the
    levels left out are always named."""
    whole = json_of(run("sct", str(small_trace), "--window-s", "0", "--json"))
    default = json_of(run("sct", str(small_trace), "--json"))
    assert default == whole and default["window_s"] is None
    recent = json_of(run("sct", str(small_trace), "--window-s", "30", "--json"))
    got = recent["servers"]["app-1"]
    assert any("most recent window" in w for w in got["warnings"])
    text = run("sct", str(small_trace), "--window-s", "30").stdout
    assert "warning: app-1: only the most recent window was analysed" in text


def test_a_log_too_short_for_the_windows_speaks_the_options_words(mm1_log: Path) -> None:
    """The refusal names the option that fixes it, not the engine's parameter or counts."""
    result = run("analyze", str(mm1_log), "--window-s", "5000")
    assert_one_line_error(result, "use a shorter --window-s or a longer log")
    assert "window_s" not in result.output and "complete windows" not in result.output
