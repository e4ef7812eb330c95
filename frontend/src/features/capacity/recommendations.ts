/** Recommendations as one sentence each, with the number, the evidence (a chart) and a confidence. */
import type { CapacityReport } from "../../api/models";
import { formatDecimal, formatDuration, formatLatency, formatRatePerS } from "../../lib/format";
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
  /** A page to act on it (e.g. the virtual queue). */
  link?: { to: string; label: string };
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
