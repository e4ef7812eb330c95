/** Chart configs of a class's knee curve and throughput curve: what is plotted, with which token and unit. */
import type { PowerChart } from "../../api/capacityReport";
import type { ClassReport, CurvePoint } from "../../api/models";
import type { CurveChartConfig, CurveMark, CurveRow } from "../../charts/curveConfig";
import { formatDecimal, formatLatency, formatRatePerS } from "../../lib/format";
import type { SlaFigures } from "./slaMath";

export function percentileLabel(percentile: number): string {
  return `p${formatDecimal(percentile, 1)}`;
}

function sorted(points: readonly CurvePoint[]): CurvePoint[] {
  return [...points].sort((a, b) => a.load_per_s - b.load_per_s);
}

/**
 * One row per curve point, measured and model values in separate series so that the model part
 * is drawn dashed; the last measured point also starts the model line so the two meet.
 */
export function curveChartRows(points: readonly CurvePoint[], value: (p: CurvePoint) => number | null | undefined): CurveRow[] {
  const ps = sorted(points);
  const lastMeasured = ps.reduce((acc, p, i) => (p.source === "measured" ? i : acc), -1);
  const hasModel = ps.some((p) => p.source === "model");
  return ps.map((p, i) => {
    const v = value(p) ?? null;
    return {
      x: p.load_per_s,
      measured: p.source === "measured" ? v : null,
      model: p.source === "model" || (hasModel && i === lastMeasured) ? v : null,
      low: p.source === "measured" ? (p.latency_low_s ?? null) : null,
      high: p.source === "measured" ? (p.latency_high_s ?? null) : null,
    };
  });
}

export function hasInterval(points: readonly CurvePoint[]): boolean {
  return points.some((p) => p.source === "measured" && p.latency_low_s != null && p.latency_high_s != null);
}

export function hasThroughput(points: readonly CurvePoint[]): boolean {
  return points.some((p) => typeof p.throughput_per_s === "number");
}

/** Where a point's label goes: left of it in the right third of the x range (a label centred on
 * a point near the right edge is cut off), else `otherwise`. */
export function labelSide(x: number, xMax: number, otherwise: "top" | "bottom" | "right"): "left" | "top" | "bottom" | "right" {
  return xMax > 0 && x > (2 / 3) * xMax ? "left" : otherwise;
}

function kneeMarks(cls: ClassReport, sla: SlaFigures | null): CurveMark[] {
  const marks: CurveMark[] = [];
  const xMax = Math.max(0, ...cls.curve.map((p) => p.load_per_s), cls.breaking_point_per_s ?? 0, sla?.rate_per_s ?? 0);
  if (cls.knee !== null) {
    const model = cls.knee.source === "model" ? " (model)" : "";
    // a label beside the knee sits on the SLA line when the knee's latency is near the threshold: above it then
    const nearSla = sla !== null && Math.abs(cls.knee.latency_s - sla.threshold_s) < 0.25 * sla.threshold_s;
    marks.push({
      id: "knee",
      label: `Knee ${formatRatePerS(cls.knee.load_per_s)}${model}`,
      labelPosition: nearSla ? (cls.knee.latency_s >= sla.threshold_s ? "top" : "bottom") : "left",
      color: "chart-knee",
      x: cls.knee.load_per_s,
      y: cls.knee.latency_s,
    });
  }
  if (cls.breaking_point_per_s !== null) {
    marks.push({ id: "breaking", label: "Breaking point", color: "chart-breaking", x: cls.breaking_point_per_s });
  }
  if (sla !== null && sla.rate_per_s > 0) {
    marks.push({
      id: "max-rate",
      label: `MaxRate ${formatRatePerS(sla.rate_per_s)}`,
      color: "chart-sla",
      x: sla.rate_per_s,
      y: sla.threshold_s,
      labelPosition: labelSide(sla.rate_per_s, xMax, "bottom"),
    });
  }
  return marks;
}

export function kneeChartConfig(
  className: string,
  percentile: number,
  cls: ClassReport,
  sla: SlaFigures | null,
): CurveChartConfig {
  const p = percentileLabel(percentile);
  const hasModel = cls.curve.some((pt) => pt.source === "model");
  return {
    id: "knee-chart",
    title: `${p} latency against load — ${className}`,
    description:
      `The ${p} latency of ${className} requests at each load level (median over the windows at that load). ` +
      (hasModel ? "Dashed: extrapolated with a queueing model, not measured. " : "") +
      "Drag the SLA line (or focus it and use the arrow keys) to read MaxRate and MaxConn.",
    xLabel: "load (req/s)",
    yLabel: `${p} latency`,
    xUnit: formatRatePerS,
    yUnit: formatLatency,
    yAxisUnit: (v) => (v === 0 ? "0" : formatLatency(v)),
    xAxisUnit: (v) => formatDecimal(v, 1),
    series: [
      { key: "measured", label: `${p} measured`, color: "chart-latency" },
      ...(hasModel ? [{ key: "model", label: `${p} model`, color: "chart-model" as const, dashed: true }] : []),
    ],
    band: hasInterval(cls.curve)
      ? { lowKey: "low", highKey: "high", label: "90% interval", color: "chart-band" }
      : undefined,
    marks: kneeMarks(cls, sla),
  };
}

export function throughputChartConfig(className: string, cls: ClassReport): CurveChartConfig {
  const hasModel = cls.curve.some((pt) => pt.source === "model");
  const marks: CurveMark[] =
    cls.breaking_point_per_s === null
      ? []
      : [{ id: "breaking", label: "Breaking point", color: "chart-breaking", x: cls.breaking_point_per_s }];
  return {
    id: "throughput-chart",
    title: `Throughput against load — ${className}`,
    description: "Completed requests per second per load level; where it stops growing is the breaking point.",
    xLabel: "load (req/s)",
    yLabel: "throughput (req/s)",
    xUnit: formatRatePerS,
    yUnit: formatRatePerS,
    xAxisUnit: (v) => formatDecimal(v, 1),
    yAxisUnit: (v) => formatDecimal(v, 1),
    series: [
      { key: "measured", label: "measured", color: "chart-throughput" },
      ...(hasModel ? [{ key: "model", label: "model", color: "chart-model" as const, dashed: true }] : []),
    ],
    marks,
  };
}

/** A polynomial (highest power first) at x, by Horner's rule (numpy.polyval). */
export function polyval(coefficients: readonly number[], x: number): number {
  return coefficients.reduce((acc, c) => acc * x + c, 0);
}

const formatPower = (v: number) => `${formatDecimal(v, 1)} req/s²`;

/**
 * The windows' power ratio (dots) and the cubic fit at the same loads (line); without a
 * power-ratio capacity (`withFit` false: the fit has no maximum to read) the dots alone.
 */
export function powerRows(p: PowerChart, withFit = true): CurveRow[] {
  return p.points.map((pt): CurveRow => {
    const row: CurveRow = { x: pt.load_per_s, power: pt.power_per_s2 };
    if (withFit) row.fit = polyval(p.coefficients, pt.load_per_s);
    return row;
  });
}

export function powerChartConfig(p: PowerChart, withFit = true): CurveChartConfig {
  const peak = withFit ? p.peak_load_per_s : null;
  const dots = "Each dot is a window: completed requests per second divided by their mean latency.";
  return {
    id: "power-chart",
    title: "Power ratio against load",
    description: withFit
      ? `${dots} The line is the cubic fit; its maximum inside the observed loads is the power-ratio capacity.`
      : `${dots} The power ratio has no peak inside the observed loads, so no fit is drawn.`,
    xLabel: "load (req/s)",
    yLabel: "power (req/s²)",
    xUnit: formatRatePerS,
    yUnit: formatPower,
    xAxisUnit: (v) => formatDecimal(v, 1),
    yAxisUnit: (v) => formatDecimal(v, 0),
    series: [
      { key: "power", label: "window", color: "chart-latency", points: true },
      ...(withFit ? [{ key: "fit", label: "cubic fit", color: "chart-knee" as const, dots: false }] : []),
    ],
    marks: peak === null ? [] : [{ id: "peak", label: `Peak ${formatRatePerS(peak)}`, color: "chart-breaking", x: peak }],
  };
}
