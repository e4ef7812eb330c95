"""Charts as inline SVG for the HTML export: line, step and bar, with axes, ticks, legend
and marks; no scripts, every text escaped."""

import itertools
from html import escape

from headroom.reports.schemas import Chart, Series
from headroom.reports.units import format_tick, nice_ticks, time_ticks, unit_label

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 16, 64
PALETTE = ("#2563eb", "#d97706", "#059669", "#db2777", "#7c3aed", "#0891b2")
MARK_COLOUR, GRID, AXIS, BAND = "#b91c1c", "#e5e7eb", "#4b5563", "#16a34a"


class Frame:
    """Maps data coordinates to pixels."""

    def __init__(self, x_range: tuple[float, float], y_range: tuple[float, float]) -> None:
        self.x0, self.x1 = x_range
        self.y0, self.y1 = y_range

    def px(self, x: float) -> float:
        span = (self.x1 - self.x0) or 1.0
        return LEFT + (x - self.x0) / span * (WIDTH - LEFT - RIGHT)

    def py(self, y: float) -> float:
        span = (self.y1 - self.y0) or 1.0
        return HEIGHT - BOTTOM - (y - self.y0) / span * (HEIGHT - TOP - BOTTOM)


def _points(series: Series) -> list[tuple[float, float]]:
    return [(x, y) for x, y in zip(series.x, series.y, strict=True) if y is not None]


def _frame(chart: Chart) -> tuple[Frame, list[float], list[float]]:
    pts = [p for s in chart.series for p in _points(s)]
    xs = [p[0] for p in pts] + [m.x for m in chart.marks]
    xs += [x for r in chart.ranges for x in (r.x1, r.x2)]
    ys = [p[1] for p in pts] + [m.y for m in chart.marks if m.y is not None]
    x_lo, x_hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    y_hi = max([*ys, 0.0]) or 1.0
    x_ticks = time_ticks(x_lo, x_hi) if chart.x_unit == "time" else nice_ticks(x_lo, x_hi)
    y_ticks = nice_ticks(min([*ys, 0.0]), y_hi)
    if chart.x_unit != "time":
        x_lo, x_hi = min(x_lo, x_ticks[0]), max(x_hi, x_ticks[-1])
    return Frame((x_lo, x_hi), (y_ticks[0], y_ticks[-1])), x_ticks, y_ticks


def _path(series: Series, kind: str, frame: Frame) -> str:
    pts = _points(series)
    if not pts:
        return ""
    cmds = [f"M{frame.px(pts[0][0]):.1f},{frame.py(pts[0][1]):.1f}"]
    for x, y in pts[1:]:
        if kind == "step":
            cmds.append(f"H{frame.px(x):.1f}")
        cmds.append(f"L{frame.px(x):.1f},{frame.py(y):.1f}")
    return " ".join(cmds)


def _bars(series: Series, colour: str, frame: Frame) -> list[str]:
    """Contiguous bars: each spans halfway to its neighbours (bins may be log-spaced)."""
    xs = [frame.px(x) for x, _ in _points(series)]
    ys = [frame.py(y) for _, y in _points(series)]
    if len(xs) < 2:
        return []
    mids = [(a + b) / 2 for a, b in itertools.pairwise(xs)]
    lefts = [2 * xs[0] - mids[0], *mids]
    rights = [*mids, 2 * xs[-1] - mids[-1]]
    base = frame.py(max(frame.y0, 0.0))
    return [
        f'<rect x="{lo:.1f}" y="{y:.1f}" width="{max(0.5, hi - lo - 1):.1f}" '
        f'height="{max(0.0, base - y):.1f}" fill="{colour}" fill-opacity="0.55"/>'
        for lo, hi, y in zip(lefts, rights, ys, strict=True)
    ]


def _dots(series: Series, colour: str, frame: Frame) -> list[str]:
    return [
        f'<circle cx="{frame.px(x):.1f}" cy="{frame.py(y):.1f}" r="3" fill="{colour}"/>'
        for x, y in _points(series)
    ]


def _ranges(chart: Chart, frame: Frame) -> list[str]:
    """Shaded bands under everything else, labelled at their bottom left."""
    out = []
    for r in chart.ranges:
        x1, x2 = sorted((frame.px(r.x1), frame.px(r.x2)))
        out.append(
            f'<rect x="{x1:.1f}" y="{TOP}" width="{max(1.0, x2 - x1):.1f}" '
            f'height="{HEIGHT - BOTTOM - TOP}" fill="{BAND}" fill-opacity="0.12"/>'
        )
        label = escape(r.label)
        out.append(f'<text x="{x1 + 4:.1f}" y="{HEIGHT - BOTTOM - 6}" fill="{BAND}">{label}</text>')
    return out


def _series(chart: Chart, frame: Frame) -> list[str]:
    out = []
    for i, s in enumerate(chart.series):
        colour = PALETTE[i % len(PALETTE)]
        if chart.kind == "bar" and not s.dashed:
            out.extend(_bars(s, colour, frame))
            continue
        if s.points:
            out.extend(_dots(s, colour, frame))
            continue
        dash = ' stroke-dasharray="6 4"' if s.dashed else ""
        kind = "line" if chart.kind == "bar" else chart.kind
        out.append(
            f'<path d="{_path(s, kind, frame)}" fill="none" stroke="{colour}" '
            f'stroke-width="2"{dash}/>'
        )
    return out


def _axes(chart: Chart, frame: Frame, x_ticks: list[float], y_ticks: list[float]) -> list[str]:
    out = []
    for t in y_ticks:
        y = frame.py(t)
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>'
        )
        label = escape(format_tick(t, chart.y_unit))
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    for t in x_ticks:
        x, label = frame.px(t), escape(format_tick(t, chart.x_unit))
        out.append(
            f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{label}</text>'
        )
    x_title = escape(f"{chart.x_label} ({unit_label(chart.x_unit)})")
    y_title = escape(f"{chart.y_label} ({unit_label(chart.y_unit)})")
    middle = 'text-anchor="middle"'
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - BOTTOM + 34}" {middle}>')
    out.append(f"{x_title}</text>")
    out.append(f'<text transform="translate(14 {(TOP + HEIGHT - BOTTOM) / 2}) rotate(-90)" ')
    out.append(f"{middle}>{y_title}</text>")
    base = HEIGHT - BOTTOM
    out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{base}" y2="{base}" stroke="{AXIS}"/>')
    return out


def _marks(chart: Chart, frame: Frame) -> list[str]:
    """Dots with labels, and vertical lines whose labels step down one line each, so close
    lines (Q_lower, USL N*, Q_upper) don't overprint."""
    out, lines = [], 0
    for mark in chart.marks:
        x, label = frame.px(mark.x), escape(mark.label)
        if mark.y is None:
            y_text = TOP + 12 + 14 * (lines % 3)
            lines += 1
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{HEIGHT - BOTTOM}" ')
            out.append(f'stroke="{MARK_COLOUR}" stroke-dasharray="3 3"/>')
            out.append(f'<text x="{x + 4:.1f}" y="{y_text}" fill="{MARK_COLOUR}">{label}</text>')
        else:
            y = frame.py(mark.y)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{MARK_COLOUR}"/>')
            out.append(f'<text x="{x + 6:.1f}" y="{y - 6:.1f}" fill="{MARK_COLOUR}">{label}</text>')
    return out


def _legend(chart: Chart) -> list[str]:
    out, x = [], LEFT
    for i, s in enumerate(chart.series):
        colour, label = PALETTE[i % len(PALETTE)], escape(s.label)
        if s.points:
            out.append(f'<circle cx="{x + 6}" cy="{HEIGHT - 12}" r="4" fill="{colour}"/>')
        else:
            out.append(f'<rect x="{x}" y="{HEIGHT - 18}" width="12" height="12" fill="{colour}"/>')
        out.append(f'<text x="{x + 16}" y="{HEIGHT - 8}">{label}</text>')
        x += 28 + 7 * len(s.label)
    return out


def render_chart(chart: Chart) -> str:
    frame, x_ticks, y_ticks = _frame(chart)
    parts = [
        *_ranges(chart, frame),
        *_axes(chart, frame, x_ticks, y_ticks),
        *_series(chart, frame),
        *_marks(chart, frame),
        *_legend(chart),
    ]
    title = escape(chart.title)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{title}" font-family="system-ui, sans-serif" font-size="11" fill="{AXIS}">'
        f"<title>{title}</title>{''.join(parts)}</svg>"
    )
