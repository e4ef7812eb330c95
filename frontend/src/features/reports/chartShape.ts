/**
 * A report chart (series of x/y arrays, as the server copied them) turned into the configs and
 * rows of the app's chart wrappers: CurveChart for values against a quantity, TimeSeriesChart
 * against wall-clock time.
 */
import type { TimeChartConfig } from "../../charts/config";
import type { CurveChartConfig, CurveMark, CurveRow, CurveSeries } from "../../charts/curveConfig";
import type { ColorToken } from "../../charts/tokens";
import {
  formatBytes,
  formatCount,
  formatDateTime,
  formatDecimal,
  formatLatency,
  formatPercent,
  formatRatePerMin,
  formatRatePerS,
  type Formatter,
} from "../../lib/format";
import type { ReportChart, ReportSeries, Unit } from "./types";

export const UNIT_FORMAT: Record<Unit, Formatter> = {
  s: formatLatency,
  "req/s": formatRatePerS,
  "req/min": formatRatePerMin,
  fraction: (v) => formatPercent(v, 1),
  count: formatCount,
  VMs: (v) => `${formatDecimal(v, 2)} VMs`,
  "VM-hours": (v) => `${formatDecimal(v, 2)} VM-hours`,
  bytes: formatBytes,
  time: (v) => formatDateTime(v * 1000),
  /** Small coefficients (USL sigma, kappa) keep two significant digits instead of reading 0. */
  ratio: (v) => (v !== 0 && Math.abs(v) < 0.01 ? v.toPrecision(2) : formatDecimal(v, 2)),
  cost: (v) => formatDecimal(v, 2),
};

/** Axis ticks: short, the axis title carries the unit. */
const AXIS_FORMAT: Partial<Record<Unit, Formatter>> = {
  "req/s": (v) => formatDecimal(v, 1),
  "req/min": (v) => formatDecimal(v, 0),
  VMs: (v) => formatDecimal(v, 1),
  count: (v) => formatDecimal(v, 0),
  fraction: (v) => formatPercent(v, 0),
};

export const SERIES_COLORS: ColorToken[] = ["chart-latency", "chart-throughput", "chart-model", "chart-knee", "chart-sla", "status-5xx"];
const MARK_COLORS: ColorToken[] = ["chart-knee", "chart-breaking", "chart-sla"];
/** A comparison's sides (series labelled "A: …", "B: …"): one colour family each, dashed for models. */
const SIDE_COLORS: Record<string, { solid: ColorToken; dashed: ColorToken }> = {
  "A: ": { solid: "chart-latency", dashed: "chart-model" },
  "B: ": { solid: "chart-knee", dashed: "chart-breaking" },
};

function seriesColor(chart: ReportChart, s: ReportSeries, i: number): ColorToken {
  const side = SIDE_COLORS[s.label.slice(0, 3)];
  if (side !== undefined) return s.dashed ? side.dashed : side.solid;
  const status = /^s([1-5]xx)$/.exec(s.key)?.[1];
  if (status !== undefined) return `status-${status}` as ColorToken;
  if (s.dashed && (chart.series.length === 2 ? i === 1 : chart.series.some((o) => o.points))) return "chart-model";
  return SERIES_COLORS[i % SERIES_COLORS.length] as ColorToken;
}

function markColor(label: string, i: number): ColorToken {
  if (label.startsWith("B: ") || label === "") return "chart-breaking";
  if (label.startsWith("A: ") || label.endsWith("(A, B)")) return "chart-sla";
  return MARK_COLORS[i % MARK_COLORS.length] as ColorToken;
}

function unitLabel(unit: Unit): string {
  if (unit === "cost") return "price × VM-hours";
  return unit === "fraction" ? "%" : unit;
}

interface Point {
  x: number;
  y: number;
}

function points(series: ReportSeries): Point[] {
  const out: Point[] = [];
  series.x.forEach((x, i) => {
    const y = series.y[i];
    if (typeof y === "number" && Number.isFinite(x)) out.push({ x, y });
  });
  return out.sort((a, b) => a.x - b.x);
}

/** The series' value at x: exact, linearly interpolated (or held, for a step series) inside its range, null outside. */
export function valueAt(pts: readonly Point[], x: number, step: boolean): number | null {
  const first = pts[0];
  const last = pts[pts.length - 1];
  if (first === undefined || last === undefined || x < first.x || x > last.x) return null;
  let i = 0;
  while (i + 1 < pts.length && (pts[i + 1]?.x ?? Infinity) <= x) i += 1;
  const left = pts[i] as Point;
  const right = pts[i + 1];
  if (left.x === x || right === undefined || step) return left.y;
  return left.y + ((right.y - left.y) * (x - left.x)) / (right.x - left.x);
}

function isStep(chart: ReportChart, series: ReportSeries): boolean {
  return chart.kind === "step" || (chart.kind === "bar" && !series.dashed);
}

/** A scatter's value at x: only where it has a point (never interpolated). */
function exactAt(pts: readonly Point[], x: number): number | null {
  return pts.find((p) => p.x === x)?.y ?? null;
}

/**
 * One row per x of any series (so series with different x values draw as unbroken lines);
 * a step series also gets a row just at each x holding its previous value, drawing the riser.
 * A scatter (points) series has values only at its own points.
 */
export function chartRows(chart: ReportChart): CurveRow[] {
  const all = chart.series.map((s) => ({ key: s.key, pts: points(s), step: isStep(chart, s) && !s.points, dots: s.points }));
  const xs = [...new Set(all.flatMap((s) => s.pts.map((p) => p.x)))].sort((a, b) => a - b);
  const anyStep = all.some((s) => s.step);
  const rows: CurveRow[] = [];
  xs.forEach((x, i) => {
    if (anyStep && i > 0) {
      const before: CurveRow = { x };
      for (const s of all) before[s.key] = s.dots ? null : s.step ? valueAt(s.pts, xs[i - 1] as number, true) : valueAt(s.pts, x, false);
      rows.push(before);
    }
    const row: CurveRow = { x };
    for (const s of all) row[s.key] = s.dots ? exactAt(s.pts, x) : valueAt(s.pts, x, s.step);
    rows.push(row);
  });
  return rows;
}

/** Vertical lines (marks without y) take turns for their label's place (top left, top right,
 * bottom left), so close lines such as Q_lower, USL N* and Q_upper don't overprint. */
function lineLabelPosition(chart: ReportChart, index: number): Pick<CurveMark, "labelPosition"> {
  const lines = chart.marks.filter((m) => m.y === null || m.y === undefined);
  const mark = chart.marks[index];
  if (lines.length < 2 || mark === undefined || !lines.includes(mark)) return {};
  const places = ["top", "right", "bottom"] as const;
  return { labelPosition: places[lines.indexOf(mark) % places.length] };
}

export function curveConfig(chart: ReportChart, id: string): CurveChartConfig {
  /** Beside a scatter, lines are fits and models: drawn without a dot at each point. */
  const scatter = chart.series.some((s) => s.points);
  const series: CurveSeries[] = chart.series.map((s, i) => ({
    key: s.key,
    label: s.label,
    color: seriesColor(chart, s, i),
    dashed: s.dashed,
    ...(s.points ? { points: true } : scatter ? { dots: false } : {}),
  }));
  return {
    id,
    title: chart.title,
    description: `${chart.y_label} (${unitLabel(chart.y_unit)}) against ${chart.x_label} (${unitLabel(chart.x_unit)}).`,
    xLabel: `${chart.x_label} (${unitLabel(chart.x_unit)})`,
    yLabel: `${chart.y_label} (${unitLabel(chart.y_unit)})`,
    xUnit: UNIT_FORMAT[chart.x_unit],
    yUnit: UNIT_FORMAT[chart.y_unit],
    xAxisUnit: (v) => (v === 0 ? "0" : (AXIS_FORMAT[chart.x_unit] ?? UNIT_FORMAT[chart.x_unit])(v)),
    yAxisUnit: (v) => (v === 0 ? "0" : (AXIS_FORMAT[chart.y_unit] ?? UNIT_FORMAT[chart.y_unit])(v)),
    series,
    ranges: chart.ranges.map((r, i) => ({ id: `range-${i}`, label: r.label, color: "chart-band" as const, x1: r.x1, x2: r.x2 })),
    marks: chart.marks.map((m, i) => ({
      id: `mark-${i}`,
      label: m.label,
      color: markColor(m.label, i),
      x: m.x,
      ...(m.y === null || m.y === undefined ? {} : { y: m.y }),
      ...lineLabelPosition(chart, i),
    })),
  };
}

export type TimeRow = { t: number } & Record<string, number>;

/** Wall-clock charts (x in epoch seconds): rows keyed by time in ms, missing values as 0. */
export function timeChart(chart: ReportChart, id: string): { config: TimeChartConfig<TimeRow>; rows: TimeRow[] } {
  const rows = chartRows({ ...chart, kind: "line" }).map((r) => {
    const row: TimeRow = { t: r.x * 1000 };
    for (const s of chart.series) row[s.key] = r[s.key] ?? 0;
    return row;
  });
  const config: TimeChartConfig<TimeRow> = {
    id,
    title: chart.title,
    description: `${chart.y_label} (${chart.y_unit}) over time (UTC).`,
    kind: "line",
    time: (row) => row.t,
    unit: UNIT_FORMAT[chart.y_unit],
    axisUnit: (v) => (v === 0 ? "0" : (AXIS_FORMAT[chart.y_unit] ?? UNIT_FORMAT[chart.y_unit])(v)),
    yLabel: `${chart.y_label} (${unitLabel(chart.y_unit)})`,
    series: chart.series.map((s, i) => ({ key: s.key, label: s.label, color: seriesColor(chart, s, i) })),
  };
  return { config, rows };
}

/** A share (CDF, utilisation) tops out at 100%: the y axis ends there rather than at a round
 * number above it. Undefined for other units, or when a value lies above 1. */
export function yTop(chart: ReportChart): number | undefined {
  if (chart.y_unit !== "fraction") return undefined;
  const fits = chart.series.every((s) => s.y.every((y) => typeof y !== "number" || y <= 1));
  return fits ? 1 : undefined;
}
