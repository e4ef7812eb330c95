"""Exports of a report: a self-contained HTML page (inline SVG charts, no scripts, no
external resources, everything escaped), JSON (the numbers) and CSV per series (formula
injection neutralised)."""

import csv
import io
import json
import re
import zipfile
from html import escape

from headroom.reports.schemas import Chart, PublicReportOut, ReportItemOut, Series
from headroom.reports.svg import render_chart
from headroom.reports.units import format_value

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
STYLE = """
body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;
color:#111827;line-height:1.5}h1{margin-bottom:.25rem}.meta,.source{color:#6b7280}
section{border-top:1px solid #e5e7eb;margin-top:2rem;padding-top:1rem}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.25rem .5rem;
border-bottom:1px solid #f3f4f6}td.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#f9fafb;padding:.75rem;overflow:auto;font-size:12px}svg{width:100%;height:auto}
"""


def safe_cell(value: object) -> object:
    """A text cell a spreadsheet would run as a formula is prefixed with a quote."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "x"


def series_files(report: PublicReportOut) -> dict[str, tuple[Chart, Series]]:
    """Each series under a stable file stem: <item position>-<chart>-<series>."""
    return {
        f"{item.position + 1:02d}-{slug(chart.key)}-{slug(series.key)}": (chart, series)
        for item in report.items
        for chart in item.charts
        for series in chart.series
    }


def series_csv(chart: Chart, series: Series) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    x_head = f"{chart.x_label} ({'epoch s' if chart.x_unit == 'time' else chart.x_unit})"
    writer.writerow([safe_cell(x_head), safe_cell(f"{series.label} ({chart.y_unit})")])
    writer.writerows(zip(series.x, series.y, strict=True))
    return out.getvalue()


def csv_zip(report: PublicReportOut) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for stem, (chart, series) in series_files(report).items():
            archive.writestr(f"{stem}.csv", series_csv(chart, series))
    return buffer.getvalue()


def to_json(report: PublicReportOut) -> str:
    return json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False)


def _figures(item: ReportItemOut) -> str:
    rows = "".join(
        f'<tr><td>{escape(f.label)}</td><td class="num">{escape(format_value(f.value, f.unit))}'
        "</td></tr>"
        for f in item.figures
    )
    return f"<table><tbody>{rows}</tbody></table>" if rows else ""


def _item(item: ReportItemOut) -> str:
    notes = "".join(f"<li>{escape(n)}</li>" for n in item.notes)
    params = escape(json.dumps(item.params, indent=2, ensure_ascii=False))
    return (
        f"<section><h2>{escape(item.title)}</h2>"
        f'<p class="source">{escape(item.source_label)}, captured '
        f"{item.captured_at:%Y-%m-%d %H:%M} UTC</p>"
        f"{_figures(item)}"
        + "".join(f"<figure>{render_chart(c)}</figure>" for c in item.charts)
        + (f"<ul>{notes}</ul>" if notes else "")
        + f"<details><summary>Parameters</summary><pre>{params}</pre></details></section>"
    )


def to_html(report: PublicReportOut) -> str:
    title = escape(report.title)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{title}</title><style>{STYLE}</style></head><body>"
        f'<h1>{title}</h1><p class="meta">Headroom report, updated '
        f"{report.updated_at:%Y-%m-%d %H:%M} UTC</p>"
        f"<div>{report.notes_html}</div>"
        + "".join(_item(item) for item in report.items)
        + "</body></html>"
    )
