/** Chart configs of the SCT scatter: throughput and response time against concurrency. */
import type { CurveChartConfig, CurveMark, CurveRange, CurveRow } from "../../charts/curveConfig";
import { formatDecimal, formatLatency, formatRatePerS } from "../../lib/format";
import { trendAt, uslThroughput, type SctServer } from "./sctReport";

const formatLevel = (n: number) => `${formatDecimal(n, 0)} in flight`;

/** One row per observed level: the measured mean TP, the three-stage trend and the USL curve. */
export function throughputRows(s: SctServer): CurveRow[] {
  return s.levels.map((l) => ({
    x: l.n,
    tp: l.throughput_per_s,
    trend: trendAt(s.trend, l.n),
    usl: s.usl === null ? null : uslThroughput(s.usl, l.n),
  }));
}

export function responseRows(s: SctServer): CurveRow[] {
  return s.levels.map((l) => ({ x: l.n, rt: l.response_s }));
}

/** The rational range [Q_lower, Q_upper] (to the highest level when no decline was seen). */
export function rationalRange(s: SctServer): CurveRange[] {
  if (s.q_lower === null) return [];
  const upper = s.q_upper ?? s.q_max_observed ?? s.q_lower;
  const label = s.q_upper === null ? "rational range (no decline seen)" : "rational range";
  return [{ id: "rational", label, color: "chart-band", x1: s.q_lower, x2: upper }];
}

function marks(s: SctServer, withUsl: boolean): CurveMark[] {
  const out: CurveMark[] = [];
  if (s.q_lower !== null) out.push({ id: "q-lower", label: `Q_lower ${s.q_lower}: pool size`, color: "chart-knee", x: s.q_lower });
  if (s.q_upper !== null) out.push({ id: "q-upper", label: `Q_upper ${s.q_upper}`, color: "chart-breaking", x: s.q_upper, labelPosition: "right" });
  const nStar = s.usl?.n_star;
  if (withUsl && nStar !== null && nStar !== undefined && nStar <= (s.q_max_observed ?? 0)) {
    out.push({ id: "n-star", label: `USL N* ${formatDecimal(nStar, 1)}`, color: "chart-model", x: nStar, labelPosition: "bottom" });
  }
  return out;
}

export function throughputConfig(name: string, s: SctServer): CurveChartConfig {
  const withUsl = s.usl?.lambda_per_s !== undefined;
  return {
    id: "sct-throughput-chart",
    title: `Throughput against concurrency — ${name}`,
    description:
      "Dots: the mean throughput of the intervals at each concurrency level. Line: the three-stage fit (ascending, stable, descending). " +
      (withUsl ? "Dashed: the Universal Scalability Law fitted to the same levels. " : "") +
      "Shaded: the rational range of pool sizes.",
    xLabel: "concurrency (requests in the server)",
    yLabel: "throughput (req/s)",
    xUnit: formatLevel,
    yUnit: formatRatePerS,
    xAxisUnit: (v) => formatDecimal(v, 0),
    yAxisUnit: (v) => formatDecimal(v, 0),
    series: [
      { key: "tp", label: "measured mean", color: "chart-throughput", points: true },
      { key: "trend", label: "three-stage fit", color: "chart-knee", dots: false },
      ...(withUsl ? [{ key: "usl", label: "USL model", color: "chart-model" as const, dashed: true, dots: false }] : []),
    ],
    ranges: rationalRange(s),
    marks: marks(s, withUsl),
  };
}

export function responseConfig(name: string, s: SctServer): CurveChartConfig {
  return {
    id: "sct-response-chart",
    title: `Response time against concurrency — ${name}`,
    description: "The mean response time of the requests completed at each concurrency level: flat while the server has spare capacity, rising once requests queue.",
    xLabel: "concurrency (requests in the server)",
    yLabel: "mean response time",
    xUnit: formatLevel,
    yUnit: formatLatency,
    xAxisUnit: (v) => formatDecimal(v, 0),
    yAxisUnit: (v) => (v === 0 ? "0" : formatLatency(v)),
    series: [{ key: "rt", label: "measured mean", color: "chart-latency", points: true }],
    ranges: rationalRange(s),
    marks: s.q_lower === null ? [] : [{ id: "q-lower", label: `Q_lower ${s.q_lower}`, color: "chart-knee", x: s.q_lower }],
  };
}
