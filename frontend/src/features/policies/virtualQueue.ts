/** The virtual queue page (docs/methods/admission.md): a scenario run with a discovering virtual queue and
 * without any stage; the discovery, wait, load and response-time charts and the recommendation. */
import type { ColorToken } from "../../charts/tokens";
import { formatDecimal, formatDuration, formatLatency, formatRatePerS } from "../../lib/format";
import type { QueueFigures, QueueSeries, RunDocument } from "../simulations/results";
import type { Scenario } from "../simulations/scenarioDoc";
import { decadeTicks, formatSimClock, ticksCovering, timeTicksS, type SimChartConfig, type SimSeries, type XY } from "../../charts/simConfig";

export const PHASES = ["coarse", "stabilise", "fine", "monitor"] as const;
export type Phase = (typeof PHASES)[number];

export const PHASE_LABELS: Record<Phase, string> = {
  coarse: "Coarse (geometric probing)",
  stabilise: "Stabilise",
  fine: "Fine (linear probing)",
  monitor: "Converged (monitoring)",
};

export const PHASE_COLORS: Record<Phase, ColorToken> = {
  coarse: "status-4xx",
  stabilise: "chart-band",
  fine: "status-3xx",
  monitor: "status-2xx",
};

export function queueSeries(doc: RunDocument | null): QueueSeries | null {
  const s = doc?.admission_series;
  return s?.kind === "virtual_queue" ? s : null;
}

export function queueSummary(doc: RunDocument | null): QueueFigures | null {
  const a = doc?.admission;
  return a !== null && a !== undefined && "wait_s" in a ? a : null;
}

/** The scenario with a discovering virtual queue in front of it (the other fields at their defaults). */
export function withQueue(scenario: Scenario, maxWaitS: number): Scenario {
  return { ...scenario, admission: { policy: "virtual_queue", capacity: "discover", max_wait_s: maxWaitS } };
}

/** The same scenario without any admission stage. */
export function withoutStage(scenario: Scenario): Scenario {
  return { ...scenario, admission: { policy: "none" } };
}

/** Consecutive epochs of one phase as [start, end) spans of simulated time. */
export function phaseSpans(s: QueueSeries): { phase: Phase; x1: number; x2: number }[] {
  const spans: { phase: Phase; x1: number; x2: number }[] = [];
  const epoch = s.epoch_t_s.length > 1 ? (s.epoch_t_s[1] ?? 0) - (s.epoch_t_s[0] ?? 0) : (s.epoch_t_s[0] ?? 0);
  s.epoch_t_s.forEach((end, i) => {
    const phase = (PHASES as readonly string[]).includes(s.epoch_phase[i] ?? "") ? (s.epoch_phase[i] as Phase) : "coarse";
    const last = spans[spans.length - 1];
    if (last !== undefined && last.phase === phase) last.x2 = end;
    else spans.push({ phase, x1: end - epoch, x2: end });
  });
  return spans;
}

const zip = (xs: number[], ys: (number | null)[]): XY[] => xs.map((x, i) => ({ x, y: ys[i] ?? null }));

function timeAxis(endS: number): SimChartConfig["x"] {
  return { label: "simulated time (h:min:s)", format: (s) => formatSimClock(s, true), ticks: timeTicksS(endS), domain: [0, endS] };
}

const rate = (v: number) => `${formatDecimal(v, v < 10 ? 1 : 0)}/s`;

/** Probed rate per epoch (step), goodput, and the estimate once converged; phases shaded by the chart. */
export function discoveryChart(s: QueueSeries, endS: number): { config: SimChartConfig; series: SimSeries[] } {
  return {
    config: {
      id: "chart-discovery",
      title: "Capacity discovery",
      description: "The rate the shaper admitted in each epoch (the probe), the goodput measured, and the capacity estimate once discovery converged; the background shows the phase.",
      x: timeAxis(endS),
      y: { label: "requests/s", format: rate },
    },
    series: [
      { key: "probe", label: "Probed rate", color: "chart-requests", kind: "step", points: zip(s.epoch_t_s.map((t, i) => t - epochLength(s, i)), s.epoch_rate_per_s) },
      { key: "goodput", label: "Goodput", color: "chart-throughput", kind: "line", points: zip(s.epoch_t_s, s.epoch_goodput_per_s) },
      { key: "estimate", label: "Capacity estimate", color: "chart-knee", kind: "line", dashed: true, points: zip(s.epoch_t_s, s.epoch_estimate_per_s) },
    ],
  };
}

function epochLength(s: QueueSeries, i: number): number {
  const prev = i === 0 ? 0 : (s.epoch_t_s[i - 1] ?? 0);
  return (s.epoch_t_s[i] ?? 0) - prev;
}

/** Whole minutes on the wait axis once waits pass two minutes (the default ticks fall between). */
export function waitTicks(s: QueueSeries): { domain?: [number, number]; ticks?: number[] } {
  const top = Math.max(0, ...s.wait_max_s.map((v) => v ?? 0));
  if (top <= 120) return {};
  const ticks = ticksCovering(0, Math.ceil(top / 60)).map((m) => m * 60);
  return { domain: [0, ticks[ticks.length - 1] ?? top], ticks };
}

/** A wait for an axis: seconds up to two minutes, then minutes. */
export function formatWait(seconds: number): string {
  return seconds < 120 ? `${formatDecimal(seconds, 0)} s` : `${formatDecimal(seconds / 60, seconds < 600 ? 1 : 0)} min`;
}

/** Mean and longest wait told to the requests arriving in each bucket. */
export function waitChart(s: QueueSeries, endS: number): { config: SimChartConfig; series: SimSeries[] } {
  return {
    config: {
      id: "chart-waits",
      title: "Waits told to arriving users",
      description: `Mean and longest wait given to the requests arriving in each ${formatDuration(s.bucket_s)} (a request comes back after its wait instead of queueing in the server).`,
      x: timeAxis(endS),
      y: { label: "wait", format: formatWait, ...waitTicks(s) },
    },
    series: [
      { key: "max", label: "Longest wait", color: "chart-breaking", kind: "line", points: zip(s.bucket_t_s, s.wait_max_s) },
      { key: "mean", label: "Mean wait", color: "chart-latency", kind: "line", points: zip(s.bucket_t_s, s.wait_mean_s) },
    ],
  };
}

/** Offered load against the load the queue released to the server (and any dropped). */
export function loadChart(s: QueueSeries, endS: number): { config: SimChartConfig; series: SimSeries[] } {
  const dropped = s.second_dropped.some((v) => v > 0);
  return {
    config: {
      id: "chart-offered-admitted",
      title: "Offered and admitted load",
      description: `Requests arriving per second and requests the queue released to the server per second (means over ${formatDuration(s.bucket_s)}).`,
      x: timeAxis(endS),
      y: { label: "requests/s", format: rate },
    },
    series: [
      { key: "offered", label: "Offered", color: "chart-band", kind: "line", points: zip(s.bucket_t_s, s.second_offered) },
      { key: "admitted", label: "Admitted to the server", color: "chart-requests", kind: "line", points: zip(s.bucket_t_s, s.second_admitted) },
      ...(dropped ? [{ key: "dropped", label: "Dropped (wait beyond the maximum)", color: "chart-breaking" as const, kind: "line" as const, points: zip(s.bucket_t_s, s.second_dropped) }] : []),
    ],
  };
}

/** The SLA windows' p95 response time of both runs, on a log axis (without the queue it explodes). */
export function responseChart(queued: RunDocument, bare: RunDocument, endS: number, slaS: number | null): { config: SimChartConfig; series: SimSeries[] } {
  const values = [queued, bare].flatMap((d) => d.series.window_p95_latency_s.flatMap((v) => (v !== null && v > 0 ? [v] : [])));
  const low = Math.min(...values, slaS ?? Infinity);
  const high = Math.max(...values, slaS ?? 0);
  const ticks = Number.isFinite(low) && high > 0 ? decadeTicks(low, high) : [];
  return {
    config: {
      id: "chart-response-compare",
      title: "Response time with and without the queue",
      description: `p95 response time per ${formatDuration(queued.series.window_s)} window (after the wait, with the queue). Log scale.`,
      x: timeAxis(endS),
      y: { label: "p95 response time", format: formatLatency, scale: "log", domain: ticks.length > 1 ? [ticks[0] ?? 1e-3, ticks[ticks.length - 1] ?? 1] : undefined, ticks: ticks.length > 1 ? ticks : undefined },
      refLines: slaS === null ? [] : [{ key: "sla", label: `SLA ${formatLatency(slaS)}`, color: "chart-sla", y: slaS }],
    },
    series: [
      { key: "bare", label: "Without the queue", color: "chart-breaking", kind: "line", points: positive(zip(bare.series.window_t_s, bare.series.window_p95_latency_s)) },
      { key: "queued", label: "With the virtual queue", color: "chart-throughput", kind: "line", points: positive(zip(queued.series.window_t_s, queued.series.window_p95_latency_s)) },
    ],
  };
}

/** A log axis cannot show 0: an empty window is a gap. */
const positive = (points: XY[]): XY[] => points.map((p) => (p.y !== null && p.y > 0 ? p : { ...p, y: null }));

/** "a virtual queue with capacity C keeps response time under X; the longest wait at your peak would be W". */
export function recommendation(queued: RunDocument): { text: string; converged: boolean } {
  const a = queueSummary(queued);
  const c = a?.capacity_estimate_per_s ?? null;
  const x = queued.summary.latency_s.p95;
  const w = a?.wait_s.max ?? null;
  if (c === null) {
    return { converged: false, text: `Capacity discovery did not converge in this run (the offered load must stay above the probed rate long enough): run it longer or with more load. p95 response time was ${formatLatency(x)}.` };
  }
  return { converged: true, text: `A virtual queue with capacity ${formatRatePerS(c)} keeps response time under ${formatLatency(x)}; the longest wait at your peak would be ${formatDuration(w)}.` };
}
