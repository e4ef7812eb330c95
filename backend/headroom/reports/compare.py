"""Two reports, or two runs, side by side: each figure with its delta, change and verdict,
each chart with both sides overlaid."""

from headroom.reports.schemas import (
    Chart,
    Comparison,
    Figure,
    FigureDelta,
    ItemComparison,
    ItemContent,
    ItemKind,
    ReportItemOut,
)


def verdict(a: float | None, b: float | None, better: str | None) -> str | None:
    if a is None or b is None:
        return None
    if a == b:
        return "same"
    if better is None:
        return "changed"
    return "better" if (b > a) == (better == "higher") else "worse"


def figure_delta(a: Figure | None, b: Figure | None) -> FigureDelta:
    ref = a or b
    assert ref is not None
    va, vb = (a.value if a else None), (b.value if b else None)
    delta = vb - va if va is not None and vb is not None else None
    change = 100 * delta / abs(va) if delta is not None and va else None
    return FigureDelta(
        key=ref.key,
        label=ref.label,
        unit=ref.unit,
        better=ref.better,
        a=va,
        b=vb,
        delta=delta,
        change_pct=change,
        verdict=verdict(va, vb, ref.better),
    )


def overlay(a: Chart, b: Chart) -> Chart:
    """Both sides' series (labelled A: and B:) on one chart; a mark both sides have is
    labelled once ("Knee (A, B)"), so the two labels don't overprint."""
    series = [
        s.model_copy(update={"key": f"a_{s.key}", "label": f"A: {s.label}"}) for s in a.series
    ]
    series += [
        s.model_copy(update={"key": f"b_{s.key}", "label": f"B: {s.label}"}) for s in b.series
    ]
    shared = {m.label for m in a.marks} & {m.label for m in b.marks}
    marks = [
        m.model_copy(
            update={"label": f"{m.label} (A, B)" if m.label in shared else f"A: {m.label}"}
        )
        for m in a.marks
    ]
    marks += [
        m.model_copy(update={"label": "" if m.label in shared else f"B: {m.label}"})
        for m in b.marks
    ]
    ranges = [r.model_copy(update={"label": f"A: {r.label}"}) for r in a.ranges]
    ranges += [r.model_copy(update={"label": f"B: {r.label}"}) for r in b.ranges]
    kind = "line" if a.kind == "bar" else a.kind  # overlaid bars would hide each other
    update = {"series": series, "marks": marks, "kind": kind, "ranges": ranges}
    return a.model_copy(update=update)


def compare_contents(
    kind: ItemKind, a_title: str, b_title: str, a: ItemContent, b: ItemContent
) -> ItemComparison:
    a_figures, b_figures = {f.key: f for f in a.figures}, {f.key: f for f in b.figures}
    keys = list(a_figures) + [k for k in b_figures if k not in a_figures]
    b_charts = {c.key: c for c in b.charts}
    return ItemComparison(
        kind=kind,
        title=a_title if a_title == b_title else f"{a_title} / {b_title}",
        a_title=a_title,
        b_title=b_title,
        figures=[figure_delta(a_figures.get(k), b_figures.get(k)) for k in keys],
        charts=[overlay(c, b_charts[c.key]) for c in a.charts if c.key in b_charts],
    )


def compare_reports(
    a_label: str, b_label: str, a: list[ReportItemOut], b: list[ReportItemOut]
) -> Comparison:
    """Items pair in order with the first unpaired item of B of the same kind and view."""
    unpaired = list(b)
    pairs, only_a = [], []
    for item in a:
        match = next((o for o in unpaired if (o.kind, o.view) == (item.kind, item.view)), None)
        if match is None:
            only_a.append(item.title)
            continue
        unpaired.remove(match)
        pairs.append(compare_contents(item.kind, item.title, match.title, item, match))
    return Comparison(
        a_label=a_label,
        b_label=b_label,
        items=pairs,
        only_in_a=only_a,
        only_in_b=[o.title for o in unpaired],
    )
