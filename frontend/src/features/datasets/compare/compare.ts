/** Datasets side by side: the figures each one holds, their differences from the first (the
 * baseline) in words, and their series on one time axis (by clock, or from each one's start). */
import type { ColorToken } from "../../../charts/tokens";
import type { SimSeries } from "../../../charts/simConfig";
import type { CapacityReport, ClassReport, TrafficSummary } from "../../../api/models";
import { formatCount, formatDuration, formatLatency, formatPercent, formatRatePerMin, formatRatePerS } from "../../../lib/format";

/** What one dataset brings: its summary, its latency over time, its capacity report (each may be missing). */
export interface Compared {
  id: number;
  name: string;
  summary: TrafficSummary | null;
  latencyP95: { t_ms: number[]; p95_s: (number | null)[] } | null;
  capacity: CapacityReport | null;
}

/** A figure's value, or why there is none ("not recorded": the log has no such field). */
export type Cell = { value: number; text: string } | { value: null; text: string };

export interface FigureRow {
  key: string;
  label: string;
  /** Higher is worse (latency, errors): the words of a difference say so. */
  higherIsWorse: boolean;
  cells: Cell[];
}

/** Series colours in order; a fifth dataset and later reuse them dashed. */
export const COMPARE_COLORS: ColorToken[] = ["chart-requests", "chart-knee", "chart-model", "chart-throughput"];

const NOT_RECORDED = "not recorded";
const NO_ANALYSIS = "no capacity analysis";

function cell(value: number | null | undefined, format: (v: number) => string, missing = NOT_RECORDED): Cell {
  return value === null || value === undefined || !Number.isFinite(value) ? { value: null, text: missing } : { value, text: format(value) };
}

/** The capacity report's whole-site class (every request), when an analysis has one. */
export function overallClass(report: CapacityReport | null): ClassReport | null {
  if (report === null) return null;
  return report.classes.all ?? Object.values(report.classes)[0] ?? null;
}

function figure(key: string, label: string, higherIsWorse: boolean, datasets: Compared[], pick: (d: Compared) => Cell): FigureRow {
  return { key, label, higherIsWorse, cells: datasets.map(pick) };
}

/** Every figure of the comparison, one cell per dataset. */
export function figureRows(datasets: Compared[]): FigureRow[] {
  const s = (d: Compared) => d.summary;
  const capacity = (d: Compared, get: (c: ClassReport) => number | null | undefined, format: (v: number) => string) => {
    if (d.capacity === null) return cell(null, format, NO_ANALYSIS);
    const overall = overallClass(d.capacity);
    return cell(overall === null ? null : get(overall), format, "not found");
  };
  return [
    figure("requests", "Requests", false, datasets, (d) => cell(s(d)?.request_count, formatCount)),
    figure("span", "Time span", false, datasets, (d) => cell(s(d)?.span_s, formatDuration)),
    figure("mean_rate", "Mean rate", false, datasets, (d) => cell(s(d)?.mean_rate_per_s, formatRatePerS)),
    figure("peak_rate", "Peak rate", false, datasets, (d) => cell(s(d)?.peak_rate_per_min, formatRatePerMin)),
    figure("error_rate", "Server errors (5xx)", true, datasets, (d) => cell(s(d)?.error_rate, (v) => formatPercent(v, 2))),
    figure("p50", "Latency p50", true, datasets, (d) => cell(s(d)?.latency?.p50_s, formatLatency)),
    figure("p95", "Latency p95", true, datasets, (d) => cell(s(d)?.latency?.p95_s, formatLatency)),
    figure("p99", "Latency p99", true, datasets, (d) => cell(s(d)?.latency?.p99_s, formatLatency)),
    figure("knee", "Knee load", false, datasets, (d) => capacity(d, (c) => c.knee?.load_per_s, formatRatePerS)),
    figure("sla_rate", "SLA MaxRate", false, datasets, (d) => capacity(d, (c) => c.sla?.max_rate_per_s, formatRatePerS)),
  ];
}

/** A figure's change from the baseline as a fraction (0.18 = 18% higher); null without both values. */
export function relativeChange(baseline: Cell, other: Cell): number | null {
  if (baseline.value === null || other.value === null || baseline.value === 0) return null;
  return (other.value - baseline.value) / Math.abs(baseline.value);
}

/** Differences of at least `minChange` from the baseline, the largest first, in words. */
export function differences(datasets: Compared[], rows: FigureRow[], minChange = 0.05): string[] {
  const found: { size: number; words: string }[] = [];
  for (const row of rows) {
    const base = row.cells[0];
    row.cells.slice(1).forEach((other, i) => {
      const change = base === undefined ? null : relativeChange(base, other);
      if (change === null || Math.abs(change) < minChange || base === undefined) return;
      const direction = change > 0 ? "higher" : "lower";
      const verdict = row.higherIsWorse ? (change > 0 ? " (worse)" : " (better)") : "";
      const words = `${row.label}: ${datasets[i + 1]?.name} is ${formatPercent(Math.abs(change), 0)} ${direction} than ${datasets[0]?.name} (${other.text} vs ${base.text})${verdict}.`;
      found.push({ size: Math.abs(change), words });
    });
  }
  return found.sort((a, b) => b.size - a.size).map((f) => f.words);
}

export type Alignment = "clock" | "start";

/** x of a time in ms: the time itself by clock, else hours since the dataset's first point. */
function place(alignment: Alignment, firstMs: number) {
  return (ms: number) => (alignment === "clock" ? ms : (ms - firstMs) / 3_600_000);
}

function styled(i: number): Pick<SimSeries, "color" | "dashed"> {
  return { color: COMPARE_COLORS[i % COMPARE_COLORS.length] ?? "chart-requests", dashed: i >= COMPARE_COLORS.length };
}

/** Requests per minute of each dataset. */
export function trafficSeries(datasets: Compared[], alignment: Alignment): SimSeries[] {
  return datasets.flatMap((d, i) => {
    const points = d.summary?.series ?? [];
    if (points.length === 0) return [];
    const x = place(alignment, Date.parse(points[0]?.t ?? ""));
    return [{ key: `traffic-${d.id}`, label: d.name, kind: "line" as const, ...styled(i), points: points.map((p) => ({ x: x(Date.parse(p.t)), y: p.rate_per_min })) }];
  });
}

/** The p95 latency of each dataset over time (datasets without latency have none). */
export function latencySeries(datasets: Compared[], alignment: Alignment): SimSeries[] {
  return datasets.flatMap((d, i) => {
    const columns = d.latencyP95;
    if (columns === null || columns.t_ms.length === 0) return [];
    const x = place(alignment, columns.t_ms[0] ?? 0);
    const points = columns.t_ms.map((t, j) => ({ x: x(t), y: columns.p95_s[j] ?? null }));
    return [{ key: `p95-${d.id}`, label: d.name, kind: "line" as const, ...styled(i), points }];
  });
}

/** Each dataset's knee curve: latency against load, as measured. */
export function kneeSeries(datasets: Compared[]): SimSeries[] {
  return datasets.flatMap((d, i) => {
    const curve = overallClass(d.capacity)?.curve.filter((p) => p.source === "measured") ?? [];
    if (curve.length === 0) return [];
    return [{ key: `knee-${d.id}`, label: d.name, kind: "line" as const, ...styled(i), points: curve.map((p) => ({ x: p.load_per_s, y: p.latency_s })) }];
  });
}

/** The ids in the URL (?ids=3,7): positive integers, each once, in the order given. */
export function idsFromSearch(value: string | null): number[] {
  const ids = (value ?? "").split(",").map((s) => Number(s.trim()));
  return [...new Set(ids.filter((id) => Number.isInteger(id) && id > 0))];
}
