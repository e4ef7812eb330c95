"""The typed result documents serve what the untyped ones served: on a fixed log, the
document the API returns is, as JSON text, the engine's report made plain JSON (what the
jobs stored and served before the documents were typed); stored documents of earlier
versions load with nothing dropped."""

import json
from pathlib import Path
from typing import Any

import numpy as np
from analyses.synth_logs import combined_latency_lines, mm1_table

from headroom.analyses.documents import (
    CapacityReportDoc,
    capacity_document,
    sct_document,
    stored_report,
)
from headroom.analyses.tables import for_capacity, jsonable
from headroom.characterizations.documents import CharacterizationCore, CharacterizationDoc
from headroom.characterizations.run import HISTOGRAM_BINS, result_document
from headroom.engine.capacity import CapacityParams, SctParams, analyze, analyze_trace, synth
from headroom.engine.logs import detect_format, parse_chunk
from headroom.engine.workload import characterize

LOG = combined_latency_lines(mm1_table())
STORED = Path(__file__).parents[1] / "reports" / "result_documents.json"


def text(document: Any) -> str:
    """JSON text as the CLI prints it and the API serves it: key order counts."""
    return json.dumps(document)


def test_a_capacity_report_is_served_as_the_engine_wrote_it() -> None:
    table = for_capacity(parse_chunk(LOG, detect_format(LOG)).table)
    report = analyze(table, CapacityParams())
    typed = capacity_document(report).model_dump(mode="json")
    assert text(typed) == text(jsonable(report.to_dict()))
    assert text(stored_report("capacity", typed).model_dump(mode="json")) == text(typed)


def test_an_sct_report_is_served_as_the_engine_wrote_it() -> None:
    ramp = list(range(1, 41)) + list(range(40, 0, -1))  # users, one step per 2 s
    rates = synth.plateau_rates(50.0, 10, 20, 0.02, 80)
    table = synth.pool_trace(ramp, 2.0, 0.005, rates, np.random.default_rng(5), server="app-1")
    parsed = parse_chunk(synth.trace_csv(table), detect_format(synth.trace_csv(table))).table
    report = analyze_trace(parsed, SctParams(window_s=None))
    typed = sct_document(report).model_dump(mode="json")
    assert typed["servers"]["app-1"]["levels"], "the trace must reach some levels"
    assert text(typed) == text(jsonable(report.to_dict()))
    assert text(stored_report("sct", typed).model_dump(mode="json")) == text(typed)


def test_a_characterization_is_served_as_the_engine_wrote_it() -> None:
    result = characterize(parse_chunk(LOG, detect_format(LOG)).table.sort("ts"))
    typed = result_document(result).model_dump(mode="json")
    histograms = {n: result.histogram(n, HISTOGRAM_BINS).to_dict() for n in result.fits}
    untyped = jsonable({**result.to_dict(), "histograms": histograms, "display": typed["display"]})
    assert text(typed) == text(untyped)
    assert typed["display"]["arrivals"], "the display must hold the arrival views"
    core = CharacterizationCore.model_validate(jsonable(result.to_dict()))
    assert text(core.model_dump(mode="json")) == text(jsonable(result.to_dict()))


def _kept(old: Any, new: Any, path: str = "") -> list[str]:
    """Where `new` lost or changed something of `old` (added keys are fine)."""
    if isinstance(old, dict):
        lost = [f"{path}.{key}" for key in old if key not in new]
        kept = [k for k in old if k in new]
        return lost + [p for k in kept for p in _kept(old[k], new[k], f"{path}.{k}")]
    if isinstance(old, list):
        if len(old) != len(new):
            return [f"{path}[len]"]
        pairs = enumerate(zip(old, new, strict=True))
        return [p for i, (a, b) in pairs for p in _kept(a, b, f"{path}[{i}]")]
    return [] if old == new else [path]


def test_documents_stored_by_earlier_versions_load_and_lose_nothing() -> None:
    stored = json.loads(STORED.read_text())
    analysis = CapacityReportDoc.model_validate(stored["analysis"])
    characterization = CharacterizationDoc.model_validate(stored["characterization"])
    assert _kept(stored["analysis"], analysis.model_dump(mode="json")) == []
    assert _kept(stored["characterization"], characterization.model_dump(mode="json")) == []
    # fields added since default to null; a key this version does not know is kept
    assert analysis.virtual_queue is None and characterization.display is None
    extra = CapacityReportDoc.model_validate({**stored["analysis"], "future_figure": 1.5})
    assert extra.model_dump(mode="json")["future_figure"] == 1.5
