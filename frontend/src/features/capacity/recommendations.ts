/** Recommendations as one sentence each, with the number, the evidence (a chart) and a confidence. */
import type { CapacityReport } from "../../api/models";
import { formatDecimal, formatDuration, formatLatency, formatPercent, formatRatePerS } from "../../lib/format";
import type { SctServer } from "./sctReport";
import { percentileLabel } from "./capacityCharts";
import { serversNeeded, slaCurve, slaFigures } from "./slaMath";

export type Confidence = "measured" | "model" | "lower bound" | "weak fit";

export interface Recommendation {
  id: string;
  className: string;
  text: string;
  confidence: Confidence;
  /** The chart that shows the evidence. */
  chart: "knee-chart" | "throughput-chart" | "power";
  /** A page to act on it (e.g. the virtual queue); `state` goes with the navigation (a scenario to start from). */
  link?: { to: string; label: string; state?: unknown };
}

function classRecommendations(
  name: string,
  report: CapacityReport,
  percentile: number,
  thresholdS: number,
): Recommendation[] {
  const cls = report.classes[name];
  if (cls === undefined || cls.curve.length === 0) return [];
  const f = slaFigures(slaCurve(cls.curve), thresholdS);
  const p = percentileLabel(percentile);
  const where = report.per_server ? "each server" : "the site";
  const lastMeasured = Math.max(0, ...cls.curve.filter((c) => c.source === "measured").map((c) => c.load_per_s));
  const confidence: Confidence = f.capped ? "lower bound" : f.rate_per_s > lastMeasured + 1e-9 ? "model" : "measured";
  const prefix = Object.keys(report.classes).length > 1 ? `${name}: ` : "";
  if (f.rate_per_s <= 0) {
    return [
      {
        id: `${name}-none`,
        className: name,
        text: `${prefix}No observed load holds ${p} under ${formatLatency(thresholdS)}; raise the threshold or make requests faster.`,
        confidence: "measured",
        chart: "knee-chart",
      },
    ];
  }
  const recs: Recommendation[] = [
    {
      id: `${name}-rate`,
      className: name,
      text: `${prefix}Keep ${where} under ${formatRatePerS(f.rate_per_s)} to hold ${p} under ${formatLatency(thresholdS)}.`,
      confidence,
      chart: "knee-chart",
    },
    {
      id: `${name}-conn`,
      className: name,
      text: `${prefix}Cap ${where} at ${formatDecimal(f.max_conn, 1)} concurrent connections to hold that target.`,
      confidence,
      chart: "knee-chart",
    },
  ];
  const servers = serversNeeded(cls.peak_load_per_s, 1, f.rate_per_s);
  if (servers !== null) {
    const plural = servers === 1 ? "server" : "servers";
    recs.push({
      id: `${name}-servers`,
      className: name,
      text: `${prefix}Run ${servers} ${plural} to serve the observed peak of ${formatRatePerS(cls.peak_load_per_s)} within the target.`,
      confidence,
      chart: "knee-chart",
    });
  }
  return recs;
}

/** The recommendations for every class at its current threshold, then the power-ratio capacity. */
export function recommendations(
  report: CapacityReport,
  percentile: number,
  thresholds: Record<string, number>,
): Recommendation[] {
  const recs = Object.keys(report.classes).flatMap((name) => {
    const t = thresholds[name];
    return t === undefined ? [] : classRecommendations(name, report, percentile, t);
  });
  if (report.capacity !== null) {
    recs.push({
      id: "power",
      className: "",
      text: `Throughput per unit of latency peaks at ${formatRatePerS(report.capacity.power_peak_load_per_s)} (power ratio, R² ${formatDecimal(report.capacity.r2, 2)}): beyond it, extra load costs more latency than it adds throughput.`,
      confidence: report.capacity.r2 >= 0.8 ? "measured" : "weak fit",
      chart: "power",
    });
  }
  recs.push(...classPolicyRecommendation(report, percentile, thresholds), ...backgroundRecommendation(report));
  const vq = report.virtual_queue;
  if (vq != null) {
    recs.push({
      id: "virtual-queue",
      // X is read off the all-requests knee curve (C comes from the power ratio above)
      className: "all" in report.classes ? "all" : "",
      text: `A virtual queue with capacity ${formatRatePerS(vq.capacity_per_s)} keeps response time under ${formatLatency(vq.latency_s)} (${percentileLabel(vq.percentile)}); the longest wait at your peak would be ${formatDuration(vq.max_wait_s)}.`,
      confidence: vq.latency_source === "beyond the curve" ? "lower bound" : vq.latency_source,
      chart: "knee-chart",
      link: { to: "/policies/virtual-queue", label: "Try a virtual queue" },
    });
  }
  return recs;
}

/** Classes whose SLA limits differ at least this much (tighter / looser rate) call for admission by class. */
const CLASS_GAP = 0.8;

/** When two or more request classes have SLA limits and they differ, admission by class protects the
 * tighter one under overload (docs/methods/admission.md: SwitchAdm, StaticPart, DynamicPart). */
export function classPolicyRecommendation(report: CapacityReport, percentile: number, thresholds: Record<string, number>): Recommendation[] {
  const limits = Object.entries(report.classes).flatMap(([name, cls]) => {
    const t = thresholds[name];
    if (name === "all" || t === undefined || cls.curve.length === 0) return [];
    const f = slaFigures(slaCurve(cls.curve), t);
    return f.rate_per_s > 0 ? [{ name, thresholdS: t, rate: f.rate_per_s, capped: f.capped, peak: cls.peak_load_per_s }] : [];
  });
  if (limits.length < 2) return [];
  const sorted = [...limits].sort((a, b) => a.rate - b.rate);
  const tight = sorted[0];
  const loose = sorted[sorted.length - 1];
  if (tight === undefined || loose === undefined || tight.rate > CLASS_GAP * loose.rate) return [];
  const p = percentileLabel(percentile);
  return [
    {
      id: "class-policies",
      className: tight.name,
      text: `${tight.name} requests hold ${p} under ${formatLatency(tight.thresholdS)} only up to ${formatRatePerS(tight.rate)}, ${loose.name} up to ${formatRatePerS(loose.rate)}${loose.thresholdS === tight.thresholdS ? "" : ` (under ${formatLatency(loose.thresholdS)})`}: admission by class (SwitchAdm, StaticPart, DynamicPart) keeps ${tight.name} within its SLA when load passes ${formatRatePerS(tight.rate)}.`,
      confidence: tight.capped || loose.capped ? "lower bound" : "model",
      chart: "knee-chart",
      link: { to: "/policies/classes", label: "Compare class policies" },
    },
  ];
}

/** Below this mean share of the capacity in use, idle capacity is worth harvesting. */
const IDLE_UTILIZATION = 0.6;

/** The time-weighted mean load of the measured windows (each curve point is a load bin of `windows` windows). */
export function meanLoadPerS(report: CapacityReport): number | null {
  const points = (report.classes.all?.curve ?? []).filter((c) => c.source === "measured" && (c.windows ?? 0) > 0);
  const windows = points.reduce((n, c) => n + (c.windows ?? 0), 0);
  return windows > 0 ? points.reduce((sum, c) => sum + c.load_per_s * (c.windows ?? 0), 0) / windows : null;
}

/** When the mean load uses little of the power-ratio capacity, background work can use the rest (docs/methods/concurrency.md). */
export function backgroundRecommendation(report: CapacityReport): Recommendation[] {
  const capacity = report.capacity?.power_peak_load_per_s;
  const mean = meanLoadPerS(report);
  if (capacity === undefined || !(capacity > 0) || mean === null) return [];
  const used = mean / capacity;
  if (used >= IDLE_UTILIZATION) return [];
  const peak = report.classes.all?.peak_load_per_s;
  const peakText = peak !== undefined && peak < capacity ? `, and even the peak of ${formatRatePerS(peak)} leaves ${formatPercent(1 - peak / capacity, 0)}` : "";
  return [
    {
      id: "background",
      className: "",
      text: `The mean load of ${formatRatePerS(mean)} uses ${formatPercent(used, 0)} of the ${formatRatePerS(capacity)} capacity (power-ratio peak)${peakText}: background work can take the idle ${formatPercent(1 - used, 0)} with a reservation that yields to the foreground.`,
      confidence: report.capacity !== null && report.capacity.r2 >= 0.8 ? "measured" : "weak fit",
      chart: "power",
      link: { to: "/policies/background", label: "Plan background work" },
    },
  ];
}

/** docs/methods/concurrency.md: SCT found this server's best pool size; concurrency-aware scaling re-derives it after
 * every scaling action. The link opens the editor on a three-tier scenario with this server as the db. */
export function sctRecommendation(name: string, server: SctServer): Recommendation | null {
  const q = server.q_lower;
  const tp = server.tp_max_per_s;
  if (q === null || q < 1 || tp === null || !(tp > 0)) return null;
  const range = server.q_upper === null ? `${q} and above (no decline seen)` : `${q}–${server.q_upper}`;
  return {
    id: `sct-${name}`,
    className: name,
    text: `SCT puts ${name}'s best pool size at ${q} concurrent requests (rational range ${range}, ${formatRatePerS(tp)} at the peak): concurrency-aware scaling resets the pools in front of it to this size after every scale-out, where hardware-only scaling lets them grow past it.`,
    confidence: server.warnings.length > 0 ? "weak fit" : "measured",
    chart: "throughput-chart",
    link: { to: "/simulations/new", label: "Simulate concurrency-aware scaling", state: { scenario: concurrencyScenario(name, q, server.q_upper, tp) } },
  };
}

/** app -> the analysed server (renamed "db" when it is called "app"): a PS server that peaks at `q`
 * concurrent requests and `tpPerS` (q cores, each request q / tp s), slowing down past `qUpper`; app VMs
 * of one core, 10 ms a request, scaled 0.4–0.75; load a quarter of the peak with a five-minute spike to
 * 0.8 of it, as in data/profiles/three_tier_big_spike.yaml. Set the policy to threshold to compare. */
export function concurrencyScenario(server: string, q: number, qUpper: number | null, tpPerS: number) {
  const name = server === "app" ? "db" : server;
  const round = (x: number) => Number(x.toPrecision(3));
  const appS = 0.01;
  return {
    name: `concurrency-aware scaling in front of ${server} (pool ${q})`,
    duration_s: 3600,
    seed: 1,
    workload: {
      arrivals: { profile: [[0, round(0.25 * tpPerS)], [1200, round(0.8 * tpPerS)], [1500, round(0.25 * tpPerS)]] },
      service_s: { dist: "exponential", mean: appS },
    },
    cluster: {
      tiers: [
        { name: "app", vms: { min: 1, max: Math.min(4096, Math.max(4, Math.ceil((0.8 * tpPerS * appS) / 0.5))), start: Math.max(1, Math.ceil((0.25 * tpPerS * appS) / 0.6)) }, pool_limit: q, boot_s: 30 },
        { name, cores: q, service_s: { dist: "exponential", mean: round(q / tpPerS) }, ...(qUpper === null ? {} : { overhead: { q_upper: qUpper, factor: 0.97 } }) },
      ],
    },
    autoscaling: { policy: "concurrency_aware", tier: "app", lower: 0.4, upper: 0.75, time_steps: 1, step_s: 15, cooldown_s: 30, sct_interval_s: 0.5, sct_window_s: 180 },
    sla: { threshold_s: 1, window_s: 10 },
  };
}
