"""The pure parts of reports: safe Markdown, CSV cells, the SVG renderer, axis ticks and
the comparison verdicts, checked by hand-worked examples and Hypothesis properties."""

import itertools
import math
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reports.report_sources import Documents

from headroom.characterizations.documents import CharacterizationDoc
from headroom.engine.workload import Rules
from headroom.reports.compare import figure_delta, overlay, verdict
from headroom.reports.export import FORMULA_STARTS, safe_cell
from headroom.reports.markdown import render_notes
from headroom.reports.schemas import Chart, Figure, Mark, Series
from headroom.reports.snapshots import characterization
from headroom.reports.svg import HEIGHT, LEFT, RIGHT, WIDTH, Frame, render_chart
from headroom.reports.units import nice_ticks

NOTE_TAGS = {
    "p",
    "em",
    "strong",
    "a",
    "code",
    "pre",
    "ul",
    "ol",
    "li",
    "blockquote",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "br",
}


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def tags_of(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    parser = Tags()
    parser.feed(html)
    return parser.tags


HOSTILE = st.sampled_from(
    [
        "<script>alert(1)</script>",
        '"><img src=x onerror=alert(1)>',
        "[x](javascript:alert(1))",
        "[y](JaVaScRiPt:alert(1))",
        "<a href='javascript:x'>z</a>",
        "![i](http://evil.example/x.png)",
        "[d](data:text/html;base64,PHNjcmlwdD4=)",
        "<iframe src=//evil>",
        "`<b>`",
        "*ok*",
    ]
)


@given(st.lists(st.one_of(HOSTILE, st.text(max_size=40)), max_size=6).map("\n".join))
def test_notes_render_only_plain_tags_and_web_links(markdown: str) -> None:
    for tag, attrs in tags_of(render_notes(markdown)):
        assert tag in NOTE_TAGS, tag
        for name, value in attrs:
            assert name in ("href", "rel"), name
            if name == "href":
                assert (value or "").lower().startswith(("http:", "https:", "mailto:")), value


def test_notes_examples() -> None:
    assert render_notes("<script>x</script>") == "<p>&lt;script&gt;x&lt;/script&gt;</p>\n"
    link = render_notes("[docs](https://example.com)")
    assert link == (
        '<p><a href="https://example.com" rel="noopener noreferrer nofollow">docs</a></p>\n'
    )
    assert render_notes("[x](javascript:alert(1))") == "<p>[x](javascript:alert(1))</p>\n"


@given(st.text())
def test_csv_cells_never_start_a_formula(text: str) -> None:
    cell = safe_cell(text)
    assert isinstance(cell, str)
    assert not cell.startswith(FORMULA_STARTS)
    assert cell == text or cell == "'" + text


def test_numbers_are_left_as_numbers() -> None:
    assert (
        safe_cell(-1.5) == -1.5
        and safe_cell('=HYPERLINK("http://x")') == '\'=HYPERLINK("http://x")'
    )


@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(1e-3, 1e6, allow_nan=False),
)
def test_nice_ticks_cover_the_range_with_round_equal_steps(low: float, span: float) -> None:
    high = low + span
    ticks = nice_ticks(low, high)
    step = ticks[1] - ticks[0]
    slack = 1e-6 * step  # a tick within a millionth of a step of the end counts as covering it
    assert ticks[0] <= low + slack and ticks[-1] >= high - slack
    steps = {round((b - a) / step, 6) for a, b in itertools.pairwise(ticks)}
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert steps == {1.0}
    assert min(abs(mantissa - m) for m in (1, 2, 2.5, 5, 10)) < 1e-6
    assert 2 <= len(ticks) <= 7


def test_nice_ticks_example() -> None:
    assert nice_ticks(0.0, 0.73) == [0.0, 0.2, 0.4, 0.6, 0.8]


def test_frame_maps_the_data_range_onto_the_plot_area() -> None:
    frame = Frame((10.0, 20.0), (0.0, 4.0))
    assert frame.px(10.0) == LEFT and frame.px(20.0) == WIDTH - RIGHT
    assert frame.py(0.0) == HEIGHT - 64 and frame.py(4.0) == 16


def chart(kind: str, label: str = "p95") -> Chart:
    return Chart(
        key="k",
        title=f"{label} <title>",
        kind=kind,
        x_label="load",
        x_unit="req/s",  # type: ignore[arg-type]
        y_label="latency",
        y_unit="s",
        series=[Series(key="a", label=label, x=[0, 1, 2], y=[0.1, None, 0.3])],
        marks=[Mark(label=f"{label} knee", x=1, y=0.2), Mark(label="break", x=2)],
    )


def test_svg_is_well_formed_and_escapes_every_text() -> None:
    hostile = '"><script>alert(1)</script>'
    for kind in ("line", "step", "bar"):
        svg = render_chart(chart(kind, hostile))
        root = ET.fromstring(svg)
        assert not [e for e in root.iter() if e.tag.endswith(("script", "foreignObject"))]
        assert "<script>" not in svg and all(
            not a.startswith("on") for e in root.iter() for a in e.attrib
        )
    bars = ET.fromstring(render_chart(chart("bar")))
    assert len([e for e in bars.iter() if e.tag.endswith("rect")]) == 2 + 1  # two bars + legend


def test_verdicts_follow_the_better_direction() -> None:
    assert verdict(1.0, 2.0, "higher") == "better" and verdict(1.0, 2.0, "lower") == "worse"
    assert verdict(2.0, 1.0, "lower") == "better" and verdict(1.0, 1.0, "lower") == "same"
    assert verdict(1.0, 2.0, None) == "changed" and verdict(None, 2.0, "lower") is None
    a = Figure(key="k", label="Knee", value=80.0, unit="req/s", better="higher")
    delta = figure_delta(a, a.model_copy(update={"value": 100.0}))
    assert (delta.delta, delta.change_pct, delta.verdict) == (20.0, 25.0, "better")
    zero = figure_delta(a.model_copy(update={"value": 0.0}), a)
    assert zero.change_pct is None and zero.delta == 80.0


def test_fitted_counts_match_the_exponential_closed_form(documents: Documents) -> None:
    """The fitted series is pdf(centre) x n x width (midpoint rule); against the exact
    n (F(b) - F(a)) of the fitted exponential: the total within 1 %, each bin holding 5 or
    more within 15 % (the midpoint rule's error on the widest of these log-spaced bins)."""
    document = CharacterizationDoc.model_validate(documents.characterization)
    content = characterization(document, Rules.model_validate(documents.rules))
    chart = next(c for c in content.charts if c.key == "hist_service_time_s")
    histogram = documents.characterization["histograms"]["service_time_s"]
    assert histogram["fitted_dist"] == "exponential"
    mean = documents.characterization["fits"]["service_time_s"]["params"]["mean"]
    n, edges = sum(histogram["counts"]), histogram["edges"]
    exact = [n * (math.exp(-a / mean) - math.exp(-b / mean)) for a, b in itertools.pairwise(edges)]
    fitted = [y or 0.0 for y in chart.series[1].y]
    assert sum(fitted) == pytest.approx(sum(exact), rel=0.01)
    for got, want in zip(fitted, exact, strict=True):
        if want >= 5:
            assert got == pytest.approx(want, rel=0.15)
    assert chart.series[0].y == histogram["counts"]


def test_overlay_labels_each_side_and_a_shared_mark_once() -> None:
    a = chart("line", "p95")
    b = a.model_copy(update={"marks": [Mark(label="p95 knee", x=1.5, y=0.25)]})
    both = overlay(a, b)
    assert [s.label for s in both.series] == ["A: p95", "B: p95"]
    assert [m.label for m in both.marks] == ["p95 knee (A, B)", "A: break", ""]
