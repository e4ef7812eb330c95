/** Charts built from the run and sweep result documents (their types: results.ts). */
import type { ColorToken } from "../../../charts/tokens";
import { niceTicks } from "../../../charts/curveConfig";
import { formatDecimal, formatLatency, formatPercent } from "../../../lib/format";
import { axisTop, decadeTicks, formatSimClock, roundTicks, timeTicksS, wantsLogAxis, type SimChartConfig, type SimSeries, type XY } from "../../../charts/simConfig";
import type { Cdf, RunDocument, SweepDocument } from "../results";

export function asRun(result: unknown): RunDocument | null {
  return typeof result === "object" && result !== null && (result as { kind?: unknown }).kind === "run" ? (result as RunDocument) : null;
}

export function asSweep(result: unknown): SweepDocument | null {
  return typeof result === "object" && result !== null && (result as { kind?: unknown }).kind === "sweep" ? (result as SweepDocument) : null;
}

/** Colours for runs drawn on one chart, in order. */
export const RUN_COLORS: ColorToken[] = ["chart-requests", "chart-knee", "chart-throughput", "chart-model", "chart-breaking", "chart-sla", "status-3xx", "status-1xx"];

export const runColor = (i: number): ColorToken => RUN_COLORS[i % RUN_COLORS.length] ?? "chart-requests";

/** A time in seconds for axes and tooltips: "0", "100 ns", "2.5 ms", "14 s". */
export function formatTimeS(seconds: number): string {
  if (seconds === 0) return "0";
  if (seconds > 0 && seconds < 1e-6) return `${formatDecimal(seconds * 1e9, 0)} ns`;
  return formatLatency(seconds);
}

const zip = (xs: number[], ys: (number | null)[]): XY[] => xs.map((x, i) => ({ x, y: ys[i] ?? null }));

/** The model prices a run as VM-hours × the cluster's price per VM-hour (no currency: the scenario's
 * own price unit). The cost's unit, and how it was reached, e.g. "370.4 VM·h × 1 per VM·h". */
export function costParts(cost: number | null | undefined, hours: number | null | undefined): { value: string; unit: string; hint: string } {
  if (cost == null) return { value: "—", unit: "", hint: "not recorded for this run" };
  const vmHours = hours ?? 0;
  const price = vmHours > 0 ? cost / vmHours : 0;
  const priceText = formatDecimal(price, Number.isInteger(Math.round(price * 100) / 100) ? 0 : 2);
  return { value: formatDecimal(cost, 2), unit: "price units", hint: `${formatDecimal(vmHours, 1)} VM·h × ${priceText} per VM·h` };
}

export const formatVms = (v: number) => `${formatDecimal(v, 1)} VMs`;
export const formatRate = (v: number) => `${formatDecimal(v, v < 10 ? 2 : 1)}/s`;

export function timeAxis(endS: number) {
  return { label: "simulated time (h:min)", format: (s: number) => formatSimClock(s, endS < 3600), ticks: timeTicksS(endS), domain: [0, endS] as [number, number] };
}

export const endOf = (doc: RunDocument) => doc.vm_steps.t_s[doc.vm_steps.t_s.length - 1] ?? 0;

/** Allocated and active VMs as step lines over the arrival rate, each scaling action marked. */
export function stepFunctionChart(doc: RunDocument): { config: SimChartConfig; series: SimSeries[] } {
  const steps = doc.vm_steps;
  const ups = doc.actions.filter((a) => a.to_vms > a.from_vms);
  const downs = doc.actions.filter((a) => a.to_vms < a.from_vms);
  return {
    config: {
      id: "chart-step-function",
      title: "Autoscaling step function",
      description: `Allocated and active VMs (steps, left axis) against the request arrival rate (averaged over ${formatDecimal(doc.rates.bucket_s, 1)} s, right axis); dots mark scaling actions.`,
      x: timeAxis(endOf(doc)),
      y: { label: "VMs", format: (v) => formatDecimal(v, 0) },
      y2: { label: "arrivals (requests/s)", format: formatRate },
    },
    series: [
      { key: "arrivals", label: "Arrival rate (requests/s)", color: "chart-band", kind: "line", axis: "right", points: zip(doc.rates.t_s, doc.rates.arrivals_per_s) },
      { key: "allocated", label: "Allocated VMs", color: "chart-knee", kind: "step", points: zip(steps.t_s, steps.allocated_vms) },
      { key: "active", label: "Active VMs (dashed)", color: "chart-requests", kind: "step", dashed: true, points: zip(steps.t_s, steps.active_vms) },
      { key: "up", label: `Scale out (${ups.length})`, color: "chart-breaking", kind: "points", points: ups.map((a) => ({ x: a.t_s, y: a.to_vms })) },
      { key: "down", label: `Scale in (${downs.length})`, color: "chart-throughput", kind: "points", points: downs.map((a) => ({ x: a.t_s, y: a.to_vms })) },
    ],
  };
}

export function utilizationChart(doc: RunDocument): { config: SimChartConfig; series: SimSeries[] } {
  return {
    config: {
      id: "chart-utilization",
      title: "Utilisation over time",
      description: `Mean busy fraction of the active VMs' cores, averaged and maximum per ${formatDecimal(doc.rates.bucket_s, 1)} s.`,
      x: timeAxis(endOf(doc)),
      y: { label: "utilisation", format: (v) => formatPercent(v, 0), domain: [0, 1] },
    },
    series: [
      { key: "max", label: "Maximum", color: "chart-band", kind: "line", points: zip(doc.rates.t_s, doc.rates.utilization_max) },
      { key: "mean", label: "Mean", color: "chart-requests", kind: "line", points: zip(doc.rates.t_s, doc.rates.utilization) },
    ],
  };
}

/** Latency (PLT with pages) percentiles per SLA window: p50, the SLA's percentile and p99, with the
 * SLA threshold; runs stored before p50/p99 were kept show the SLA percentile alone. */
export function windowLatencyChart(doc: RunDocument, slaThresholdS: number | null): { config: SimChartConfig; series: SimSeries[] } {
  const w = doc.series;
  const what = doc.summary.pages > 0 ? "page load time" : "latency";
  const p = w.window_percentile ?? 95;
  const pLabel = `p${formatDecimal(p, Number.isInteger(p) ? 0 : 1)}`;
  const violated = w.window_t_s.flatMap((t, i) => (w.window_violated[i] === true ? [{ x: t, y: w.window_p95_latency_s[i] ?? null }] : []));
  const extra = (key: string, label: string, values: (number | null)[] | null | undefined, color: SimSeries["color"], dashed: boolean): SimSeries[] =>
    values === null || values === undefined || p === Number(key.slice(1)) ? [] : [{ key, label: `${label} ${what}`, color, kind: "line", dashed, points: zip(w.window_t_s, values) }];
  const hasAll = w.window_p50_latency_s != null && w.window_p99_latency_s != null;
  // the axis reaches the SLA line even when every window is far below it; a few spikes far above
  // the rest clip the axis (marked at its top) instead of flattening every other window
  const drawn = [...w.window_p95_latency_s, ...(w.window_p99_latency_s ?? [])].filter((v): v is number => v !== null && Number.isFinite(v));
  const { top, clipped } = axisTop(drawn, slaThresholdS ?? 0);
  const above = clipped
    ? w.window_t_s.flatMap((t, i) => {
        const highest = Math.max(w.window_p95_latency_s[i] ?? 0, w.window_p99_latency_s?.[i] ?? 0);
        return highest > top ? [{ x: t, y: top }] : [];
      })
    : [];
  return {
    config: {
      id: "chart-window-latency",
      title: `${hasAll ? "Percentiles of the" : pLabel} ${what} per ${formatDecimal(w.window_s, 0)} s window`,
      description: `${hasAll ? `The median, ${pLabel} (the SLA's percentile) and p99` : `The ${pLabel}`} of the ${what}s completed in each window; red dots are windows that violate the SLA.${clipped ? ` The axis stops at ${formatTimeS(top)} so that a few spikes do not flatten the other windows; dots on its top edge mark the windows above it.` : ""}`,
      x: timeAxis(endOf(doc)),
      y: { label: what, format: formatTimeS, ...(top > 0 ? { domain: [0, top] as [number, number], ticks: roundTicks(0, top) } : {}) },
      refLines: slaThresholdS === null ? [] : [{ key: "sla", label: `SLA ${formatLatency(slaThresholdS)}`, color: "chart-sla", y: slaThresholdS }],
    },
    series: [
      ...extra("p50", "p50", w.window_p50_latency_s, "chart-model", true),
      { key: "p95", label: `${pLabel} ${what}`, color: "chart-latency", kind: "line", points: zip(w.window_t_s, w.window_p95_latency_s) },
      ...extra("p99", "p99", w.window_p99_latency_s, "chart-throughput", false),
      { key: "violated", label: `Violated windows (${violated.length})`, color: "chart-breaking", kind: "points", points: violated.filter((p) => (p.y ?? 0) <= top) },
      ...(above.length > 0 ? [{ key: "above", label: `Above the axis top (${above.length}), drawn at its edge`, color: "chart-sla" as const, kind: "points" as const, points: above }] : []),
    ],
  };
}

export interface CdfRun {
  label: string;
  cdf: Cdf;
}

/** Several runs' CDFs on one chart; log time axis when the values span over two decades. */
export function cdfChart(id: string, what: string, runs: CdfRun[]): { config: SimChartConfig; series: SimSeries[] } {
  const xs = runs.flatMap((r) => r.cdf.x_s).filter((x) => x > 0);
  const low = Math.min(...xs);
  const high = Math.max(...xs);
  const medians = runs.flatMap((r) => {
    const i = r.cdf.fraction.findIndex((f) => f >= 0.5);
    const m = i < 0 ? undefined : r.cdf.x_s[i];
    return m === undefined || !(m > 0) ? [] : [m];
  });
  const log = wantsLogAxis(xs, medians.length > 0 ? Math.min(...medians) : null);
  return {
    config: {
      id,
      title: `${what} CDF`,
      description: `Share of ${what === "PLT" ? "pages loaded" : "requests answered"} within a given time${runs.length > 1 ? ", one line per run" : ""} (from the run's quantile sketch, < 0.5% relative error).`,
      x: log ? { label: `${what} (log scale)`, format: formatTimeS, scale: "log", ticks: decadeTicks(low, high), domain: [Number(`1e${Math.floor(Math.log10(low))}`), Number(`1e${Math.ceil(Math.log10(high))}`)] } : { label: what, format: formatTimeS, ticks: niceTicks(high), domain: [0, niceTicks(high).at(-1) ?? 1] },
      y: { label: "share ≤ x", format: (v) => formatPercent(v, 0), domain: [0, 1], ticks: [0, 0.25, 0.5, 0.75, 0.95, 1] },
    },
    series: runs.map((r, i) => ({ key: `run${i}`, label: r.label, color: runColor(i), kind: "step", points: zip(r.cdf.x_s, r.cdf.fraction) })),
  };
}

/** Utilisation quartiles per allocated-VM count: the median, with the first and third quartiles
 * dashed around it (the min-max range spans nearly 0-100% at every count and says little). */
export function utilizationByVmsChart(doc: RunDocument): { config: SimChartConfig; series: SimSeries[] } {
  const boxes = [...doc.utilization_boxes].sort((a, b) => a.allocated_vms - b.allocated_vms);
  const maxVms = Math.max(1, ...boxes.map((b) => b.allocated_vms));
  const minVms = Math.min(maxVms, ...boxes.map((b) => b.allocated_vms));
  const ticks = roundTicks(Math.max(0, minVms - 1), maxVms + 1, 8).filter((t) => Number.isInteger(t));
  const line = (key: "q1" | "median" | "q3", label: string, color: SimSeries["color"], dashed: boolean): SimSeries => ({
    key,
    label,
    color,
    kind: "line",
    dashed,
    points: boxes.map((b) => ({ x: b.allocated_vms, y: b[key] })),
  });
  return {
    config: {
      id: "chart-utilization-by-vms",
      title: "Utilisation by allocated VMs",
      description: "Per-tick VM utilisation grouped by how many VMs were allocated: the median, and the first and third quartiles (half of the ticks lie between the dashed lines).",
      x: { label: "allocated VMs", format: (v) => formatDecimal(v, 0), domain: [Math.max(0, minVms - 1), maxVms + 1], ticks },
      y: { label: "utilisation", format: (v) => formatPercent(v, 0), domain: [0, 1], ticks: [0, 0.25, 0.5, 0.75, 1] },
    },
    series: [line("q3", "Third quartile", "chart-band", true), line("median", "Median", "chart-requests", false), line("q1", "First quartile", "chart-model", true)],
  };
}
